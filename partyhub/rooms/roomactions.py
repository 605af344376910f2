"""Room actions (start, kick, pause, ...): who may take them, and what they change.

Each handler runs inside the room's locked transaction and returns a list of effects
for the caller to carry out after the commit.
"""
from __future__ import annotations

import secrets

from partyhub.decks import options as deck_options
from partyhub.gamekit import PACED, clean_options, flag, integer, mapping, string, text, timed
from partyhub.rooms import (audience, claims, clock, familymode, pacing, registry, scoreboard, seating,
                            standin, store)
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
        given = chosen_options(room, game.id)
    _deal(room, seats, game, given, now)
    return []


def choose(room, seats, actor, d, now):
    """The lobby's chosen game and options: room state, the same on the TV and every VIP
    phone. Only the options set are kept (a game's `language` left unset follows the room's
    language); each is checked by the game's options cleaner. `start` without options deals
    these."""
    game = _lobby_game(room, actor, d)
    given = _public(d.get("options"))
    cleaned = _cleaned(room, game, given)
    room.settings = {**room.settings, "chosen": {
        "game": game.id, "options": {k: cleaned[k] for k in given if given[k] is not None}}}
    return []


def chosen(room) -> dict | None:
    """The lobby's choice as the views show it: {"game", "options" (only those set)}."""
    c = room.settings.get("chosen")
    if not isinstance(c, dict) or registry.get(c.get("game")) is None:
        return None
    return {"game": c["game"], "options": dict(c.get("options") or {})}


def chosen_options(room, game_id: str) -> dict:
    c = chosen(room)
    return c["options"] if c and c["game"] == game_id else {}


def again(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    game = registry.get(room.game_id)
    if room.phase == "lobby" or game is None:
        raise fail("no_game_running", "No game was played to play again.")
    audience.drop(room)         # the open ballot goes unfolded
    _deal(room, seats, game, room.options, now)
    return []


def end(room, seats, actor, d, now):
    _host_or_vip(room, actor)
    if room.phase == "lobby":
        raise fail("no_game_running")
    if room.phase == "playing":
        audience.drop(room)     # the open ballot goes unfolded
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
    standin.back(room, seat.player_id)
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


SETTING_KEYS = {"streamer": bool, "extended": bool, "takeover": bool, "locked": bool,
                "family": bool, "audience": bool}
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
    store.save_seat(seat, ("language",))
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
    "start": {"game": string(40), "options": mapping(64)},
    "choose": {"game": string(40), "options": mapping(64)}, "again": {}, "end": {},
    "pause": {}, "resume": {}, "advance": {}, "kick": {"player": string(16)}, "lock": {}, "unlock": {},
    "settings": {"language": string(8), "timers": string(12), "standin": integer(),
                 **{key: flag() for key in SETTING_KEYS}},
    "language": {"language": string(8)},
    "add_bot": {}, "take_seat": {"player": string(16)},
    "approve_claim": {"claim": string(32)}, "deny_claim": {"claim": string(32)},
    "unban": {"name": string(64)},
    "hide": {"player": string(16), "text": text(500)},
}

HANDLERS = {
    "start": start, "choose": choose, "again": again, "end": end, "pause": pause, "resume": resume,
    "advance": pacing.advance, "kick": kick, "lock": lock, "unlock": unlock, "settings": settings,
    "language": language,
    "add_bot": add_bot, "take_seat": take_seat,
    "approve_claim": approve_claim, "deny_claim": deny_claim, "unban": unban,
    "hide": familymode.hide,
}


def finish(room, outcome: dict) -> None:
    """The game's outcome is in: results, the room's scoreboard and the game's keepsake."""
    room.phase, room.paused_at = "over", None
    room.results = outcome
    room.scoreboard = scoreboard.recorded(room.scoreboard, {
        "game": room.game_id, "game_no": room.game_no,
        "scores": outcome.get("scores", {}), "winners": outcome.get("winners", [])})
    game = registry.get(room.game_id)
    kept = game.keepsake(room.state) if hasattr(game, "keepsake") else None
    store.keep(room, {"scores": outcome.get("scores", {}), "winners": outcome.get("winners", []),
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


def _chosen(room, game, given, players: int) -> tuple[dict, dict]:
    """The options of a new deal as the host chose them (checked, defaults filled in, and a
    game's `language` option the room's language unless the host chose one), and the chosen
    decks resolved as data for the rules (partyhub/decks/options.py)."""
    given = _public(given)
    options = _cleaned(room, game, given)
    try:
        dealt = deck_options.resolved(game.options, options)
    except ValueError as e:
        raise fail("bad_options", str(e))
    familymode.check_options(room, game, options)
    if "language" in game.options and not given.get("language"):
        options["language"] = room.language
    problem = game.check({**options, **dealt}, players) if hasattr(game, "check") else None
    if problem:
        raise fail("bad_options", problem)
    return options, dealt


def _public(given) -> dict:
    """Options as a client may give them (no internal-looking `_` names)."""
    return {k: v for k, v in (given or {}).items() if not k.startswith("_")}


def _cleaned(room, game, given: dict) -> dict:
    """`given` checked by the game's options cleaner, defaults filled in (refusals as codes)."""
    if deck_options.refused(game.options, given, room.host):
        raise fail("deck_not_yours")
    try:
        return clean_options(deck_options.scoped(game.options, room.host), given)
    except ValueError as e:
        raise fail("bad_options", str(e))


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
    if timers(room.settings) == HOST_PACED:
        given[PACED] = True
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
