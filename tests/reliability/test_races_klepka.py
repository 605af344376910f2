"""Klepka's prize cards played at the same moment during another player's turn, with real
sockets against a real daphne: never a double effect.

Each game (3 players A, B, C; table 12x10, `reveal_seconds` 0) is set up through the rules
from the room's stored state: the test reads where every card lies (the state in the
server's database) and plays the flips for the seats, so that A takes nothing on turn 1,
B and C each take a matching letter pair and then a chaos and an exchange card. On A's
second turn (flips phase) come two races; in each, B and C fire their prize cards at the
same moment, each twice (a double tap: the same play in two frames sent together; a
second socket of the same seat would replace the first, 4000), while A flips a card:

- game kind "parallel": (1) B chaos + C chaos: both shuffle, each once; (2) B exchange
  (give B's letter x, take C's letter y) + C exchange (give y, take x): they conflict, so
  exactly one is applied;
- game kind "steal", twice: one holder fires chaos with card K while the other fires an
  exchange that takes K: K either shuffles the table or changes hands, never both.

Checks for every race: each prize card accepted at most once (the duplicate is refused
`bad_card`); the expected number of effects; every card of the deck in exactly one place
(table slot, a hand, the discard) before and after; the discard grew by exactly the prize
cards of the accepted plays; `chaos_no` and the `table_shuffled` events grew by exactly the
accepted chaos plays and the occupied table places are the same cards (less a prize A's
flip took); and the state after equals the pure rules applied to the state before with the
accepted actions in the log's order (so each chaos drew its reshuffle from the seed once).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter

import pytest

from games.klepka.rules import GAME
from tests.liveserver import Daphne, http, room_with_players
from tests.reliability.livekit import Sock, db_room_state, server_errors

pytestmark = pytest.mark.slow
TRIALS = int(os.environ.get("RACE_KLEPKA_TRIALS", "30"))       # races (2 a game)
OPTIONS = {"table": "12x10", "reveal_seconds": 0}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("races_klepka")
    srv = Daphne(tmp, {"PARTYHUB_JOINS_PER_MINUTE": "10000", "PARTYHUB_ROOMS_PER_MINUTE": "10000",
                       "PARTYHUB_FPS": "1000"}).migrate().start()
    srv.data = tmp
    yield srv
    srv.kill()


def places(state) -> Counter:
    """How many places each card id occupies (table slots, hands, discard)."""
    c = Counter(cid for cid in state["table"] if cid is not None)
    for hand in state["hands"].values():
        c.update(hand)
    c.update(state["discard"])
    return c


def conserved(state):
    c = places(state)
    assert set(c) == set(state["cards"]), "a card vanished or appeared"
    assert all(n == 1 for n in c.values()), f"a card in two places: {[k for k, n in c.items() if n > 1]}"


class Table:
    def __init__(self, server):
        self.server = server
        self.n = 0
        self.stats = Counter()
        self.rnd = random.Random(int(os.environ.get("RACE_SEED", "11")))

    async def open(self):
        room, seats = await asyncio.to_thread(room_with_players, self.server.base, ["A", "B", "C"])
        self.code, self.host = room["code"], room["host_token"]
        base = self.server.base
        self.tv = await Sock(base, self.code, self.host, "tv").open()
        self.ids = [s["player_id"] for s in seats]
        self.socks = {}
        for s, name in zip(seats, "ABC"):
            self.socks[name] = await Sock(base, self.code, s["token"], name).open()
        return self

    async def close(self):
        for s in [self.tv, *self.socks.values()]:
            assert s.closed is None, f"{s.name} closed ({s.closed})"
            await s.close()

    def state(self):
        return db_room_state(self.server.data, self.code)[:2]

    async def barriers(self):
        for s in [self.tv, *self.socks.values()]:
            await s.barrier()

    async def act(self, who, d):
        self.n += 1
        ref = f"a{self.n}"
        s = self.socks[who]
        mark = len(s.frames)
        await s.send(json.dumps({"t": "act", "id": ref, "d": d}))
        end = await s.barrier()
        errs = [f["d"] for f in s.frames[mark:end] if f["t"] == "error" and f["d"].get("ref") == ref]
        assert not errs, (who, d, errs)

    async def fire(self, shots):
        """[(sock name, action)] sent at the same moment (a socket's own frames back to back);
        ["accepted" | code] in the same order."""
        refs = []
        for who, d in shots:
            self.n += 1
            refs.append((who, f"r{self.n}", d, len(self.socks[who].frames)))

        async def send(who):
            for w, ref, d, _ in refs:
                if w == who:
                    await self.socks[who].send(json.dumps({"t": "act", "id": ref, "d": d}))
        order = list(dict.fromkeys(w for w, *_ in refs))
        self.rnd.shuffle(order)                  # who starts sending first varies by trial
        await asyncio.gather(*(send(who) for who in order))
        out = []
        for who, ref, d, mark in refs:
            s = self.socks[who]
            end = await s.barrier()
            errs = [f["d"]["code"] for f in s.frames[mark:end] if f["t"] == "error" and f["d"].get("ref") == ref]
            out.append(errs[0] if errs else "accepted")
        await self.barriers()
        return out

    # -- one game ---------------------------------------------------------------------
    async def game(self, kind):
        await self.tv.send(json.dumps({"t": "act", "id": f"start{self.n}",
                                       "d": {"type": "start", "game": "klepka", "options": OPTIONS}}))
        await self.tv.wait(lambda: self.tv.view["room"]["phase"] == "playing")
        await self.barriers()
        state, _ = self.state()
        a, b, c = self.ids
        assert state["seats"] == self.ids and state["turn"] == 0
        plan = self.plan(state)
        for pos in plan["A1"]:
            await self.act("A", {"type": "flip", "card": f"t{pos}"})
        for who in "BC":
            for pos in plan[who]:
                await self.act(who, {"type": "flip", "card": f"t{pos}"})
        await self.barriers()
        state, _ = self.state()
        assert state["turn"] == 0 and state["phase"] == "flips", (state["turn"], state["phase"])
        kinds = {seat: Counter(state["cards"][x]["kind"] for x in state["hands"][seat]) for seat in self.ids}
        assert kinds[a] == Counter() and kinds[b] == kinds[c] == Counter(letter=2, chaos=1, exchange=1), kinds
        races = []
        for i in range(2):
            races.append(await self.race(kind, i))
        await self.tv.send(json.dumps({"t": "act", "id": f"end{self.n}", "d": {"type": "end"}}))
        await self.tv.wait(lambda: self.tv.view["room"]["phase"] == "lobby")
        status, log = await asyncio.to_thread(http, "GET", f"{self.server.base}/api/rooms/{self.code}/log",
                                              None, {"Authorization": f"Bearer {self.host}"})
        assert status == 200, log
        for r in races:
            self.check_log(log, *r)

    def plan(self, state):
        """Table places to flip: A a mismatched letter pair; B and C a matching letter pair,
        then a chaos and an exchange card."""
        cards, table = state["cards"], state["table"]
        by_letter, prizes = {}, {"chaos": [], "exchange": []}
        for pos, cid in enumerate(table):
            card = cards[cid]
            if card["kind"] == "letter":
                by_letter.setdefault(card["letter"], []).append(pos)
            elif card["kind"] in prizes:
                prizes[card["kind"]].append(pos)
        pairs = [ps[:2] for ps in by_letter.values() if len(ps) >= 2]
        letters = list(by_letter)
        plan = {"A1": [by_letter[letters[0]][-1], by_letter[letters[1]][-1]],
                "B": pairs[2] + [prizes["chaos"][0], prizes["exchange"][0]],
                "C": pairs[3] + [prizes["chaos"][1], prizes["exchange"][1]]}
        used = [p for ps in plan.values() for p in ps]
        assert len(set(used)) == len(used)
        return plan

    def face_down_ref(self, state):
        up = set(state["up"])
        down = [i for i, cid in enumerate(state["table"]) if cid is not None and i not in up]
        return f"t{down[(self.n * 7919) % len(down)]}"

    async def race(self, kind, i):
        before, v0 = self.state()
        conserved(before)
        a, b, c = self.ids
        hands = before["hands"]

        def held(seat, k):
            return [x for x in hands[seat] if before["cards"][x]["kind"] == k]

        def letter(seat):
            return held(seat, "letter")[0]
        if kind == "parallel" and i == 0:
            plays = {"B": {"type": "chaos", "card": held(b, "chaos")[0]},
                     "C": {"type": "chaos", "card": held(c, "chaos")[0]}}
            expect = 2
        elif kind == "parallel":
            x, y = letter(b), letter(c)
            plays = {"B": {"type": "exchange", "card": held(b, "exchange")[0], "give": x, "take": y},
                     "C": {"type": "exchange", "card": held(c, "exchange")[0], "give": y, "take": x}}
            expect = 1
        else:
            # the holder of a chaos card fires it; the other holder's exchange takes it
            shooter = b if held(b, "chaos") and held(c, "exchange") else c
            thief = c if shooter == b else b
            k = held(shooter, "chaos")[0]
            names = {b: "B", c: "C"}
            plays = {names[shooter]: {"type": "chaos", "card": k},
                     names[thief]: {"type": "exchange", "card": held(thief, "exchange")[0],
                                    "give": letter(thief), "take": k}}
            expect = 1
        shots = []
        for who, d in plays.items():
            shots += [(who, d), (who, d)]          # a double tap: the same play twice at once
        flip = {"type": "flip", "card": self.face_down_ref(before)}
        shots.append(("A", flip))
        res = await self.fire(shots)
        after, v1 = self.state()
        conserved(after)
        # each prize card accepted at most once; its duplicate refused
        by_card = Counter()
        for (who, d), r in zip(shots, res):
            if d["type"] != "flip":
                if r == "accepted":
                    by_card[d["card"]] += 1
                else:
                    assert r == "bad_card", (d, r)
        assert all(n == 1 for n in by_card.values()), f"a prize card used twice: {by_card}"
        effects = sum(by_card.values())
        assert effects == expect, (kind, i, res)
        self.stats[f"{kind}{i}"] += 1
        self.stats["effects"] += effects
        self.stats["refused"] += sum(1 for (w, d), r in zip(shots, res) if d["type"] != "flip" and r != "accepted")
        self.stats["flips accepted"] += res[-1] == "accepted"
        accepted_chaos = [d["card"] for (w, d), r in zip(shots, res) if r == "accepted" and d["type"] == "chaos"]
        self.stats["chaos"] += len(accepted_chaos)
        if kind == "steal":
            self.stats["steal won by chaos" if accepted_chaos else "steal won by exchange"] += 1
        # the discard grew by exactly the prize cards played
        assert after["discard"][:len(before["discard"])] == before["discard"]
        assert Counter(after["discard"][len(before["discard"]):]) == Counter(by_card), (before["discard"], after["discard"])
        assert after["chaos_no"] - before["chaos_no"] == len(accepted_chaos)
        # the table's occupied places hold the same cards (less a prize A's flip took)
        took = [x for x in after["hands"][a] if x not in hands[a]]
        flipped = int(flip["card"][1:])
        was = {p for p, x in enumerate(before["table"]) if x is not None}
        now = {p for p, x in enumerate(after["table"]) if x is not None}
        # places emptied: only by A's take (the flipped place, or the face-up half of A's pair)
        assert now <= was and len(was - now) == len(took), (was - now, took)
        assert was - now <= {flipped, *before["up"]}, (was - now, flipped, before["up"])
        assert Counter(x for x in after["table"] if x is not None) + Counter(took) == \
            Counter(x for x in before["table"] if x is not None)
        self.stats["A took cards"] += bool(took)
        return before, v0, after, v1, [d for (w, d), r in zip(shots, res) if r == "accepted"], len(accepted_chaos)

    def check_log(self, log, before, v0, after, v1, accepted, n_chaos):
        """The pure rules on `before` with the logged actions give `after`; one shuffle event
        per chaos card played."""
        evs = [e for e in log["events"] if v0 < e["v"] <= v1]
        actions = [e for e in evs if e["type"] == "action"]
        assert sorted(json.dumps(e["data"], sort_keys=True) for e in actions) == \
            sorted(json.dumps(d, sort_keys=True) for d in accepted), "log differs from the accepted plays"
        assert sum(e["type"] == "table_shuffled" for e in evs) == n_chaos
        state = before
        for e in actions:
            result = GAME.apply(state, e["seat"], e["data"], e["at"])
            assert not hasattr(result, "code"), (e, result)
            state = json.loads(json.dumps(result.state))
        assert state == after, "the room's state is not the rules' replay of the accepted plays"


async def run(server, trials):
    t = await Table(server).open()
    try:
        games = 0
        while t.stats["parallel0"] + t.stats["parallel1"] + t.stats["steal0"] + t.stats["steal1"] < trials:
            await t.game("parallel" if games % 2 == 0 else "steal")
            games += 1
    finally:
        await t.close()
    return games, t.stats


async def test_klepka_exchange_and_chaos_races(server):
    games, stats = await run(server, TRIALS)
    print(f"\nrace klepka: {games} games, {dict(stats)}")
    assert not server_errors(server), server_errors(server)[:5]


@pytest.mark.long
async def test_klepka_races_long(server):
    games, stats = await run(server, 1000)
    print(f"\nrace klepka long: {games} games, {dict(stats)}")
    assert not server_errors(server), server_errors(server)[:5]
