"""Room actions (start, kick, pause, ...): who may take them, and what they change.

Each handler runs inside the room's locked transaction and returns a list of effects
for the caller to carry out after the commit.
"""
from __future__ import annotations

import secrets

from django.conf import settings as django_settings

from partyhub.gamekit import PACED, timed
from partyhub.rooms import scoreboard
from partyhub.rooms.access import audiencepass, claims, familymode, portraits
from partyhub.rooms.core import pending, seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.core.schema import SETTING_KEYS
from partyhub.rooms.domain import options as room_options
from partyhub.rooms.domain import pacing
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.relay import audience
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock, standin, vip


def _host_or_vip(room, actor) -> None:
    """The TV, or the VIP while seated as a player (a spectator or a bot never runs the room)."""
    if actor.role == "tv" or vip.is_vip(room, actor.seat):
        return
    raise fail("not_allowed")


def _host(room, actor, message: str = "Only the TV (the host) can do that.") -> None:
    if actor.role != "tv":
        raise fail("not_allowed", message)


ON_THE_TV = "Requests for seats are answered on the TV, where everyone sees them."


def _lobby_game(room, actor, d):
    """The game a `start` or `choose` names, from the TV or the VIP, while no game runs."""
    _host_or_vip(room, actor)
    if room.phase == "playing":
        raise fail("bad_action", "A game is already running.")
    game = registry.get(d.get("game"))
    if game is None:
        raise fail("unknown_game")
    return game


def start(room, seats, actor, d, now):
    game = _lobby_game(room, actor, d)
    given = d.get("options")
    if given is None:
        given = room_options.chosen_options(room, game.id)
    _deal(room, seats, game, given, now)
    room_options.keep(room, game.id, {k: v for k, v in room_options.public(given).items() if v is not None})
    return []


def choose(room, seats, actor, d, now):
    """The lobby's chosen game and options: room state, the same on the TV and every VIP
    phone. Only the options set are kept (a game's `language` left unset follows the room's
    language); each is checked by the game's options cleaner. `start` without options deals
    these. Picking another game brings back the options the host set for it the last time
    it was picked in this room (`kept`), under the ones this action names."""
    game = _lobby_game(room, actor, d)
    given = room_options.public(d.get("options"))
    if (room_options.chosen(room) or {}).get("game") != game.id:
        given = {**room_options.kept_options(room, game), **given}
    cleaned = room_options.cleaned(room, game, given)
    options = {k: cleaned[k] for k in given if given[k] is not None}
    room.settings = {**room.settings, "chosen": {"game": game.id, "options": options}}
    room_options.keep(room, game.id, options)
    return []


def again(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    game = registry.get(room.game_id)
    if room.phase == "lobby" or game is None:
        raise fail("no_game_running", "No game was played to play again.")
    opened = audience.open_now(room)
    _deal(room, seats, game, room.options, now)
    audience.drop(room, opened)     # once the deal stands: the open ballot goes unfolded
    return []


def end(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.phase == "lobby":
        raise fail("no_game_running")
    if room.phase == "playing":
        audience.drop(room, audience.open_now(room))     # the open ballot goes unfolded
        _log(room, "game_ended", {"completed": False}, now)
    room.phase, room.paused_at = "lobby", None
    _all_playing(seats)
    return []


def pause(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.phase != "playing":
        raise fail("no_game_running")
    if room.paused_at is not None:
        raise fail("paused", "The game is already paused.")
    room.paused_at = now
    return []


def resume(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.paused_at is None:
        raise fail("not_paused")
    room.paused_total += max(0, now - room.paused_at)
    room.paused_at = None
    return []


def kick(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    seat = next((s for s in seats if s.player_id == d.get("player")), None)
    if seat is None:
        raise fail("unknown_player")
    if actor.seat is not None and actor.seat.pk == seat.pk:
        raise fail("bad_action", "You cannot kick yourself.")
    seat.kicked, seat.connected = True, False
    store.put("seat", seat, ("kicked", "connected"))
    standin.back(room, seat.player_id)
    claims.bar(room, seat.name)
    _log(room, "player_kicked", {"player": seat.player_id}, now)
    seats.remove(seat)
    vip.ensure(room, seats, now, left=seat)
    return [("kick", seat.player_id, seat.channel)]


def lock(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    room.settings = {**room.settings, "locked": True}
    return []


def unlock(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    room.settings = {**room.settings, "locked": False}
    return []


# How long timers run (WCAG 2.2.1): the host's choice, times the length each game option says;
# "none": no timer at all (host-paced: the deal adds gamekit.PACED, lengths stay as chosen).
# The older `extended` flag (true: "extended", false: "normal") is kept for old clients.
TIMER_FACTORS = {"normal": 1, "extended": 2, "relaxed": 4, "none": 1}
HOST_PACED = "none"


def settings(room, seats, actor, d, now):
    _host(room, actor)
    new = dict(room.settings)
    lang = d.get("language")
    if lang is not None:
        if lang not in seating.LANGUAGES:
            raise fail("bad_action", "language is en, uk or ru")
        room.language = lang
    for key, kind in SETTING_KEYS.items():
        if d.get(key) is not None:
            if not isinstance(d[key], kind):
                raise fail("bad_action", f"{key} must be true or false")
            new[key] = d[key]
    if d.get("extended") is not None:
        new["timers"] = "extended" if d["extended"] else "normal"
    if d.get("standin") is not None:
        if not standin.valid_seconds(d["standin"]):
            raise fail("bad_action", f"standin is whole seconds from 0 (off) to {standin.MAX_SECONDS}")
        new["standin"] = d["standin"]
    if d.get("vip_grace") is not None:
        if not vip.valid_seconds(d["vip_grace"]):
            raise fail("bad_action", f"vip_grace is whole seconds from 0 to {standin.MAX_SECONDS}")
        new["vip_grace"] = d["vip_grace"]
    if d.get("timers") is not None:
        if d["timers"] not in TIMER_FACTORS:
            raise fail("bad_action", "timers is normal, extended, relaxed or none")
        new["timers"], new["extended"] = d["timers"], d["timers"] == "extended"
    room.settings = new
    return []


def language(room, seats, actor, d, now):
    """A player's own language: their phone's controls speak it (the seat keeps it across
    reloads and screens). The TV and the game's shared content keep the room's language."""
    if actor.seat is None:
        raise fail("not_allowed", "The TV speaks the room's language (settings).")
    lang = d.get("language")
    if lang not in seating.LANGUAGES:
        raise fail("bad_action", "language is en, uk or ru")
    seat = next((s for s in seats if s.player_id == actor.seat.player_id), actor.seat)
    seat.language = lang
    store.put("seat", seat, ("language",))
    return []


def room_full(seats) -> bool:
    """Whether the room has as many seats as it may (`max_seats`): a join is refused
    `room_full`, and so is the lobby's "add bot" (its bot could not join)."""
    return len(seats) >= django_settings.PARTYHUB_LIMITS["max_seats"]


def add_bot(room, seats, actor, d, now):
    """A bot joins (in this process, through the public join with the bot pass): refused
    where its join would be, in a full or locked room."""
    _host_or_vip(room, actor)
    if room_full(seats):
        raise fail("room_full")
    if room.settings.get("locked"):
        raise fail("room_locked")
    return [("bot", room.code)]


def take_seat(room, seats, actor, d, now):
    """A spectator asks for a disconnected seat of the game: a claim, for the TV to approve
    (claims.py); nothing changes hands yet."""
    claims.ask_as_spectator(room, store.seats(room, kicked=True), actor.seat, d.get("player"), now)
    return []


def approve_claim(room, seats, actor, d, now):
    """A seat changes hands only on the TV, where everyone sees it (claims.py): never from a
    phone, not even the VIP's."""
    _host(room, actor, ON_THE_TV)
    return claims.approve(room, d.get("claim"), now)


def deny_claim(room, seats, actor, d, now):
    _host(room, actor, ON_THE_TV)
    return claims.deny(room, d.get("claim"), now)


def revoke_passes(room, seats, actor, d, now):
    """The host voids every audience pass of the room (audiencepass.py): its holders' next
    vote is refused and their page asks for a new one."""
    _host(room, actor)
    room.settings = {**room.settings, "passes": audiencepass.generation(room) + 1}
    _log(room, "audience_passes_revoked", {}, now)
    return []


def unban(room, seats, actor, d, now):
    """A kicked name may join again."""
    _host_or_vip(room, actor)
    claims.unbar(room, d.get("name"))
    _log(room, "name_let_in", {"name": d.get("name")}, now)
    return []


def advance(room, seats, actor, d, now):
    """The VIP ends a host-paced round now (pacing.advance), accepted as a move is (`accept`)."""
    return pacing.advance(room, seats, actor, d, now, accept)


HANDLERS = {
    "start": start, "choose": choose, "again": again, "end": end, "pause": pause, "resume": resume,
    "advance": advance, "kick": kick, "lock": lock, "unlock": unlock, "settings": settings,
    "language": language, "portrait": portraits.portrait,
    "add_bot": add_bot, "take_seat": take_seat,
    "approve_claim": approve_claim, "deny_claim": deny_claim, "unban": unban,
    "revoke_passes": revoke_passes,
    "hide": familymode.hide,
}


def accept(room, game, result, seat: str, d: dict, now: int, kind: str = "action") -> None:
    """A rules result (a move, a deadline, a stand-in's move, the VIP's advance) into the room,
    the one step for all: the entry `kind` with `d`, then the rules' events, all of `seat`; a
    ballot of the audience whose phase it ended is folded into the state in this same write;
    an outcome ends the game."""
    before, room.state = room.state, result.state
    pending.append(room, kind, seat, d, now)
    audience.fold(room, game, before, now)
    for ev in result.events:
        pending.append(room, str(ev.get("type", "event"))[:40], seat, ev, now)
    outcome = calls.decided(game, "outcome", room.state)
    if outcome is not None:
        finish(room, outcome)


def finish(room, outcome: dict) -> None:
    """The game's outcome is in: results, the room's scoreboard and the game's keepsake."""
    room.phase, room.paused_at = "over", None
    room.results = outcome
    room.scoreboard = scoreboard.recorded(room.scoreboard, {
        "game": room.game_id, "game_no": room.game_no,
        "scores": outcome.get("scores", {}), "winners": outcome.get("winners", [])})
    game = registry.get(room.game_id)
    kept = calls.decided(game, "keepsake", room.state) if hasattr(game, "keepsake") else None
    pending.keep(room, {"scores": outcome.get("scores", {}), "winners": outcome.get("winners", []),
                      "seats": list(room.game_seats), **(kept or {})}, clock.wall_ms())


def timers(settings: dict) -> str:
    """The room's timer setting: normal, extended, relaxed or none (host-paced); rooms from
    before the setting have only the `extended` flag."""
    chosen = settings.get("timers")
    if chosen in TIMER_FACTORS:
        return chosen
    return "extended" if settings.get("extended") else "normal"


def timer_factor(settings: dict) -> int:
    """How many times the length the host chose a timer runs: the one place where the room's
    timer setting becomes a number (extended x2, relaxed x4). Applied when a game is dealt."""
    return TIMER_FACTORS[timers(settings)]


def _deal(room, seats, game, given_options, now):
    """A new game of `game` for every seat. `room.options` keeps the options as chosen (what
    `again` deals again and the views show); the rules get them with every timer length
    times the room's current timer factor (`timed`), so each deal applies it exactly once."""
    players = [s for s in seats]
    if not seating.fits(game, len(players)):
        raise fail("player_count",
                   f"{game.name} is for {game.min_players} to {game.max_players} players.")
    options, dealt = room_options.of_deal(room, game, given_options, len(players))
    factor = timer_factor(room.settings)
    _all_playing(players)
    room.game_no += 1
    room.game_id, room.options = game.id, options
    room.game_seats = [s.player_id for s in players]
    room.paused_at, room.paused_total, room.results = None, 0, None
    given = {**options, **dealt}
    if timers(room.settings) == HOST_PACED:
        given[PACED] = True
    room.state = calls.decided(game, "setup", room.game_seats, timed(game.options, given, factor),
                               secrets.randbits(48))
    if hasattr(game, "begin"):
        room.state = calls.decided(game, "begin", room.state, now)
    room.phase = "playing"
    _log(room, "game_started", {"game": game.id, "options": given, "timer_factor": factor,
                                "seats": room.game_seats}, now)
    outcome = calls.decided(game, "outcome", room.state)
    if outcome is not None:
        finish(room, outcome)


def _all_playing(seats) -> None:
    """Spectators who joined mid-game play from the next deal on."""
    for seat in seats:
        if not seat.playing:
            seat.playing = True
            store.put("seat", seat, ("playing",))


def _log(room, type_, data, now):
    pending.append(room, type_, "", data, now)
