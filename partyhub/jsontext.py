"""The compact JSON text of the frames the server sends: no spaces, non-ASCII as it is.

`compact(obj)` is the text of `json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`,
from one C encoder made once: `json.dumps` with options builds a new encoder on every call,
and a change's views call it some thirty times (issue 29's bench). The one difference: a
value that contains itself is not looked for (json's check_circular) and fails with
RecursionError, not ValueError; views are JSON data, which never does."""
from __future__ import annotations

import json
from json.encoder import c_make_encoder, encode_basestring

_PLAIN = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
# (markers, default, encoder, indent, key separator, item separator, sort_keys, skipkeys, allow_nan)
_C = c_make_encoder and c_make_encoder(None, _PLAIN.default, encode_basestring, None, ":", ",",
                                       False, False, True)


def compact(obj) -> str:
    return "".join(_C(obj, 0)) if _C is not None else _PLAIN.encode(obj)
