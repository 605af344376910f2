"""The compact JSON text of the frames the server sends: no spaces, non-ASCII as it is.

`compact(obj)` is `json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`, the same
text, from one encoder made once: `json.dumps` with options builds a new encoder on every
call, and a change's views call it some thirty times (bench: issue 29)."""
from __future__ import annotations

import json

compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
