"""Hostile frames: random mutations of real action frames, and Hypothesis strategies.

Every frame made here must be refused by the server: a mutation that could by chance be
legal (another in-range slot, another clue text, an extra ignored field) is never made.
Kinds: invalid JSON, non-object JSON, bad envelopes, binary frames, frames over 64 KiB,
unknown / other games' action types, fields of the wrong type, missing, out of range,
huge or nested, unicode junk, replayed action ids, out-of-turn actions (another seat's
offered action), room actions from non-VIPs, invalid room actions from the VIP / TV, and
game actions from the TV and the audience.
"""
from __future__ import annotations

import json
import random

from hypothesis import assume
from hypothesis import strategies as st

GAME_TYPES = {
    "association": {"tell", "submit", "vote", "next"},
    "jinx": {"clue", "pick"},
    "klepka": {"word", "words_done", "flip", "exchange", "chaos", "shuffle"},
    "sketch": {"draw", "stroke", "undo", "clear", "guess", "feedback"},
}
ALL_TYPES = set().union(*GAME_TYPES.values())
# The audience's actions (issue 22; partyhub/rooms/relay/audience.py): their own budget per socket
# (audience_per_second 5, burst 10), so the fuzzer paces them (Fuzz.pace_audience).
AUDIENCE_GAME_TYPES = {"association": {"audience_vote"}, "jinx": {"audience_predict"},
                       "klepka": set(), "sketch": {"audience_guess"}}
AUDIENCE_TYPES = set().union(*AUDIENCE_GAME_TYPES.values())
AUDIENCE_TEMPLATES = [{"type": "audience_vote", "card": "c3"}, {"type": "audience_predict", "slot": 4},
                      {"type": "audience_guess", "board": 0, "text": None}]
ROOM_TYPES = {"start", "again", "end", "pause", "resume", "kick", "lock", "unlock", "settings",
              "add_bot", "take_seat", "approve_claim", "deny_claim", "unban"}
STREAMS = {"sketch": {"stroke", "undo", "clear"}}
OTHER_TEMPLATES = [
    {"type": "tell", "card": "c1", "clue": "x"}, {"type": "submit", "card": "c7"},
    {"type": "vote", "card": "c3"}, {"type": "next"}, {"type": "clue", "text": "moon"},
    {"type": "pick", "slot": 4}, {"type": "word", "cards": ["l1", "l2"], "wild": None},
    {"type": "words_done"}, {"type": "flip", "card": "t3"}, {"type": "chaos", "card": "x1"},
    {"type": "exchange", "card": "x2", "give": "l1", "take": "l9"},
    {"type": "draw", "board": 0, "word": "cat"}, {"type": "guess", "player": "p", "board": 0, "text": "cat"},
    {"type": "feedback", "guess": 1, "value": "close"},
    {"type": "stroke", "board": 0, "points": [[0.1, 0.2]], "color": "#000", "width": 4},
    {"type": "undo", "board": 0}, {"type": "clear", "board": 0},
]
UNICODE = ["💥" * 50, "\u202eevil", "\x00\x01\x02", "ё" * 30, "\ud7ff\ue000", "Z̴̡̧̛̛̖̗̘̙̜̝̞̟̠̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼͇͈͉͍͎̀́̂̃̄̅̆̇̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌̕̚ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡",
           "<img src=x onerror=alert(1)>", "'; DROP TABLE rooms_room; --", "{{7*7}}", "${jndi:x}"]
NAN = float("nan")


def deep(n):
    return json.loads("[" * n + "]" * n) if n < 500 else None


def fill(action: dict, rnd) -> dict:
    words = ["moon", "ladder", "storm", "garden", "clock"]
    return {k: (rnd.choice(words) if v is None else v) for k, v in action.items()}


def known_values(views) -> set:
    """Every scalar that appears in any current view (ids, slots, card refs, words...)."""
    out = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                out.add(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, (str, int, float)) and not isinstance(x, bool):
            out.add(x)
    for v in views:
        walk(v)
    return out


def safe_junk(value, known) -> bool:
    """Junk is safe when no scalar inside it is a value the game knows."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, (str, int, float)):
        try:
            return value not in known
        except TypeError:
            return True
    if isinstance(value, list):
        return all(safe_junk(v, known) for v in value)
    if isinstance(value, dict):
        return all(safe_junk(v, known) for v in value.values())
    return True


def junk_pool(rnd, known):
    pool = [[], {}, True, False, -1, -(10 ** 30), 10 ** 30, 2 ** 63, 3.5, -0.5, 1e308, -1e-308,
            "", " ", "x" * 5000, rnd.choice(UNICODE), {"$gt": ""}, [None], [[[[[]]]]], deep(300),
            {"__proto__": {"admin": True}}, "constructor", "0", "-0", "NaN", NAN,
            [rnd.random()], "null", "true", "../../etc/passwd"]
    return [v for v in pool if safe_junk(v, known)]


def long_text(rnd):
    return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzжщїє") for _ in range(rnd.randint(300, 3000)))


def invalidate(template: dict, rnd, known) -> dict | None:
    """A copy of an offered action that no rules can accept, or None when it has no fields."""
    fields = [k for k in template if k != "type"]
    if not fields:
        return None
    d = dict(template)
    k = rnd.choice(fields)
    if template[k] is None:                       # free text: only wrong types or far too long
        d[k] = rnd.choice([[], {}, 5, True, 3.25, ["moon"], {"text": "moon"}, long_text(rnd)])
    elif rnd.random() < 0.2:
        del d[k]
        if all(template[f] is None for f in fields if f != k) and not fields[1:]:
            pass
    else:
        d[k] = rnd.choice(junk_pool(rnd, known))
    for f in fields:                               # the other free fields get a filler
        if f != k and d.get(f, 0) is None:
            d[f] = "moon"
    if rnd.random() < 0.2:
        d["extra"] = rnd.choice(junk_pool(rnd, known))
    return d


def envelope(d, rnd, ref=None) -> dict:
    return {"t": "act", "id": ref or f"h{rnd.getrandbits(40):x}", "d": d}


def expected_ref(raw):
    """The `ref` the server puts in its error for this frame (mirrors the consumer)."""
    if isinstance(raw, (bytes, str)) and len(raw) > 64 * 1024:
        return None
    try:
        f = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(f, dict) or not isinstance(f.get("t"), str):
        return None
    ref = f.get("id")
    return ref if isinstance(ref, (str, int)) and len(str(ref)) <= 64 else None


def dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=bool(random.getrandbits(1)))


class Mutator:
    """Random hostile frames for one sender in the current situation."""

    def __init__(self, game: str, rnd: random.Random):
        self.game, self.rnd = game, rnd

    def frames(self, n, ctx) -> list:
        return [self.one(ctx) for _ in range(n)]

    def one(self, ctx):
        """ctx: sender role ("player"/"tv"/"audience"), is_vip, own (offered game actions),
        others (other seats' offered game actions), replay (own accepted raw frames),
        phase, known (scalars of the views), players (ids), me (id or None)."""
        rnd = self.rnd
        kinds = ["raw"] * 2 + ["envelope"] * 2 + ["binary", "oversize", "type", "other_game"] + \
                ["mutate"] * 5 + ["room"] * 2
        kinds += ["audience"]
        if ctx["role"] == "player":
            kinds += ["out_of_turn"] * 3 + (["replay"] * 2 if ctx["replay"] else [])
        else:
            kinds += ["not_a_player"] * 3
        kind = rnd.choice(kinds)
        return getattr(self, "_" + kind)(ctx)

    # -- frames that never reach the rules
    def _raw(self, ctx):
        rnd = self.rnd
        base = dumps(envelope(fill(rnd.choice(ctx["own"] or OTHER_TEMPLATES), rnd), rnd))
        return rnd.choice([
            base[:rnd.randint(0, len(base) - 1)],                 # truncated
            base.replace('"', "'"), base + "}", "{" + base, "", " ", "nul", "[" * 50,
            "".join(chr(rnd.randint(1, 0x2FFF)) for _ in range(rnd.randint(1, 200))),
            "[]", "1", '"act"', "null", "true", "3.5", '[{"t":"act"}]',
            "[" * 20000 + "]" * 20000, '{"t":"act","d":' * 3000,
        ])

    def _envelope(self, ctx):
        rnd = self.rnd
        t = rnd.choice([None, 1, ["act"], {"a": 1}, True, "view", "ACT", "act ", "", "pong",
                        "error", "token", "kicked", "Act", "ping\x00", "stroke"])
        f = rnd.choice([
            {"t": t, "d": {"type": "pick", "slot": 1}},
            {"d": {"type": "next"}},
            {"t": "act"}, {"t": "act", "d": None}, {"t": "act", "d": []}, {"t": "act", "d": "next"},
            {"t": "act", "d": {}}, {"t": "act", "d": {"type": None}}, {"t": "act", "d": {"type": 7}},
            {"t": "act", "d": {"type": ["next"]}}, {"t": "act", "d": {"kind": "next"}},
            {"t": "act", "id": rnd.choice([{}, [], 1.5, None]), "d": {"type": {"x": 1}}},
        ])
        if "t" in f and f["t"] is None and rnd.random() < 0.5:
            del f["t"]
        return dumps(f)

    def _binary(self, ctx):
        rnd = self.rnd
        if rnd.random() < 0.5:
            return bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 300))) + b"\xff"
        inner = self._mutate(ctx) if rnd.random() < 0.5 else self._type(ctx)
        return (inner if isinstance(inner, str) else "{").encode("utf-8")

    def _oversize(self, ctx):
        rnd = self.rnd
        d = fill(rnd.choice(ctx["own"] or OTHER_TEMPLATES), rnd)
        d["pad"] = "A" * (64 * 1024 + rnd.randint(1, 100000))
        raw = dumps(envelope(d, rnd))
        return raw.encode() if rnd.random() < 0.3 else raw

    # -- frames that reach the service / the rules
    def _type(self, ctx):
        rnd = self.rnd
        t = rnd.choice(["", " ", "x" * 41, "x" * 5000, "PICK", "Next", "next ", "__proto__",
                        "constructor", "deadline", "__class__", "apply", "ping", rnd.choice(UNICODE),
                        "start\x00", "tell\n", "toString"])
        d = dict(fill(rnd.choice(ctx["own"] or OTHER_TEMPLATES), rnd), type=t)
        return dumps(envelope(d, rnd))

    def _other_game(self, ctx):
        rnd = self.rnd
        mine = GAME_TYPES[self.game]
        d = dict(rnd.choice([t for t in OTHER_TEMPLATES if t["type"] not in mine]))
        return dumps(envelope(d, rnd))

    def _mutate(self, ctx):
        rnd = self.rnd
        pool = [a for a in ctx["own"] + ctx["others"] if len(a) > 1] or \
               [t for t in OTHER_TEMPLATES if t["type"] not in GAME_TYPES[self.game]]
        template = rnd.choice(pool)
        d = invalidate(template, rnd, ctx["known"])
        if d is None or (template in ctx["own"] and d == fill(template, rnd)):
            return self._type(ctx)
        if template["type"] not in GAME_TYPES[self.game]:
            return dumps(envelope(d, rnd))
        ref = None
        if rnd.random() < 0.1:     # a weird id along with it (ref becomes null)
            ref = rnd.choice(["i" * 65, 10 ** 70])
        f = envelope(d, rnd)
        if ref is not None:
            f["id"] = ref
        return dumps(f)

    def _out_of_turn(self, ctx):
        rnd = self.rnd
        own = ctx["own"]
        cands = [a for a in ctx["others"] if not _offered(a, own)]
        if not cands:
            return self._mutate(ctx)
        return dumps(envelope(fill(rnd.choice(cands), rnd), rnd))

    def _replay(self, ctx):
        from partyhub.rooms.write.services import RECENT_IDS     # ids older than that are forgotten
        return self.rnd.choice(ctx["replay"][-(RECENT_IDS - 2):])

    def _audience(self, ctx):
        """An audience action no one may make: any from a playing seat or the TV (refused
        `not_audience`, or the game has none), and from an audience socket one with a wrong
        field, another game's audience type, or one sent while no ballot is open."""
        rnd = self.rnd
        offered = ctx.get("audience_offered") or []
        mine = [t for t in AUDIENCE_TEMPLATES if t["type"] in AUDIENCE_GAME_TYPES[self.game]]
        if ctx["role"] != "audience":
            return dumps(envelope(fill(rnd.choice(offered or AUDIENCE_TEMPLATES), rnd), rnd))
        choice = rnd.random()
        if choice < 0.2 or not mine:
            other = [t for t in AUDIENCE_TEMPLATES if t["type"] not in AUDIENCE_GAME_TYPES[self.game]]
            return dumps(envelope(fill(rnd.choice(other), rnd), rnd))
        if not offered and choice < 0.4 and self.game != "sketch":
            # no ballot open: even a well-formed vote is refused (a sketch guess is not:
            # a wrong guess is answered like a right one, so only wrong boards are sent)
            return dumps(envelope(fill(rnd.choice(mine), rnd), rnd))
        template = rnd.choice(offered or mine)
        d = invalidate(template, rnd, ctx["known"])
        if self.game == "sketch" and d is not None and isinstance(d.get("board"), int) \
                and not isinstance(d["board"], bool) and 0 <= d["board"] < 64:
            d["board"] = rnd.choice([-1, 64, 10 ** 6, "0", None, [0], 1.5])
        return dumps(envelope(d, rnd))

    def _not_a_player(self, ctx):
        rnd = self.rnd
        pool = ctx["others"] or [t for t in OTHER_TEMPLATES if t["type"] in GAME_TYPES[self.game]]
        return dumps(envelope(fill(rnd.choice(pool), rnd), rnd))

    def _room(self, ctx):
        rnd = self.rnd
        players = ctx["players"]
        mighty = ctx["role"] == "tv" or ctx["is_vip"]
        if not mighty:
            d = rnd.choice([
                {"type": "start", "game": self.game, "options": None}, {"type": "pause"},
                {"type": "resume"}, {"type": "end"}, {"type": "again"}, {"type": "lock"},
                {"type": "unlock"}, {"type": "add_bot"},
                {"type": "kick", "player": rnd.choice(players)},
                {"type": "settings", "language": "uk"},
                {"type": "approve_claim", "claim": rnd.choice(["nope", "", 5, None])},
                {"type": "unban", "name": rnd.choice(players)},
                {"type": "take_seat", "player": rnd.choice(players)}])
            if ctx["role"] == "audience" and d["type"] == "take_seat":
                d = {"type": "pause"}
            return dumps(envelope(d, rnd))
        opts = [{"type": "kick", "player": rnd.choice(["nobody", "", 5, None, [], "@table", "@audience"])},
                {"type": "resume"}, {"type": "take_seat", "player": rnd.choice(players)}]
        if ctx["phase"] == "playing":
            opts += [{"type": "start", "game": rnd.choice([self.game, "count", "chess", None, 5]),
                      "options": None}]
        if ctx["role"] == "tv":
            opts += [{"type": "settings", "language": rnd.choice(["xx", "EN", 5, [], "english"])},
                     {"type": "settings", rnd.choice(["streamer", "extended", "takeover", "locked"]):
                      rnd.choice(["yes", 1, 0, [], {}, "true"])},
                     {"type": "settings", "standin": rnd.choice([-1, 601, 2 ** 40, True, "20", 2.5])}]
        else:
            opts += [{"type": "kick", "player": ctx["me"]},
                     {"type": "settings", "streamer": True}]
        return dumps(envelope(rnd.choice(opts), rnd))


def _offered(action, own) -> bool:
    """Is this (possibly template) action one the sender itself is offered?"""
    for a in own:
        if a.get("type") == action.get("type") and all(
                a.get(k) == v or a.get(k) is None or v is None
                for k, v in action.items()) and set(a) == set(action):
            return True
    return False


# ---------------------------------------------------------------- Hypothesis strategies

scalars = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70) |
           st.floats(allow_nan=True, allow_infinity=False) | st.text(max_size=40))
junk = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                    max_leaves=12)


def hypothesis_frame(data, game, ctx):
    """Draw one hostile frame with Hypothesis (inside a @given(st.data()) test body)."""
    kind = data.draw(st.sampled_from(["text", "binary", "envelope", "field", "type"]), label="kind")
    if kind == "text":
        raw = data.draw(st.text(max_size=300), label="text")
        try:
            f = json.loads(raw)
            assume(not (isinstance(f, dict) and f.get("t") == "ping"))
        except (ValueError, RecursionError):
            pass
        return raw
    if kind == "binary":
        raw = data.draw(st.binary(min_size=1, max_size=300), label="bytes")
        try:
            f = json.loads(raw)
            assume(not (isinstance(f, dict) and f.get("t") in ("ping", "act")))
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
        return raw
    if kind == "envelope":
        t = data.draw(st.one_of(junk, st.text(max_size=10)).filter(lambda x: x not in ("ping", "act")), label="t")
        f = {"t": t, "d": data.draw(junk, label="d")}
        if data.draw(st.booleans(), label="id"):
            f["id"] = data.draw(junk, label="idv")
        return json.dumps(f)
    pool = [a for a in ctx["own"] + ctx["others"] if len(a) > 1] if ctx["role"] == "player" else []
    if kind == "type" or not pool:
        t = data.draw(st.text(max_size=60).filter(lambda x: x not in ALL_TYPES | ROOM_TYPES | AUDIENCE_TYPES), label="type")
        fields = data.draw(st.dictionaries(st.text(max_size=8), junk, max_size=4), label="fields")
        return json.dumps({"t": "act", "id": data.draw(st.text(max_size=70), label="ref"),
                           "d": {**fields, "type": t}})
    template = data.draw(st.sampled_from(pool), label="template")
    fields = [k for k in template if k != "type"]
    k = data.draw(st.sampled_from(fields), label="field")
    if template[k] is None:
        value = data.draw(st.one_of(st.lists(junk, max_size=3), st.dictionaries(st.text(max_size=4), junk, max_size=3),
                                    st.integers(), st.booleans(), st.text(min_size=300, max_size=400).filter(
                                        lambda s: len(s.split()) and len("".join(s.split())) > 200)), label="value")
    else:
        value = data.draw(junk, label="value")
        assume(safe_junk(value, ctx["known"]) and value != template[k])
    d = {f: ("moon" if template[f] is None else template[f]) for f in template}
    d[k] = value
    return json.dumps({"t": "act", "id": data.draw(st.text(min_size=1, max_size=64), label="ref"), "d": d})
