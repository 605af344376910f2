"""Custom decks: stored and listed (docs/protocol.md, "Decks").

The pictures of an upload are judged and re-encoded by partyhub/decks/pictures.py, in a
worker process (partyhub/decks/uploads.py). The deck goes through Django's storage API
(default_storage, MEDIA_ROOT = DATA_DIR) under decks/<id>/: the cards first, the manifest
last, since a deck is offered (partyhub/decks) only once its manifest is there. In compose
that folder is the `decks` volume every web replica mounts.

A deck belongs to the host key of the TV browser that uploaded it (its hash is the manifest's
`owner`, the stored pictures' size its `bytes`): that host may rename, share and delete it,
within a quota of decks and bytes; a share code lets another host add it to their decks
(`shared`). The manifest is replaced whole under a lock on the deck's folder
(docs/decisions.md "Decks belong to whoever uploaded them").
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import secrets
import time

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from partyhub import decks
from partyhub.rooms.core.errors import fail
from partyhub.text import visible

MAX_NAME = 40
HOST_KEY = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
SHARE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read out to a friend
SHARE_LENGTH = 8


def host_key_hash(key) -> str:
    """The hash a host key is kept as ("" for anything that is not a host key)."""
    if not isinstance(key, str) or not HOST_KEY.match(key):
        return ""
    return hashlib.sha256(key.encode()).hexdigest()


def new_host_key() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name) -> str:
    """The deck's name as shown: invisible controls stripped, spaces folded."""
    name = " ".join(visible(str(name or "")).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise fail("bad_deck_name")
    return name


def card_key(deck_id: str, card_id: str) -> str:
    """Where a card lives in default_storage."""
    return f"decks/{deck_id}/{card_id}.webp"


def quota_check(owner: str, incoming: int = 0) -> None:
    """Refuse a new deck of `incoming` bytes the host's quota has no room for."""
    limits = settings.PARTYHUB_LIMITS
    mine = [decks.manifest(d) for d in decks.owned(owner)]
    if len(mine) >= limits["decks_per_host"]:
        raise fail("too_many_decks")
    if sum(m.get("bytes", 0) for m in mine) + incoming > limits["deck_bytes_per_host"]:
        raise fail("decks_too_large")


def store(name: str, cards, owner: str = "") -> dict:
    """Write the deck under decks/<id>/ in default_storage: cards, then the manifest that makes
    it a deck (owned by the host key hash `owner`). A failure part-way removes what was
    written."""
    deck_id = "u" + secrets.token_hex(5)
    while default_storage.exists(f"decks/{deck_id}/{decks.MANIFEST}"):
        deck_id = "u" + secrets.token_hex(5)
    written = []
    try:
        ids, size = [], 0
        for n, webp in enumerate(cards, start=1):
            card_id = f"{deck_id}-{n:03d}"
            written.append(default_storage.save(card_key(deck_id, card_id), ContentFile(webp)))
            ids.append(card_id)
            size += len(webp)
        manifest = {"name": name, "image": f"/decks/{deck_id}/{{id}}.webp", "created": time.time(),
                    "credit": "", "owner": owner, "bytes": size, "shared": [],
                    "cards": [{"id": i, "objects": []} for i in ids]}
        text = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
        written.append(default_storage.save(f"decks/{deck_id}/{decks.MANIFEST}", ContentFile(text)))
    except BaseException:
        for key in written:
            default_storage.delete(key)
        raise
    return {"deck": deck_id, "name": name, "cards": len(ids)}


def listing(host: str, staff: bool = False) -> list[dict]:
    """The uploaded decks the caller sees: a host its own and those shared with it (`mine`
    tells which, and an owner sees its share code); a staff user every deck, with its owner."""
    out = []
    for d in decks.custom_ids() if staff else decks.allowed(host):
        m = decks.manifest(d)
        mine = bool(host) and m.get("owner") == host
        row = {"id": d, "name": m.get("name", d), "cards": len(m["cards"]),
               "bytes": m.get("bytes", 0), "mine": mine}
        if mine or staff:
            row["share"] = m.get("share")
        if staff:
            row["owner"] = (m.get("owner") or "")[:12]
            row["shared_with"] = len(m.get("shared", ()))
        out.append(row)
    return out


def _may_change(deck_id: str, host: str, staff: bool) -> dict:
    """The deck's manifest, when the caller may change it (its owner or a staff user)."""
    try:
        m = decks.manifest(deck_id)
    except (KeyError, OSError, ValueError):
        raise fail("deck_not_found")
    if not staff and not (host and m.get("owner") == host):
        raise fail("deck_not_found" if host not in m.get("shared", ()) else "deck_not_yours")
    return m


@contextlib.contextmanager
def _locked(deck_id: str):
    """The deck's folder locked against another change of its manifest (any process here)."""
    folder = decks.custom_root() / deck_id
    try:
        lock = open(folder / ".lock", "a")
    except OSError:
        raise fail("deck_not_found")
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield folder


def _rewrite(deck_id: str, change) -> dict:
    """The manifest read afresh under the lock, changed by `change(manifest)`, put in place
    whole (a reader sees the old or the new one, never a part)."""
    with _locked(deck_id) as folder:
        try:
            m = decks.manifest(deck_id)
        except (KeyError, OSError, ValueError):
            raise fail("deck_not_found")
        change(m)
        tmp = folder / f".{decks.MANIFEST}.{secrets.token_hex(4)}"
        tmp.write_text(json.dumps(m, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, folder / decks.MANIFEST)
        return m


def rename(deck_id: str, host: str, staff: bool, name) -> dict:
    _may_change(deck_id, host, staff)
    name = clean_name(name)
    m = _rewrite(deck_id, lambda m: m.update(name=name))
    return {"id": deck_id, "name": m["name"]}


def share(deck_id: str, host: str, staff: bool, new: bool = False) -> str:
    """The deck's share code: made the first time it is asked for, and again (a new one, the
    old one no longer redeemed) when `new` is asked; the hosts that added it keep it."""
    _may_change(deck_id, host, staff)

    def change(m):
        if new or not m.get("share"):
            old = m.get("share")
            m["share"] = old
            while m["share"] == old:
                m["share"] = "".join(secrets.choice(SHARE_ALPHABET) for _ in range(SHARE_LENGTH))
    return _rewrite(deck_id, change)["share"]


def unshare(deck_id: str, host: str, staff: bool) -> int:
    """Withdraw the share: the code is redeemed no more, and every host that added the deck
    loses it (a game already dealt with it plays on); how many hosts lost it. The manifest is
    replaced whole, and every process reads it afresh (partyhub/decks `_read`), so the code
    stops working at once everywhere."""
    _may_change(deck_id, host, staff)
    lost = []

    def change(m):
        lost[:] = m.get("shared", [])
        m["share"], m["shared"] = None, []
    _rewrite(deck_id, change)
    return len(lost)


def redeem(code, host: str) -> dict:
    """The deck whose share code is `code`, added to the host's decks; None for no deck."""
    code = "".join(str(code or "").split()).upper()
    if not host or len(code) != SHARE_LENGTH:
        return None
    found = next((d for d in decks.custom_ids() if decks.manifest(d).get("share") == code), None)
    if found is None:
        return None

    def change(m):
        if m.get("owner") != host and host not in m.get("shared", []):
            m["shared"] = [*m.get("shared", []), host]
    m = _rewrite(found, change)
    return {"id": found, "name": m.get("name", found), "cards": len(m["cards"])}


def delete(deck_id: str, host: str, staff: bool) -> None:
    """The deck gone: its manifest first (then it is no deck), then its cards and folder.
    A game already started with it keeps its cards (their ids are in its log and state), not
    their pictures."""
    _may_change(deck_id, host, staff)
    with _locked(deck_id) as folder:
        default_storage.delete(f"decks/{deck_id}/{decks.MANIFEST}")
        for name in default_storage.listdir(f"decks/{deck_id}")[1]:
            default_storage.delete(f"decks/{deck_id}/{name}")
    with contextlib.suppress(OSError):
        folder.rmdir()
