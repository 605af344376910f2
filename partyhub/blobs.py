"""Large view values sent once per connection, by content hash (docs/decisions.md, "Drawings
are sent once per connection"). Pure: no Django, no network; the server and every Python
client (bots, tests, the load generators) share it.

A game names the view keys whose values are large and rarely change (`GAME.blobs`, sketch:
`{"strokes"}`). In a view frame each such non-empty value is replaced by a reference
`{"$blob": "<hash>"}`, the hash being the first 16 hex digits of the SHA-256 of the value's
JSON text. Just before a view, the socket gets a `blobs` frame with the values that view
references and this connection has not been sent yet:

    {"t": "blobs", "v": <the version of the view that follows>, "d": {"<hash>": value, ...}}

The server and the client keep the same set: the values referenced by the last view sent on
this connection. A new connection starts with none, so a reload or a reconnect gets them all.
"""
from __future__ import annotations

import hashlib

from partyhub.jsontext import compact as _dumps

REF = "$blob"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def externalize(view, keys: frozenset, texts: dict, used: list, memo: dict):
    """`view` with every non-empty list under one of `keys` replaced by its reference. Each
    value's JSON text goes in `texts` ({hash: text}, shared by the viewers of one change), its
    hash in `used` (this viewer's references, each once); `memo` ({id(value): (value, hash)}) spares
    hashing the same object again for the next viewer (views share the state's lists)."""
    if isinstance(view, dict):
        out = {}
        for k, v in view.items():
            if k in keys and isinstance(v, list) and v:
                out[k] = {REF: _ref(v, texts, used, memo)}
            else:       # only a dict or a list is walked: a scalar is itself (no call)
                out[k] = externalize(v, keys, texts, used, memo) if isinstance(v, _WALKED) else v
        return out
    if isinstance(view, list):
        return [externalize(v, keys, texts, used, memo) if isinstance(v, _WALKED) else v for v in view]
    return view


_WALKED = (dict, list)


def _ref(value: list, texts: dict, used: list, memo: dict) -> str:
    """The hash of a large value, its text in `texts` and the hash in `used` (externalize)."""
    h = memo.get(id(value), (None, None))[1]
    if h is None:
        text = _dumps(value)
        h = digest(text)
        memo[id(value)] = (value, h)     # the value is kept alive, so its id is not reused
        texts[h] = text
    if h not in used:
        used.append(h)
    return h


def frame(version: int, texts: dict) -> str:
    """The `blobs` frame carrying `texts` ({hash: JSON text}) before the view of `version`."""
    body = ",".join('"%s":%s' % (h, t) for h, t in texts.items())
    return '{"t":"blobs","v":%d,"d":{%s}}' % (version, body)


class Held:
    """A client's side: the values of the last view, plus those a `blobs` frame just brought.
    `take(frame)` with every parsed frame; a view's references are resolved in place."""

    def __init__(self):
        self.have: dict = {}
        self.missing: list = []     # hashes a view referenced that never came (a server bug)
        self.v = -1

    def take(self, frame: dict) -> dict:
        """`frame`, a view's references resolved; a view older than the last one is left as
        it came (clients ignore it: its values may be gone)."""
        if frame.get("t") == "blobs" and isinstance(frame.get("d"), dict):
            self.have.update(frame["d"])
        elif frame.get("t") == "view" and frame.get("v", 0) >= self.v:
            self.v = frame.get("v", 0)
            used: dict = {}
            frame["d"] = self._resolve(frame.get("d"), used)
            self.have = used
        return frame

    def _resolve(self, obj, used):
        if isinstance(obj, dict):
            h = obj.get(REF)
            if len(obj) == 1 and isinstance(h, str):
                if h not in self.have:
                    self.missing.append(h)
                used[h] = self.have.get(h, [])
                return used[h]
            return {k: self._resolve(v, used) for k, v in obj.items()}
        if isinstance(obj, list):
            return [self._resolve(v, used) for v in obj]
        return obj
