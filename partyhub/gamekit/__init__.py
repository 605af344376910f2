"""The game interface: what every game's pure rules provide, and the values they return.

This package imports nothing from Django, Channels or the network, so `games/<game>/rules/`
may import it. See docs/decisions.md ("The game interface") for the reasoning.

A game is an object (usually a module-level instance of a class) with:

    id: str                      "association"
    name: str                    English display name (the front end translates by id)
    min_players, max_players: int
    options: dict[str, Option]   every option with its default and bounds
    streams: frozenset[str]      action types relayed without the room lock (sketch strokes)
    actions_schema: dict[str, dict[str, Field]]
                                 every action type (streams included) with its fields:
                                 {"tell": {"card": string(64), "clue": text(200)}, ...}.
                                 The platform cuts each action to these fields before the
                                 rules see it (`clean_action`): unknown fields are dropped,
                                 a wrong type or an oversize value is refused as bad_action,
                                 free text has its invisible controls stripped. The rules
                                 still judge the values (a card in the hand, a clue's length).

    setup(seats, options, seed) -> state
        seats: player ids in seat order; options: validated, defaults filled in, every
        `seconds` option already times the room's timer factor (`timed`: extended timers
        run twice as long); seed: int. Returns a JSON-serialisable dict.
    apply(state, seat, action, now) -> Accepted | Rejected
        seat is a player id; action is the client's `d` dict (has "type");
        now is game-clock epoch milliseconds (frozen while the room is paused).
        Never mutates `state`: an accepted action returns a new state.
    view(state, viewer) -> dict           viewer: a player id, TABLE or AUDIENCE
    actions(state, viewer) -> list[dict]  concrete legal actions; free text is None
    deadline(state) -> int | None         game-clock epoch ms of the next timer
    on_deadline(state, now) -> Accepted   what happens when that timer falls due
    scores(state) -> dict[seat, int]      live score of each seat
    outcome(state) -> None | {"scores": {seat: int}, "winners": [seat], ...}

Optional:
    pacing: frozenset[str]
        action types that only move the table on (association's `next`, which ends a
        reveal): no bot plays them (lobby, CLI or stand-in: partyhub/bots/), so a reveal
        ends when a person taps or its timer runs out; with nobody but bots at the table the
        platform makes the move after a short fixed time (partyhub/rooms/timers/pace.py).
    words_language: str
        the language of the game's words when it has one of its own whatever the room's
        language (klepka: "uk"): the lobby's tile says so in a room of another language.
    minutes: int
        how long a game of 4 players with the default options takes, in minutes (the lobby
        shows it; docs/games/<game>.md says how it was found).
    begin(state, now) -> state
        called once right after setup with the game clock's now: arm the first timer here.
    check(options, players) -> str | None
        called before setup with the cleaned options and the number of players: a reason
        the game cannot start (the start is refused with bad_options), or None.
    keepsake(state) -> dict | None
        what a finished game leaves in the room's gallery (partyhub/keepsakes/): public data
        only (drawings, clues, won cards, words), bounded; None before the game is over.
    can_advance(state) -> bool  and  advance(state, now) -> Accepted | Rejected
        host-paced games (WCAG 2.2.1; the room's timers "none"): the platform deals with
        options[PACED] = True, and then no timer runs (`deadline` stays None): a phase a
        timer would have ended waits until everyone has done what it waits for, or until
        the VIP ends it (the room action `advance`). can_advance: the game is paced and its
        phase is one a timer would have ended; advance ends it now as that timer would have
        (Rejected("wrong_phase") otherwise). See `paced` and `timer_due`.

    blobs: frozenset[str]
        view keys whose values are large and rarely change (sketch: {"strokes"}): the
        platform sends each such value once per connection by content hash and puts a
        reference in the view frame (partyhub/blobs.py). The rules' views keep the values.

Decks (docs/decisions.md, "Decks"): an option declared `Option(DEFAULT_DECK, deck=True)`
is offered the platform's decks as its choices (the registry binds them), and the room
service hands the chosen deck to `check` and `setup` as plain data in `options["_<name>"]`:
{"id", "name", "image", "cards": [card ids], "spares": [the default deck's other ids]}.
The rules keep what they need in the state; they never look a deck up themselves.

Optional, the audience plays along (docs/protocol.md, "The audience"; all pure; a game with an
audience module binds them all with `audience_of(module)`):
    audience_schema: dict[str, dict[str, Field]]
        the audience's action types and their fields, cleaned like actions_schema
        ({"audience_vote": {"card": string(64)}}); a type is never also a seat's action
    audience_ballot(state) -> str | None
        the key of the ballot open now ("t3", "r2:vote", ...), unique within a game;
        None: the audience has nothing to do now
    audience_actions(state) -> list[dict]
        concrete legal audience actions now (free text None); [] when no ballot is open
    audience_check(state, action, mine: dict) -> Ballot | Rejected
        one audience action judged against the state (a recent snapshot of it); `mine` is
        this voter's entries in the open ballot so far ({key: value}). Ballot(key, value,
        reply): key None records nothing (a wrong guess) but still answers `reply`. A later
        value for the same key replaces the earlier one (each voter counts once per key).
    audience_summary(state, entries) -> dict
        the public live summary the TV's `tally` frame carries; entries = {voter: {"name":
        str | None, "votes": {key: value}}}. It MUST NOT reveal a secret (no per-card counts
        while a vote is secret).
    audience_close(state, ballot, entries) -> state
        folds the closed ballot into a NEW state (never mutates); called by the platform in
        the write that ends the ballot's phase (the ballot open before the rules' result is
        no longer the open one after it). What it keeps shows in views when the rules say it
        is public, and in outcome()'s results. A voter with name None is an anonymous socket
        (anyone can open hundreds): count it apart (`named`, `anonymous`), never in a per-card
        tally or an award.

Optional, for high-rate streams (only games with `streams`):
    stream(state, seat, action, now) -> Relay | Rejected
        checks one stream item against a recent snapshot of the state; never mutates it
    stream_many(state, items, now) -> [Relay | Rejected, ...]
        optional: one verdict per item of [(seat, action), ...], in order; the platform
        gathers a room's items for a short tick and checks them in this one call (else it
        calls `stream` per item)
    absorb(state, items) -> state
        folds stream items [(seat, action), ...] (in arrival order) into the state; the
        platform calls it before every locked write and before building a resync view.
    progress(state) -> dict | None
        optional: a public summary of what the streams have done so far (sketch: each board's
        ink level and who has finished), never a stream item's content; the platform sends it
        to the TV sockets as a `progress` stream item, throttled (partyhub/rooms/relay/progress.py).

The interface's names live by what they do: `values` (the viewers, the verdicts, the state's
randomness), `options` (options, timers, pacing), `fields` (an action's fields and their cut),
`audience` (the audience's ballots and hooks). Games import them all from `partyhub.gamekit`.
"""
from partyhub.gamekit.audience import Ballot, anonymous, audience_of, named
from partyhub.gamekit.fields import (INT_LIMIT, Field, clean_action, flag, integer, listing, mapping,
                                     record, string, text)
from partyhub.gamekit.options import DEFAULT_DECK, PACED, Option, clean_options, paced, timed, timer_due
from partyhub.gamekit.values import AUDIENCE, TABLE, Accepted, Rejected, Relay, evolve, is_seat, rng

__all__ = [
    "AUDIENCE", "DEFAULT_DECK", "INT_LIMIT", "PACED", "TABLE",
    "Accepted", "Ballot", "Field", "Option", "Rejected", "Relay",
    "anonymous", "audience_of", "clean_action", "clean_options", "evolve", "flag", "integer",
    "is_seat", "listing", "mapping", "named", "paced", "record", "rng", "string", "text",
    "timed", "timer_due",
]
