"""Room actions (start, kick, pause, ...): who may take them, and what they change.

Each handler runs inside the room's locked transaction and returns a list of effects
for the caller to carry out after the commit.
"""
from __future__ import annotations

import secrets

from partyhub.decks import options as deck_options
from partyhub.gamekit import clean_options, flag, mapping, string, timed
from partyhub.rooms import claims, registry, seating, store
from partyhub.rooms.errors import fail


def _host_or_vip(room, actor) -> None:
    """The TV, or the VIP while seated as a player (a spectator or a bot never runs the room)."""
    if actor.role == "tv":
        return
    if seating.may_run_room(actor.seat) and actor.seat.player_id == room.vip:
        return
    raise fail("not_allowed")


def _host(room, actor) -> None:
    if actor.role != "tv":
        raise fail("not_allowed", "Only the TV (the host) can do that.")


def start(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.phase == "playing":
        raise fail("bad_action", "A game is already running.")
    game = registry.get(d.get("game"))
    if game is None:
        raise fail("unknown_game")
    _deal(room, seats, game, d.get("options"), now)
    return []


def again(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    game = registry.get(room.game_id)
    if room.phase == "lobby" or game is None:
        raise fail("no_game_running", "No game was played to play again.")
    _deal(room, seats, game, room.options, now)
    return []


def end(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.phase == "lobby":
        raise fail("no_game_running")
    if room.phase == "playing":
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
    store.save_seat(seat, ("kicked", "connected"))
    claims.bar(room, seat.name)
    _log(room, "player_kicked", {"player": seat.player_id}, now)
    seats.remove(seat)
    if room.vip == seat.player_id:
        room.vip = ""
    seating.ensure_vip(room, seats)
    return [("kick", seat.player_id, seat.channel)]


def lock(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    room.settings = {**room.settings, "locked": True}
    return []


def unlock(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    room.settings = {**room.settings, "locked": False}
    return []


SETTING_KEYS = {"streamer": bool, "extended": bool, "takeover": bool, "locked": bool}


def settings(room, seats, actor, d, now):
    _host(room, actor)
    new = dict(room.settings)
    lang = d.get("language")
    if lang is not None:
        if lang not in ("en", "uk", "ru"):
            raise fail("bad_action", "language is en, uk or ru")
        room.language = lang
    for key, kind in SETTING_KEYS.items():
        if d.get(key) is not None:
            if not isinstance(d[key], kind):
                raise fail("bad_action", f"{key} must be true or false")
            new[key] = d[key]
    room.settings = new
    return []


def add_bot(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    return [("bot", room.code)]


def take_seat(room, seats, actor, d, now):
    """A spectator asks for a disconnected seat of the game: a claim, for the VIP or the TV
    to approve (claims.py); nothing changes hands yet."""
    claims.ask_as_spectator(room, store.all_seats(room), actor.seat, d.get("player"), now)
    return []


def approve_claim(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    return claims.approve(room, d.get("claim"), now)


def deny_claim(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    return claims.deny(room, d.get("claim"), now)


def unban(room, seats, actor, d, now):
    """A kicked name may join again."""
    _host_or_vip(room, actor)
    claims.unbar(room, d.get("name"))
    _log(room, "name_let_in", {"name": d.get("name")}, now)
    return []


# The fields of each room action (registry.clean cuts an action to them; the game's own are
# in its rules' actions_schema). The options of `start` are checked by the game's Options.
SCHEMA = {
    "start": {"game": string(40), "options": mapping(64)}, "again": {}, "end": {},
    "pause": {}, "resume": {}, "kick": {"player": string(16)}, "lock": {}, "unlock": {},
    "settings": {"language": string(8), **{key: flag() for key in SETTING_KEYS}},
    "add_bot": {}, "take_seat": {"player": string(16)},
    "approve_claim": {"claim": string(32)}, "deny_claim": {"claim": string(32)},
    "unban": {"name": string(64)},
}

HANDLERS = {
    "start": start, "again": again, "end": end, "pause": pause, "resume": resume,
    "kick": kick, "lock": lock, "unlock": unlock, "settings": settings,
    "add_bot": add_bot, "take_seat": take_seat,
    "approve_claim": approve_claim, "deny_claim": deny_claim, "unban": unban,
}


def finish(room, outcome: dict) -> None:
    """The game's outcome is in: results and the room's scoreboard."""
    room.phase, room.paused_at = "over", None
    room.results = outcome
    room.scoreboard = (room.scoreboard or []) + [{
        "game": room.game_id, "game_no": room.game_no,
        "scores": outcome.get("scores", {}), "winners": outcome.get("winners", [])}]


def timer_factor(settings: dict) -> int:
    """How many times the length the host chose a timer runs: the one place where the room's
    timer setting becomes a number (extended timers: x2). Applied when a game is dealt."""
    return 2 if settings.get("extended") else 1


def _chosen(room, game, given, players: int) -> tuple[dict, dict]:
    """The options of a new deal as the host chose them (checked, defaults filled in, and a
    game's `language` option the room's language unless the host chose one), and the chosen
    decks resolved as data for the rules (partyhub/decks/options.py)."""
    given = {k: v for k, v in (given or {}).items() if not k.startswith("_")}
    if deck_options.refused(game.options, given, room.host):
        raise fail("deck_not_yours")
    try:
        options = clean_options(deck_options.scoped(game.options, room.host), given)
        dealt = deck_options.resolved(game.options, options)
    except ValueError as e:
        raise fail("bad_options", str(e))
    if "language" in game.options and not given.get("language"):
        options["language"] = room.language
    problem = game.check({**options, **dealt}, players) if hasattr(game, "check") else None
    if problem:
        raise fail("bad_options", problem)
    return options, dealt


def _deal(room, seats, game, given_options, now):
    """A new game of `game` for every seat. `room.options` keeps the options as chosen (what
    `again` deals again and the views show); the rules get them with every timer length
    times the room's current timer factor (`timed`), so each deal applies it exactly once."""
    players = [s for s in seats]
    if not game.min_players <= len(players) <= game.max_players:
        raise fail("player_count",
                   f"{game.name} is for {game.min_players} to {game.max_players} players.")
    options, dealt = _chosen(room, game, given_options, len(players))
    factor = timer_factor(room.settings)
    _all_playing(players)
    room.game_no += 1
    room.game_id, room.options = game.id, options
    room.game_seats = [s.player_id for s in players]
    room.paused_at, room.paused_total, room.results = None, 0, None
    given = {**options, **dealt}
    room.state = game.setup(room.game_seats, timed(game.options, given, factor),
                            secrets.randbits(48))
    if hasattr(game, "begin"):
        room.state = game.begin(room.state, now)
    room.phase = "playing"
    _log(room, "game_started", {"game": game.id, "options": given, "timer_factor": factor,
                                "seats": room.game_seats}, now)
    outcome = game.outcome(room.state)
    if outcome is not None:
        finish(room, outcome)


def _all_playing(seats) -> None:
    """Spectators who joined mid-game play from the next deal on."""
    for seat in seats:
        if not seat.playing:
            seat.playing = True
            store.save_seat(seat, ("playing",))


def _log(room, type_, data, now):
    store.append(room, type_, "", data, now)
