"""Bots: players that join through the public protocol and choose among their view's actions.

`python manage.py bots <code> --count N` runs N of them; the lobby's "add bot" starts one
inside the server process. They never see more than a phone would.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import urllib.error
import urllib.request
import uuid

import websockets

log = logging.getLogger(__name__)
ROOM_ACTIONS = {"start", "kick", "pause", "resume", "end", "again", "lock", "unlock",
                "settings", "add_bot", "take_seat", "approve_claim", "deny_claim", "unban"}
NAMES = ["Robo", "Beep", "Chip", "Bolt", "Pixel", "Gizmo", "Sprocket", "Widget", "Nano", "Zippy",
         "Cog", "Servo", "Byte", "Dot", "Echo", "Turbo"]
WORDS = {
    "en": ["moon", "ladder", "dream", "ocean", "secret", "journey", "storm", "garden", "clock", "door"],
    "uk": ["місяць", "драбина", "мрія", "океан", "таємниця", "подорож", "буря", "сад", "годинник", "двері"],
    "ru": ["луна", "лестница", "мечта", "океан", "тайна", "путешествие", "буря", "сад", "часы", "дверь"],
}
_tasks: set = set()


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


async def join(base: str, code: str, rnd: random.Random) -> dict:
    """Join the room under a free bot name; returns {"player_id", "token", "name"}."""
    names = NAMES[:]
    rnd.shuffle(names)
    for attempt in range(len(names) * 3):
        name = names[attempt % len(names)] + ("" if attempt < len(names) else f" {attempt}")
        status, body = await asyncio.to_thread(_post, f"{base}/api/rooms/{code}/join", {"name": name})
        if status == 201:
            return {**body, "name": name}
        code_ = (body.get("error") or {}).get("code")
        if code_ not in ("name_taken", "name_kicked"):
            raise RuntimeError(f"join refused: {code_}")
    raise RuntimeError("no free bot name")


def choose(actions: list, language: str, rnd: random.Random, failed=()) -> dict | None:
    game = [a for a in actions if a.get("type") not in ROOM_ACTIONS
            and json.dumps(a, sort_keys=True) not in failed]
    if not game:
        return None
    pick = rnd.choice(game)
    words = WORDS.get(language, WORDS["en"])
    return {k: (rnd.choice(words) if v is None else v) for k, v in pick.items()}


async def play(base: str, code: str, token: str, rnd: random.Random,
               think=(0.3, 1.5), max_seconds: float = 4 * 3600) -> str:
    """Play as the seat of `token` until kicked, the room goes away, or time runs out."""
    ws_url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={token}"
    loop = asyncio.get_running_loop()
    end = loop.time() + max_seconds
    backoff = 0.5
    while loop.time() < end:
        try:
            async with websockets.connect(ws_url, max_size=2 ** 22, open_timeout=10) as ws:
                backoff = 0.5
                reason = await _session(ws, rnd, think)
                if reason:
                    return reason
        except websockets.InvalidStatus:
            return "refused"
        except (OSError, websockets.ConnectionClosed, asyncio.TimeoutError):
            pass
        await asyncio.sleep(backoff + rnd.random() * backoff)
        backoff = min(backoff * 2, 10)
    return "timeout"


async def _session(ws, rnd, think) -> str | None:
    view, version, pending, failed, last = None, -1, None, set(), None
    while True:
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel
            async with asyncio.timeout(rnd.uniform(*think)):
                raw = await ws.recv()
        except asyncio.TimeoutError:
            raw = None
        except websockets.ConnectionClosed as e:
            return "kicked" if e.rcvd and e.rcvd.code == 4003 else None
        if raw is not None:
            frame = json.loads(raw)
            if frame.get("t") == "kicked":
                return "kicked"
            if frame.get("t") == "view" and frame.get("v", 0) > version:
                version, view, pending, failed = frame["v"], frame["d"], None, set()
            elif frame.get("t") == "error" and pending == version and last is not None:
                failed.add(last)      # refused: choose something else in this view
                pending = None
            continue
        if view is None or pending == version:
            continue
        offered = view.get("actions", [])
        action = choose(offered, view["room"].get("language", "en"), rnd, failed)
        if action is not None:
            pending = version
            template = next(a for a in offered if a.get("type") == action["type"] and
                            all(action.get(k) == v for k, v in a.items() if v is not None))
            last = json.dumps(template, sort_keys=True)
            await ws.send(json.dumps({"t": "act", "id": uuid.uuid4().hex, "d": action}))


async def run(base: str, code: str, seed: int | None = None, think=(0.3, 1.5)) -> str:
    rnd = random.Random(seed)
    seat = await join(base, code, rnd)
    return await play(base, code, seat["token"], rnd, think)


def spawn(code: str) -> None:
    """Start one bot for a room inside this server process (the lobby's "add bot")."""
    from django.conf import settings
    task = asyncio.get_running_loop().create_task(run(settings.INTERNAL_URL, code))
    _tasks.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("bot stopped: %s", task.exception())
