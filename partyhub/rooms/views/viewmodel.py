"""Per-viewer views: computed once per change, encoded once, sent to per-viewer groups."""
from __future__ import annotations

import json

from partyhub import blobs
from partyhub.jsontext import compact as _dumps
from partyhub.decks import deckpass
from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms import scoreboard
from partyhub.rooms.access import claims, familymode, portraits
from partyhub.rooms.core import seating
from partyhub.rooms.domain import options as room_options
from partyhub.rooms.domain import pacing, photos, roomactions
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.relay import audience as audience_play
from partyhub.rooms.timers import standin, vip
from partyhub.rooms.timers.clock import wall_deadline

FACES = frozenset({"portrait"})     # the room part's large values: the players' drawn faces


def room_part(room, seats, join_url: str) -> dict:
    game = registry.get(room.game_id) if room.game_id else None
    running = room.phase in ("playing", "over") and game is not None and room.state is not None
    scores = calls.scores(game, room.state) if running else {}
    in_game = set(room.game_seats) if room.phase != "lobby" else None
    covered = standin.playing_for(room)
    players = [{
        "id": s.player_id, "name": s.name, "color": s.color, "symbol": s.symbol,
        "connected": s.connected, "score": scores.get(s.player_id, 0), "bot": s.bot,
        "standin": s.player_id in covered, **portraits.shown(s),
    } for s in seats if in_game is None or s.player_id in in_game]
    part = {
        "code": room.code, "phase": room.phase, "game": room.game_id or None,
        "game_no": room.game_no, "vip": room.vip or None,
        "vip_passed": room.vip_passed,      # the crown's last pass, for the TV to say (vip.py)
        "paused": room.paused_at is not None, "language": room.language,
        "locked": bool(room.settings.get("locked")),
        "streamer": bool(room.settings.get("streamer")),
        "extended": roomactions.timers(room.settings) == "extended",
        "timers": roomactions.timers(room.settings),
        "timer_factor": roomactions.timer_factor(room.settings),
        "paced": pacing.dealt_paced(room),
        "takeover": bool(room.settings.get("takeover")),
        "standin": (standin.delay_ms(room) or 0) // 1000,
        "vip_grace": vip.grace_ms(room) // 1000,     # how long the VIP's phone may be away
        "family": familymode.on(room),
        "audience_play": bool(room.settings.get("audience")),
        "audience_game": running and audience_play.plays(game),    # the game has an audience part
        # the open ballot's key (no secret: "t3"), so a voter's phone tells ballots apart
        "audience_ballot": (audience_play.ballot(game, room.state)
                            if running and audience_play.may_play(room, game) else None),
        "join_url": join_url, "players": players,
        "audience": sum(1 for s in seats if in_game is not None and s.player_id not in in_game),
        "options": room_options.shown(room, game) if room.phase != "lobby" else None,
        "chosen": room_options.chosen(room) if room.phase != "playing" else None,
        "results": room.results if room.phase == "over" else None,
        "scoreboard": scoreboard.normalized(room.scoreboard),
        "claims": claims.public(room), "handovers": claims.handovers(room),
        "barred": list(room.barred or []),
    }
    table = photos.public(room)     # the table photos: on or off, how many (photos.py); with
    if table["on"] or table["count"]:   # their deck and the pass opening it, only while there may be some
        deck = photos.deck_id(room.pk)
        part["photos"] = {**table, "deck": deck, "pass": deckpass.room_pass(room.pk, deck)}
    if room.phase != "lobby" and (deck_pass := deckpass.current(room)):
        part["deck_pass"] = deck_pass   # opens the uploaded deck's pictures (deckpass.py)
    if room.phase != "playing":
        part["games"] = registry.described(room.host)
    if room.paused_at is not None and room.state and game is not None:
        due = calls.deadline(game, room.state)
        part["remaining"] = None if due is None else max(0, due - (room.paused_at - room.paused_total))
    return part


def room_actions(room, seats, role: str, seat) -> list:
    is_host = role == "tv"
    is_vip = vip.is_vip(room, seat)
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
                 if seating.fits(g, n)]
        acts.append({"type": "choose", "game": None, "options": None})
        if not roomactions.room_full(seats) and not room.settings.get("locked"):
            acts.append({"type": "add_bot"})
    if room.phase == "playing":
        acts.append({"type": "resume"} if room.paused_at is not None else {"type": "pause"})
    if pacing.may_pace(room, seats, role, seat) and pacing.may_advance(room):
        acts.append({"type": "advance"})
    if room.phase in ("playing", "over"):
        acts += [{"type": "again"}, {"type": "end"}]
    acts.append({"type": "unlock"} if room.settings.get("locked") else {"type": "lock"})
    acts += [{"type": "kick", "player": s.player_id} for s in seats
             if seat is None or s.pk != seat.pk]
    acts += claims.unbar_actions(room)
    if is_host:
        acts += claims.actions(room)        # a seat changes hands only on the TV
        acts.append({"type": "settings", "language": None, "streamer": None,
                     "extended": None, "timers": None, "takeover": None, "family": None,
                     "standin": None, "vip_grace": None, "audience": None, "photos": None})
        acts.append({"type": "hide", "player": None, "text": None})
        acts.append({"type": "revoke_passes"})
    return acts


class Frames(dict):
    """{viewer: view frame text}, plus the large values the texts reference (partyhub/blobs.py):
    `blobs` {hash: JSON text} and `refs` {viewer: [hashes its view references]}."""

    def __init__(self):
        super().__init__()
        self.blobs: dict = {}
        self.refs: dict = {}


class _Change:
    """What the frames of one change share: the room, its game, the texts the host hid, the
    frame's head (the room part: the same for every viewer, but that those who cannot choose get
    the lobby's choice without its free-text options, `public_head`), and the game views' large
    values (`out.blobs`) and each viewer's references to them (`out.refs`)."""

    def __init__(self, room, seats, join_url: str, out: Frames, faces: list):
        self.room, self.seats, self.out = room, seats, out
        self.game = registry.get(room.game_id) if room.game_id else None
        self.has_game = room.phase in ("playing", "over") and self.game is not None and room.state is not None
        self.playing = room.phase == "playing" and room.paused_at is None
        self.hidden = familymode.hidden(room)        # texts the host hid: in no frame (redact)
        self.blob_keys = getattr(self.game, "blobs", frozenset()) if self.has_game else frozenset()
        self.memo: dict = {}
        self.audience_json: str | None = None       # the audience's game view, computed once
        room_view = blobs.externalize(familymode.redact(room_part(room, seats, join_url), self.hidden),
                                      FACES, out.blobs, faces, {})
        self.head = self._head(room_view)
        # the lobby's choice without its free-text options, for those who cannot choose
        public = familymode.redact(room_options.chosen(room, editor=False), self.hidden) \
            if room_view["chosen"] is not None else None
        self.public_head = self.head if public == room_view["chosen"] else self._head({**room_view, "chosen": public})
        deadline = wall_deadline(room)
        self.tail = ',"deadline":' + ("null" if deadline is None else str(deadline))

    def _head(self, room_view: dict) -> str:
        return '{"t":"view","v":%d,"d":{"room":%s,' % (self.room.version, _dumps(room_view))


def _frame(ch: _Change, you: dict, game_view: str, actions: list, editor: bool = False) -> str:
    """`editor`: the viewer may choose the lobby's game and options (the TV, the VIP)."""
    return ((ch.head if editor else ch.public_head) + '"you":' + _dumps(you) + ',"game":' + game_view + ch.tail +
            ',"actions":' + _dumps(familymode.redact(actions, ch.hidden)) + "}}")


def _game_json(ch: _Change, viewer: str) -> str:
    """The game's view for `viewer` as JSON, its large values as references (in out.refs)."""
    if not ch.has_game:
        return "null"
    view = familymode.redact(calls.view(ch.game, ch.room.state, viewer), ch.hidden)
    if ch.blob_keys:
        used = ch.out.refs.setdefault(viewer, [])
        view = blobs.externalize(view, ch.blob_keys, ch.out.blobs, used, ch.memo)
    return _dumps(view)


def _game_acts(ch: _Change, viewer: str) -> list:
    return calls.actions(ch.game, ch.room.state, viewer) if ch.has_game and ch.playing else []


def _audience_view(ch: _Change) -> str:
    if ch.audience_json is None:
        ch.audience_json = _game_json(ch, AUDIENCE)
    return ch.audience_json


def _table_frame(ch: _Change) -> str:
    return _frame(ch, {"role": "tv", "id": None, **photos.yours(ch.room, None)}, _game_json(ch, TABLE),
                  _game_acts(ch, TABLE) + room_actions(ch.room, ch.seats, "tv", None), editor=True)


def _seat_frame(ch: _Change, s, audience_acts: list) -> str:
    """A seat's frame: a player's view of the game, or the audience's (a seat that watches)."""
    room = ch.room
    if (room.phase == "lobby" or s.player_id in room.game_seats) and s.playing:
        view = _game_json(ch, s.player_id)
        acts = _game_acts(ch, s.player_id) if room.phase != "lobby" else []
        you = {"role": "player", "id": s.player_id}
    else:
        view, acts = _audience_view(ch), list(audience_acts)
        if AUDIENCE in ch.out.refs:
            ch.out.refs[s.player_id] = ch.out.refs[AUDIENCE]
        you = {"role": "audience", "id": s.player_id}
        if room.phase == "playing" and ch.game is not None:     # a late joiner: a seat at the next deal?
            you["dealt_next"] = seating.fits(ch.game, len(ch.seats))
    you["language"] = s.language or room.language     # this phone's (the TV's is the room's)
    you.update(photos.yours(room, s.player_id))        # its own table photos (photos.py)
    if (note := standin.covered_note(room, s.player_id)) is not None:
        you["standin"] = note       # what a stand-in did for this seat: its phone's only
    return _frame(ch, you, view, acts + room_actions(room, ch.seats, "player", s), editor=vip.is_vip(room, s))


def _share_faces(out: Frames, faces: list) -> None:
    """The portraits' hashes go first in every viewer's references."""
    if faces:
        for viewer in out:
            out.refs[viewer] = faces + [h for h in out.refs.get(viewer, ()) if h not in faces]


def viewer_frames(room, seats, join_url: str, only=None) -> Frames:
    """{viewer: frame text} for the table, the audience and every seat of the room, or only
    for the viewers in `only` (a set of viewer keys) when it is given. The game's large values
    (`GAME.blobs`) stand in the texts as references; the values are in the result's `blobs`."""
    out, faces = Frames(), []       # faces: the portraits' hashes, referenced by every view
    ch = _Change(room, seats, join_url, out, faces)
    if only is None or TABLE in only:
        out[TABLE] = _table_frame(ch)
    audience_acts = audience_play.actions(room, ch.game) if ch.has_game else []
    if only is None or AUDIENCE in only:
        out[AUDIENCE] = _frame(ch, {"role": "audience", "id": None}, _audience_view(ch), audience_acts)
    for s in seats:
        if only is None or s.player_id in only:
            out[s.player_id] = _seat_frame(ch, s, audience_acts)
    _share_faces(out, faces)
    return out


def seat_view(room, seats, player_id: str) -> dict:
    """The view the seat's phone is sent (its frame's `d`), its references resolved: what a
    stand-in plays from (services.room_tick, standin.cover)."""
    frames = viewer_frames(room, seats, "", {player_id})
    held = blobs.Held()
    held.take({"t": "blobs", "d": {h: json.loads(frames.blobs[h]) for h in frames.refs.get(player_id, ())}})
    return held.take(json.loads(frames[player_id]))["d"]


def viewer_key(role: str, seat) -> str:
    """The key in viewer_frames() for a connection."""
    if role == "tv":
        return TABLE
    return seat.player_id if seat is not None else AUDIENCE
