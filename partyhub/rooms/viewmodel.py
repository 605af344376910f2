"""Per-viewer views: computed once per change, encoded once, sent to per-viewer groups."""
from __future__ import annotations

import json

from partyhub import blobs
from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms import (audience as audience_play, claims, familymode, pacing, registry,
                            roomactions, scoreboard, seating, standin)
from partyhub.rooms.clock import wall_deadline

def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def room_part(room, seats, join_url: str) -> dict:
    game = registry.get(room.game_id) if room.game_id else None
    running = room.phase in ("playing", "over") and game is not None and room.state is not None
    scores = game.scores(room.state) if running else {}
    in_game = set(room.game_seats) if room.phase != "lobby" else None
    covered = standin.playing_for(room)
    players = [{
        "id": s.player_id, "name": s.name, "color": s.color, "symbol": s.symbol,
        "connected": s.connected, "score": scores.get(s.player_id, 0), "bot": s.bot,
        "standin": s.player_id in covered,
    } for s in seats if in_game is None or s.player_id in in_game]
    part = {
        "code": room.code, "phase": room.phase, "game": room.game_id or None,
        "game_no": room.game_no, "vip": room.vip or None,
        "paused": room.paused_at is not None, "language": room.language,
        "locked": bool(room.settings.get("locked")),
        "streamer": bool(room.settings.get("streamer")),
        "extended": roomactions.timers(room.settings) == "extended",
        "timers": roomactions.timers(room.settings),
        "timer_factor": roomactions.timer_factor(room.settings),
        "paced": pacing.dealt_paced(room),
        "takeover": bool(room.settings.get("takeover")),
        "standin": (standin.delay_ms(room) or 0) // 1000,
        "family": familymode.on(room),
        "audience_play": bool(room.settings.get("audience")),
        "join_url": join_url, "players": players,
        "audience": sum(1 for s in seats if in_game is not None and s.player_id not in in_game),
        "options": room.options if room.phase != "lobby" else None,
        "chosen": roomactions.chosen(room) if room.phase != "playing" else None,
        "results": room.results if room.phase == "over" else None,
        "scoreboard": scoreboard.normalized(room.scoreboard),
        "claims": claims.public(room), "barred": list(room.barred or []),
    }
    if room.phase != "playing":
        part["games"] = registry.described(room.host)
    if room.paused_at is not None and room.state and game is not None:
        due = game.deadline(room.state)
        part["remaining"] = None if due is None else max(0, due - (room.paused_at - room.paused_total))
    return part


def room_actions(room, seats, role: str, seat) -> list:
    is_host = role == "tv"
    is_vip = seating.may_run_room(seat) and seat.player_id == room.vip
    acts = []
    if seat is not None and not seat.playing and room.phase == "playing" and room.settings.get("takeover"):
        acts += [{"type": "take_seat", "player": s.player_id} for s in seats
                 if s.player_id in room.game_seats and not s.connected]
        in_room = {s.player_id for s in seats}
        acts += [{"type": "take_seat", "player": p} for p in room.game_seats if p not in in_room]
    if not (is_host or is_vip):
        return acts
    n = sum(1 for s in seats if room.phase == "lobby" or s.player_id in room.game_seats or not s.playing)
    if room.phase in ("lobby", "over"):
        acts += [{"type": "start", "game": g.id, "options": None} for g in registry.listed()
                 if g.min_players <= n <= g.max_players]
        acts.append({"type": "choose", "game": None, "options": None})
        acts.append({"type": "add_bot"})
    if room.phase == "playing":
        acts.append({"type": "resume"} if room.paused_at is not None else {"type": "pause"})
    if is_vip and pacing.may_advance(room):
        acts.append({"type": "advance"})
    if room.phase in ("playing", "over"):
        acts += [{"type": "again"}, {"type": "end"}]
    acts.append({"type": "unlock"} if room.settings.get("locked") else {"type": "lock"})
    acts += [{"type": "kick", "player": s.player_id} for s in seats
             if seat is None or s.pk != seat.pk]
    acts += claims.actions(room) + claims.unbar_actions(room)
    if is_host:
        acts.append({"type": "settings", "language": None, "streamer": None,
                     "extended": None, "timers": None, "takeover": None, "family": None,
                     "standin": None, "audience": None})
        acts.append({"type": "hide", "player": None, "text": None})
    return acts


class Frames(dict):
    """{viewer: view frame text}, plus the large values the texts reference (partyhub/blobs.py):
    `blobs` {hash: JSON text} and `refs` {viewer: [hashes its view references]}."""

    def __init__(self):
        super().__init__()
        self.blobs: dict = {}
        self.refs: dict = {}


def viewer_frames(room, seats, join_url: str, only=None) -> Frames:
    """{viewer: frame text} for the table, the audience and every seat of the room, or only
    for the viewers in `only` (a set of viewer keys) when it is given. The game's large values
    (`GAME.blobs`) stand in the texts as references; the values are in the result's `blobs`."""
    game = registry.get(room.game_id) if room.game_id else None
    has_game = room.phase in ("playing", "over") and game is not None and room.state is not None
    hidden = familymode.hidden(room)        # texts the host hid: in no frame (redact)
    room_json = _dumps(familymode.redact(room_part(room, seats, join_url), hidden))
    deadline = wall_deadline(room)
    head = '{"t":"view","v":%d,"d":{"room":%s,' % (room.version, room_json)
    deadline_json = "null" if deadline is None else str(deadline)
    playing = room.phase == "playing" and room.paused_at is None

    def frame(you, game_view, actions):
        return (head + '"you":' + _dumps(you) + ',"game":' + game_view + ',"deadline":' +
                deadline_json + ',"actions":' + _dumps(familymode.redact(actions, hidden)) + "}}")

    out = Frames()
    blob_keys = getattr(game, "blobs", frozenset()) if has_game else frozenset()
    memo: dict = {}

    def game_json(viewer, refs_of):
        if not has_game:
            return "null"
        view = familymode.redact(game.view(room.state, viewer), hidden)
        if blob_keys:
            used = out.refs.setdefault(refs_of, [])
            view = blobs.externalize(view, blob_keys, out.blobs, used, memo)
        return _dumps(view)

    def game_acts(viewer):
        return list(game.actions(room.state, viewer)) if has_game and playing else []

    audience = []       # the audience's game view, computed once when someone needs it

    def audience_view():
        if not audience:
            audience.append(game_json(AUDIENCE, AUDIENCE))
        return audience[0]

    def wanted(viewer):
        return only is None or viewer in only

    if wanted(TABLE):
        out[TABLE] = frame({"role": "tv", "id": None}, game_json(TABLE, TABLE),
                           game_acts(TABLE) + room_actions(room, seats, "tv", None))
    audience_acts = audience_play.actions(room, game) if has_game else []
    if wanted(AUDIENCE):
        out[AUDIENCE] = frame({"role": "audience", "id": None}, audience_view(), audience_acts)
    for s in seats:
        if not wanted(s.player_id):
            continue
        in_game = room.phase == "lobby" or s.player_id in room.game_seats
        if in_game and s.playing:
            view = game_json(s.player_id, s.player_id)
            acts = game_acts(s.player_id) if room.phase != "lobby" else []
            you = {"role": "player", "id": s.player_id}
        else:
            view, acts = audience_view(), list(audience_acts)
            if AUDIENCE in out.refs:
                out.refs[s.player_id] = out.refs[AUDIENCE]
            you = {"role": "audience", "id": s.player_id}
        you["language"] = s.language or room.language     # this phone's (the TV's is the room's)
        out[s.player_id] = frame(you, view, acts + room_actions(room, seats, "player", s))
    return out


def viewer_key(role: str, seat) -> str:
    """The key in viewer_frames() for a connection."""
    if role == "tv":
        return TABLE
    return seat.player_id if seat is not None else AUDIENCE
