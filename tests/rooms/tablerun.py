"""A room driven through the real write path by drawn steps, with a small model of what
each step must do (used by test_settings_options_actions.py).

Steps are room actions (start, again, pause, resume, end, kick, add_bot, settings, lock,
unlock) from the TV, the VIP, another player, a spectator or a kicked player, people
joining, and the timekeeper firing a due timer. After every step:

- it was accepted, or refused with a code that docs/protocol.md lists for that action (a
  kicked player: `unauthorized`), and a refusal left the room's version as it was;
- what the model is sure of holds: the host's `again` after a game with a fitting number of
  seats is accepted, so is the host's valid `start` when no game runs, a broken one never,
  a non-host's room action is `not_allowed`;
- after each deal the room keeps the options as chosen (`again`: those of the last start),
  `game_started` logs them with the room's current timer factor, and the state is exactly
  `setup` + `begin` of those options with every timer length times that factor, once.
"""
from __future__ import annotations

import json

from hypothesis import strategies as st

from partyhub.decks import options as deck_options
from partyhub.gamekit import PACED, timed
from partyhub.rooms.access import selectors
from partyhub.rooms.access.selectors import Actor
from partyhub.rooms.core.errors import MESSAGES, ServiceError
from partyhub.rooms.gateway import registry
from partyhub.rooms.models import Event
from partyhub.rooms.store import store
from partyhub.rooms.write import services
from tests.rooms.optiongen import broken_options, chosen, join_codes, room_action_codes, valid_options

T0 = 1_700_000_000_000
FIRST_TIMER = {"count": "turn_seconds", "association": "tell_seconds", "sketch": "round_seconds"}
ACTOR_KINDS = st.sampled_from(["tv"] * 4 + ["vip"] * 3 + ["player", "player", "spectator", "kicked"])
STEPS = st.sampled_from(["start"] * 4 + ["again"] * 4 + ["settings"] * 3 + ["choose"] * 2 + [
    "pause", "resume", "end", "kick", "kick", "add_bot", "lock", "unlock", "join", "join", "tick"])
SETTING_VALUES = {"extended": st.booleans(),
                  "timers": st.sampled_from(["normal", "extended", "relaxed", "none"]),
                  "streamer": st.booleans(), "takeover": st.booleans(),
                  "locked": st.booleans(), "language": st.sampled_from(["en", "uk", "ru"]),
                  "family": st.booleans(), "standin": st.sampled_from([0, 10, 20, 600])}
BAD_SETTINGS = st.sampled_from([{"extended": "yes"}, {"language": "de"}, {"locked": 1},
                                {"family": "on"}, {"timers": "x8"}, {"timers": True},
                                {"standin": -1}, {"standin": 601}, {"standin": True}])


class Table:
    def __init__(self, data, main_game: str):
        self.data, self.main = data, main_game
        self.codes, self.join_refusals = room_action_codes(), join_codes()
        self.now, self.joined, self.kicked = T0, 0, []
        room, _ = services.room_create(data.draw(SETTING_VALUES["language"]))
        self.code, self.language = room.code, room.language
        self.timers, self.locked = "normal", False
        self.started = None            # (game id, options as chosen) of the last accepted start
        self.choice = None             # (game id, options given) of the last accepted `choose`
        self.seen: set = set()         # (step, actor kind, outcome code or "ok"), for coverage
        for _ in range(data.draw(st.integers(2, 6))):
            self.join()
        first = {k: data.draw(v) for k, v in SETTING_VALUES.items() if data.draw(st.booleans())}
        self.act("tv", {"type": "settings", **first})
        for key, value in first.items():
            self.remember(key, value)

    # ------------------------------------------------------------ reading the room

    def room(self):
        return selectors.room_get(self.code)

    def seats(self):
        return store.seats(self.room(), fresh=True)

    def factor(self) -> int:
        return {"normal": 1, "extended": 2, "relaxed": 4, "none": 1}[self.timers]

    def actor(self, kind: str):
        """(kind, Actor): someone of that kind now, or the TV when the room has nobody such."""
        vip = self.room().vip
        seats = self.seats()
        pools = {"vip": [s for s in seats if s.player_id == vip],
                 "player": [s for s in seats if s.playing and s.player_id != vip],
                 "spectator": [s for s in seats if not s.playing and s.player_id != vip],
                 "kicked": self.kicked}
        pool = pools.get(kind) or []
        if not pool:
            return "tv", Actor("tv")
        return kind, Actor("player", pool[self.data.draw(st.integers(0, len(pool) - 1))])

    # ------------------------------------------------------------ steps

    def step(self, name: str) -> None:
        getattr(self, f"step_{name}")()

    def act(self, kind: str, d: dict):
        """Apply `d` as someone of `kind`: (actor kind, None if accepted else the code)."""
        kind, actor = self.actor(kind)
        self.now += 1000
        before = self.room().version
        try:
            services.room_apply(self.code, actor, None, d, now=self.now)
        except ServiceError as e:
            # a malformed field is refused before anything else, whoever sends it
            allowed = {"unauthorized", "bad_action"} if kind == "kicked" else self.codes[d["type"]]
            assert e.code in allowed and e.code in MESSAGES, (d, kind, e.code, e.message)
            assert self.room().version == before, f"a refused {d['type']} changed the room"
            if kind in ("player", "spectator"):
                assert e.code in ("not_allowed", "bad_action"), (d, kind, e.code)
            self.seen.add((d["type"], kind, e.code))
            return kind, e.code
        assert kind in ("tv", "vip"), f"{kind} was allowed to {d['type']}"
        self.seen.add((d["type"], kind, "ok"))
        return kind, None

    def draw_game(self):
        return registry.get(self.main if self.data.draw(st.integers(0, 4)) else
                            self.data.draw(st.sampled_from([g.id for g in registry.listed()])))

    def step_choose(self):
        """The lobby's choice (room state): checked like start's options, kept for `start`."""
        game = self.draw_game()
        broken = self.data.draw(st.integers(0, 3)) == 0
        given = self.data.draw(broken_options(game) if broken else valid_options(game))
        was_playing = self.room().phase == "playing"
        kind, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "choose", "game": game.id, "options": given})
        if broken:
            assert code is not None, f"choose accepted broken options {given}"
            return
        if kind in ("tv", "vip") and not was_playing:
            assert code is None, (game.id, given, code)
        if code is None:
            self.choice = (game.id, given)

    def step_start(self):
        game = self.draw_game()
        plain = self.data.draw(st.integers(0, 2)) == 0     # no options: the room's choice
        broken = not plain and self.data.draw(st.integers(0, 3)) == 0
        if plain:
            given = self.choice[1] if self.choice and self.choice[0] == game.id else {}
            d = {"type": "start", "game": game.id}
        else:
            given = self.data.draw(broken_options(game) if broken else valid_options(game))
            d = {"type": "start", "game": game.id, "options": given}
        was_playing = self.room().phase == "playing"
        kind, code = self.act(self.data.draw(ACTOR_KINDS), d)
        if broken:
            assert code is not None, f"start accepted broken options {given}"
            return
        if kind in ("tv", "vip") and not was_playing and self.fits(game):
            assert code is None, (game.id, given, code)
        if code is None:
            self.started = (game.id, chosen(game, given, self.language))
            self.check_deal()

    def step_again(self):
        phase = self.room().phase
        kind, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "again"})
        if kind in ("tv", "vip") and phase != "lobby" and self.fits(registry.get(self.started[0])):
            assert code is None, f"again refused with {code}"
        if code is None:
            self.check_deal()

    def step_settings(self):
        if self.data.draw(st.integers(0, 5)) == 0:
            self.act(self.data.draw(ACTOR_KINDS), {"type": "settings", **self.data.draw(BAD_SETTINGS)})
            return
        key = self.data.draw(st.sampled_from(sorted(SETTING_VALUES)))
        value = self.data.draw(SETTING_VALUES[key])
        _, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "settings", key: value})
        if code is None:
            self.remember(key, value)

    def remember(self, key, value):
        if key == "language":
            self.language = value
        if key == "extended":
            self.timers = "extended" if value else "normal"
        if key in ("timers", "locked"):
            setattr(self, key, value)

    def step_lock(self, locked=True):
        _, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "lock" if locked else "unlock"})
        if code is None:
            self.locked = locked

    def step_unlock(self):
        self.step_lock(False)

    def step_pause(self):
        self.act(self.data.draw(ACTOR_KINDS), {"type": "pause"})

    def step_resume(self):
        self.act(self.data.draw(ACTOR_KINDS), {"type": "resume"})

    def step_end(self):
        self.act(self.data.draw(ACTOR_KINDS), {"type": "end"})

    def step_kick(self):
        seats = self.seats()
        ids = [s.player_id for s in seats] + ["nobody"]
        target = ids[self.data.draw(st.integers(0, len(ids) - 1))]
        _, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "kick", "player": target})
        if code is None:
            self.kicked.append(next(s for s in seats if s.player_id == target))

    def step_add_bot(self):
        _, code = self.act(self.data.draw(ACTOR_KINDS), {"type": "add_bot"})
        if code is None:
            self.join("Bot")     # what the bot does next: join through the join endpoint

    def step_join(self):
        self.join()

    def join(self, prefix="P"):
        self.joined += 1
        try:
            services.seat_join(self.code, f"{prefix}{self.joined}")
        except ServiceError as e:
            assert e.code in self.join_refusals and e.code in MESSAGES, e.code
            assert e.code != "room_locked" or self.locked
            self.seen.add(("join", "-", e.code))
            return
        assert not self.locked, "a locked room took a new seat"

    def step_tick(self):
        due = self.room().deadline_at
        if due is not None:
            self.now = max(self.now, due)
            services.room_tick(self.code, now=self.now)
            self.seen.add(("tick", "-", "ok"))

    # ------------------------------------------------------------ the model

    def fits(self, game) -> bool:
        return game.min_players <= len(self.seats()) <= game.max_players

    def check_deal(self):
        """The deal just accepted: options as chosen at the last start, the factor once."""
        room = self.room()
        game_id, options = self.started
        game = registry.get(game_id)
        assert room.game_id == game_id and room.options == options, (room.options, options)
        started = Event.objects.filter(room__code=self.code, type="game_started").last()
        given = {**options, **deck_options.resolved(game.options, options)}   # decks as data
        paced = self.timers == "none"           # host-paced: the rules are told, no timer runs
        if paced:
            given[PACED] = True
        assert started.data == {"game": game_id, "options": given, "timer_factor": self.factor(),
                                "seats": room.game_seats}
        state = game.setup(room.game_seats, timed(game.options, given, self.factor()),
                           room.state["seed"])
        if hasattr(game, "begin"):
            state = game.begin(state, self.now)
        same = json.loads(json.dumps(state)) == room.state    # (no diff of two whole states)
        assert same, "the state is not setup + begin of the chosen options, timed once"
        timer = FIRST_TIMER.get(game_id)
        if timer and room.phase == "playing":
            seconds = 0 if paced and hasattr(game, "can_advance") else options[timer] * self.factor()
            assert game.deadline(room.state) == (self.now + seconds * 1000 if seconds else None)
