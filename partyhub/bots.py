"""Bots: players that join through the public protocol and choose among their view's actions.

A game may bring its own strategy (`games/<game>/bot.py`, see `strategy`): it still gets only
the bot's view and answers with an action a phone could send.

`python manage.py bots <code> --count N` runs N of them; the lobby's "add bot" starts one
inside the server process. They never see more than a phone would.
"""
from __future__ import annotations

import asyncio
import functools
import importlib
import json
import logging
import random
import urllib.error
import urllib.request
import uuid

import websockets

from partyhub.blobs import Held

log = logging.getLogger(__name__)
ROOM_ACTIONS = {"start", "kick", "pause", "resume", "end", "again", "lock", "unlock",
                "settings", "add_bot", "take_seat", "approve_claim", "deny_claim", "unban",
                "advance"}
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


async def join(base: str, code: str, rnd: random.Random, bot_pass: str | None = None) -> dict:
    """Join the room under a free bot name; returns {"player_id", "token", "name"}. With the
    server's bot pass (partyhub/rooms/botpass.py) the seat is flagged a bot: never VIP, shown
    as a bot; without it (a bot run against another server) it joins like a person."""
    names = NAMES[:]
    rnd.shuffle(names)
    for attempt in range(len(names) * 3):
        name = names[attempt % len(names)] + ("" if attempt < len(names) else f" {attempt}")
        status, body = await asyncio.to_thread(_post, f"{base}/api/rooms/{code}/join",
                                           {"name": name, **({"bot_pass": bot_pass} if bot_pass else {})})
        if status == 201:
            return {**body, "name": name}
        code_ = (body.get("error") or {}).get("code")
        if code_ not in ("name_taken", "name_kicked"):
            raise RuntimeError(f"join refused: {code_}")
    raise RuntimeError("no free bot name")


def choose(actions: list, language: str, rnd: random.Random, failed=()) -> dict | None:
    """A game action picked at random among the offered ones (free text from a small word list)."""
    game = [a for a in actions if a.get("type") not in ROOM_ACTIONS
            and json.dumps(a, sort_keys=True) not in failed]
    if not game:
        return None
    pick = rnd.choice(game)
    words = WORDS.get(language, WORDS["en"])
    return {k: (rnd.choice(words) if v is None else v) for k, v in pick.items()}


@functools.lru_cache(maxsize=32)
def strategy(game: str | None):
    """The game's own bot module (`games/<game>/bot.py`), or None. Its hooks are optional:
    - `choose(view, offered, rnd, failed, memory)`: the whole decision (None: nothing to do
      now), e.g. klepka's solver;
    - `prefer(view, actions, language, rnd)`: a sensible pick among `actions` (the offered game
      actions not refused in this view) or None to leave it to chance, e.g. association's and
      jinx's card tags;
    - `sensible(view, actions)`: narrows the actions the bot may pick from;
    - `stream_moves(view)`: stream actions to send now (a sketch bot's drawing);
    - `NEVER`: the kinds of action it never plays (klepka keeps exchange and chaos).
    The bot still sees only its own view and sends what a phone could send; a hook that raises
    is logged and the bot picks at random."""
    if not game or not isinstance(game, str) or not game.isidentifier():
        return None
    try:
        return importlib.import_module(f"games.{game}.bot")
    except ModuleNotFoundError as e:
        if e.name not in (f"games.{game}", f"games.{game}.bot", "games"):
            raise          # the strategy itself is broken: say so, do not play at random
        return None


def never_played(game: str | None) -> frozenset:
    """The kinds of action the game's bot never plays (`games/<game>/bot.py: NEVER`): offered
    only these, a seat is not one the game waits on."""
    return frozenset(getattr(strategy(game), "NEVER", ()))


def _hook(view: dict, name: str):
    """The game's optional bot hook `games/<game>/bot.py: <name>`, or None."""
    module = strategy((view.get("room") or {}).get("game"))
    hook = getattr(module, name, None) if module is not None else None
    return hook if callable(hook) else None


def stream_moves(view: dict) -> list[dict]:
    """Stream actions (not listed in a view's actions) the game's hook `stream_moves(view)`
    wants sent now, e.g. a sketch bot's drawing."""
    hook = _hook(view, "stream_moves")
    return hook(view) if hook else []


def offered_actions(view: dict) -> list[dict]:
    """The view's actions, narrowed by the game's hook `sensible(view, actions)` if it has one."""
    actions = view.get("actions", [])
    hook = _hook(view, "sensible")
    return hook(view, actions) if hook else actions


def next_action(view: dict, rnd: random.Random, failed=(), memory=None) -> dict | None:
    """What the bot does in this view: the game's `choose`, else its `prefer`, else chance."""
    offered = offered_actions(view)
    language = (view.get("room") or {}).get("language", "en")
    game = [a for a in offered if a.get("type") not in ROOM_ACTIONS]
    try:
        plan = _hook(view, "choose")
        if plan is not None and view.get("game") is not None:
            return plan(view, game, rnd, failed, {} if memory is None else memory)
        prefer = _hook(view, "prefer")
        fresh = [a for a in game if json.dumps(a, sort_keys=True) not in failed]
        if prefer is not None and fresh and view.get("game") is not None:
            pick = prefer(view, fresh, language, rnd)
            if pick is not None:
                return pick
    except Exception:        # noqa: BLE001 - a strategy's slip must not stop the bot
        log.exception("bot strategy failed; picking at random")
    return choose(offered, language, rnd, failed)


def offered_key(offered: list, action: dict) -> str:
    """How a refused `action` goes into `failed`: the offered action it filled in (free-text
    fields left None), so that `next_action` chooses something else in the same view."""
    template = next((a for a in offered if a.get("type") == action["type"] and
                     all(action.get(k) == v for k, v in a.items() if v is not None)), action)
    return json.dumps(template, sort_keys=True)


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
    view, version, pending, failed, last, streamed = None, -1, None, set(), None, set()
    ref = None            # the id of the game action awaiting its view (or its refusal)
    memory: dict = {}     # the game strategy's own notes (what it has seen), per connection
    held = Held()         # the drawings this connection was sent (partyhub/blobs.py)
    loop = asyncio.get_running_loop()
    # When the bot acts: a think time after it first had something to do, then on the newest
    # view. Frames that arrive meanwhile do not put it off: in a busy room (strokes streaming,
    # others chatting) a bot that waited for a quiet moment would never get its turn played.
    act_at = None
    while True:
        if act_at is None and view is not None and pending != version:
            act_at = loop.time() + rnd.uniform(*think)
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel
            async with asyncio.timeout(None if act_at is None else max(0.0, act_at - loop.time())):
                raw = await ws.recv()
        except asyncio.TimeoutError:
            raw = None
        except websockets.ConnectionClosed as e:
            return "kicked" if e.rcvd and e.rcvd.code == 4003 else None
        if raw is not None:
            frame = held.take(json.loads(raw))
            if frame.get("t") == "kicked":
                return "kicked"
            if frame.get("t") == "view" and frame.get("v", 0) > version:
                version, view, pending, failed = frame["v"], frame["d"], None, set()
            elif (frame.get("t") == "error" and pending == version and last is not None
                  and (frame.get("d") or {}).get("ref") == ref):
                # refused: choose something else in this view. Only the action's own error:
                # a refused stroke is answered at its room's stream tick, maybe after it.
                failed.add(last)
                pending = None
            continue
        act_at = None
        if view is None or pending == version:
            continue
        moves = stream_moves(view)
        key = json.dumps([view["room"].get("game_no"), moves[:1]], sort_keys=True)
        if moves and key not in streamed:     # once: the view shows the lines after absorbing
            streamed.add(key)
            for move in moves:
                await ws.send(json.dumps({"t": "act", "id": uuid.uuid4().hex, "d": move}))
                await asyncio.sleep(0.06)   # well inside the stream budget
            continue
        offered = view.get("actions", [])
        action = next_action(view, rnd, failed, memory)
        if action is not None:
            pending = version
            last, ref = offered_key(offered, action), uuid.uuid4().hex
            await ws.send(json.dumps({"t": "act", "id": ref, "d": action}))


async def run(base: str, code: str, seed: int | None = None, think=(0.3, 1.5),
              bot_pass: str | None = None) -> str:
    rnd = random.Random(seed)
    seat = await join(base, code, rnd, bot_pass)
    return await play(base, code, seat["token"], rnd, think)


def spawn(code: str) -> None:
    """Start one bot for a room inside this server process (the lobby's "add bot")."""
    from django.conf import settings

    from partyhub.rooms import botpass
    task = asyncio.get_running_loop().create_task(
        run(settings.INTERNAL_URL, code, bot_pass=botpass.for_room(code)))
    _tasks.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("bot stopped: %s", task.exception())
