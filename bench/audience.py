"""The audience plays (issue 22): one association room, its TV and players, and 500 audience
sockets voting within 10 s of each vote phase opening, against one daphne.

    python -m bench.audience                         # 6 players, 500 audience passes, 3 turns each
    python -m bench.audience --audience 500 --turns 3 --write   # and update docs/performance.md

One daphne (SQLite, in-memory channel layer) started from this checkout with the bench's
limits raised (bench/servers.py BENCH_ENV: every socket comes from 127.0.0.1, so the per-address
socket and audience-pass limits are lifted by environment, as the server allows). The room plays
real association turns, scripted from the players' own `actions`: tell, the submits, the votes
spread over the vote phase's first 10 s, `next`. The same turn script runs three times in the
same run: without audience (A), with the audience voting (B), and without audience again (A'),
so that A + A' is the baseline for the players' action latency.

In B each audience socket (an audience pass: POST /api/rooms/<code>/audience) votes once for a
random table card at a random moment of the vote phase's first `--window` seconds; a share of
them (`--change`) vote again for another card before the window ends. Measured:

- player action latency: from sending a player's action to the last of the TV and the phones
  holding the view it made (the actions are sent one at a time; votes make no view);
- tally lag: from sending a vote to the TV's first `tally` frame whose `seq` includes it (the
  vote's seq from its `mine` frame when the server names it there; otherwise an upper bound:
  the first tally whose seq reaches the number of votes sent by the time the vote's `mine`
  came back);
- exactly once: the per-card counts the reveal view shows (`last.audience`) against the last
  accepted vote of every voter (its `mine`), and the final tally's voter count;
- memory per audience socket: the server's RSS before opening them and after, divided;
- server CPU in each part.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load import ahttp  # noqa: E402
from bench.costs import Costs, beyond, per, top_redis  # noqa: E402
from bench.servers import Postgres, Server, cpu_seconds, machine, redis_flush, rss_bytes, scratch_dir  # noqa: E402
from bench.stats import ratio, summarize  # noqa: E402
from bench.report import write_section  # noqa: E402

START, END = "<!-- audience:start -->", "<!-- audience:end -->"
now = time.perf_counter


class Watcher:
    """A TV or phone socket: keeps the newest view, when each version arrived, the tallies."""

    def __init__(self, url, name):
        self.url, self.name = url, name
        self.view, self.v = None, -1
        self.arrived = {}              # version -> perf_counter when it arrived
        self.tallies = []              # (time, d) of each tally frame
        self.other = Counter()         # frame types besides view/tally
        self.errors = []
        self.changed = asyncio.Event()

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 23, open_timeout=60)
        self.task = asyncio.create_task(self._read())
        await self.until(lambda v: True)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                t = now()
                f = json.loads(raw)
                if f["t"] == "view":
                    if f["v"] > self.v:
                        self.v, self.view = f["v"], f["d"]
                        self.arrived[f["v"]] = t
                elif f["t"] == "tally":
                    self.tallies.append((t, f["d"]))
                else:
                    self.other[f["t"]] += 1
                    if f["t"] == "error":
                        self.errors.append(f["d"])
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    def first_after(self, v0):
        return min((t for v, t in self.arrived.items() if v > v0), default=None)

    async def until(self, pred, timeout=60):
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            self.changed.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: {json.dumps(self.view)[:400]}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return self.view

    async def act(self, d):
        await self.ws.send(json.dumps({"t": "act", "id": uuid.uuid4().hex[:12], "d": d}))

    async def close(self):
        await self.ws.close()


class Voter:
    """An audience socket: views are counted, not parsed (the bench drives from the TV's)."""

    def __init__(self, url, name):
        self.url, self.name = url, name
        self.views = 0
        self.view_bytes = 0
        self.tallies = 0
        self.mine = {}                 # ref -> (time, d)
        self.last_mine = None          # the newest mine d
        self.errors = {}               # ref -> code
        self.first = asyncio.Event()

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 23, open_timeout=120)
        self.task = asyncio.create_task(self._read())
        await asyncio.wait_for(self.first.wait(), 120)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                t = now()
                head = raw[:24]
                if '"view"' in head:
                    self.views += 1
                    self.view_bytes += len(raw)
                    self.first.set()
                    continue
                if '"blobs"' in head:
                    continue
                f = json.loads(raw)
                if f["t"] == "mine":
                    d = f["d"]
                    if d.get("ref") is not None:
                        self.mine[d["ref"]] = (t, d)
                    self.last_mine = d
                elif f["t"] == "tally":
                    self.tallies += 1
                elif f["t"] == "error":
                    self.errors[f["d"].get("ref")] = f["d"].get("code")
        except websockets.ConnectionClosed:
            pass

    async def vote(self, card, sent):
        ref = uuid.uuid4().hex[:12]
        sent[ref] = (now(), self, card)
        await self.ws.send(json.dumps({"t": "act", "id": ref, "d": {"type": "audience_vote", "card": card}}))

    async def close(self):
        await self.ws.close()


class Bench:
    def __init__(self, base, args):
        self.base, self.a = base, args
        self.rnd = random.Random(args.seed)
        self.lat = {"A": [], "B": []}          # (action type, ms)
        self.cpu = {}
        self.act_cpu = {}                      # part -> server CPU seconds within each action
        self.voters = []
        self.tally_ms = []
        self.tally_kind = None
        self.checks = []                       # one dict per audience turn
        self.refused = Counter()
        self.probe, self.used = None, {}        # --production: PostgreSQL's and Redis's counters

    def ws(self, token):
        return self.base.replace("http", "ws", 1) + f"/ws/rooms/{self.code}?token={token}"

    async def setup(self):
        status, room = await ahttp("POST", self.base + "/api/rooms", {})
        assert status == 201, room
        self.code = room["code"]
        self.tv = await Watcher(self.ws(room["host_token"]), "tv").open()
        self.phones = {}
        for i in range(self.a.players):
            status, seat = await ahttp("POST", f"{self.base}/api/rooms/{self.code}/join", {"name": f"Player{i}"})
            assert status == 201, seat
            self.phones[seat["player_id"]] = await Watcher(self.ws(seat["token"]), seat["player_id"]).open()
        await self.tv.act({"type": "start", "game": "association", "options": {}})
        await self.tv.until(lambda v: v["room"]["phase"] == "playing" and v["game"]["phase"] == "tell")

    def socks(self):
        return [self.tv, *self.phones.values()]

    async def player_act(self, part, pid, d):
        """Send one player action; its latency = the last of TV and phones holding the view."""
        v0 = max(s.v for s in self.socks())
        c0 = cpu_seconds(self.srv.pid)
        t0 = now()
        await self.phones[pid].act(d)
        for s in self.socks():
            await s.until(lambda v, s=s: s.v > v0, 30)
        self.act_cpu.setdefault(part, []).append(cpu_seconds(self.srv.pid) - c0)
        self.lat[part].append((d["type"], (max(s.first_after(v0) for s in self.socks()) - t0) * 1000))

    def offered(self, pid):
        v = self.phones[pid].view
        return [a for a in v["actions"] if a["type"] in ("tell", "submit", "vote", "next")]

    async def turn(self, part, audience):
        gap = self.a.gap
        tv = await self.tv.until(lambda v: v["game"]["phase"] == "tell")
        turn = tv["game"]["turn"]
        teller = tv["game"]["storyteller"]
        await self.phones[teller].until(lambda v: any(a["type"] == "tell" for a in v["actions"]))
        a = self.offered(teller)[0]
        await asyncio.sleep(gap)
        await self.player_act(part, teller, {"type": "tell", "card": a["card"], "clue": "bench"})
        for pid in self.phones:
            acts = [x for x in self.offered(pid) if x["type"] == "submit"]
            if acts:
                await asyncio.sleep(gap)
                await self.player_act(part, pid, acts[0])
        tv = await self.tv.until(lambda v: v["game"]["phase"] == "vote")
        opened = now()
        table = list(tv["game"]["table"])
        sent = {}
        wave = None
        if audience:
            wave = asyncio.create_task(self.wave(table, sent, opened))
        voters = [pid for pid in self.phones if any(x["type"] == "vote" for x in self.offered(pid))]
        window = self.a.window
        for i, pid in enumerate(voters):
            at = opened + window * (i + 1) / len(voters) if i < len(voters) - 1 else opened + window + 0.5
            if i == len(voters) - 1 and wave is not None:
                await wave                    # every audience vote is answered before the close
            await asyncio.sleep(max(0.0, at - now()))
            act = self.rnd.choice([x for x in self.offered(pid) if x["type"] == "vote"])
            await self.player_act(part, pid, act)
        tv = await self.tv.until(lambda v: v["game"]["phase"] in ("reveal", "over"))
        if audience:
            self.check(turn, tv, sent)
        if tv["game"]["phase"] == "reveal":
            await asyncio.sleep(gap)
            pid = next(iter(self.phones))
            await self.player_act(part, pid, {"type": "next"})

    async def wave(self, table, sent, opened):
        """The audience process votes (every voter once within the window, some twice) and
        hands back every vote: sent[ref] = (sent at, voter, card, (acked at, votes) | None,
        error code | None)."""
        self.crowd.send(("wave", table, opened, self.rnd.random()))
        got = await asyncio.to_thread(self.crowd.recv)
        sent.update(got)
    def check(self, turn, tv, sent):
        """Every vote counted exactly once: reveal's counts vs each voter's last accepted vote."""
        expected = Counter()
        answered = unanswered = 0
        seqs = {}
        for ref, (t, v, card, ack, err) in sent.items():
            if ack is not None:
                answered += 1
                seqs[ref] = ack[1].get("seq")
            elif err is not None:
                answered += 1
                self.refused[err] += 1
            else:
                unanswered += 1
        by_voter = {}
        for ref, (t, v, card, ack, err) in sorted(sent.items(), key=lambda x: x[1][0]):
            if ack is not None:
                by_voter[v] = ack[1]["votes"].get("card")
        expected = Counter(by_voter.values())
        crowd = (tv["game"]["last"] or {}).get("audience") or {}
        got = {c: n for c, n in (crowd.get("votes") or {}).items()}
        tallies = [d for _, d in self.tv.tallies if d.get("ballot") == f"t{turn}"]
        final = max(tallies, key=lambda d: d["seq"]) if tallies else {}
        self.checks.append({
            "turn": turn, "sent": len(sent), "accepted": len(seqs), "unanswered": unanswered,
            "voters": len(by_voter), "reveal_voters": crowd.get("voters"),
            "tally_voters": final.get("voters"), "tally_seq": final.get("seq"),
            "counts_match": dict(expected) == got, "expected": dict(expected), "got": got})
        # tally lag
        ticks = sorted((t, d["seq"]) for t, d in self.tv.tallies if d.get("ballot") == f"t{turn}")
        sends = sorted(x[0] for x in sent.values() if x[3] is not None)     # accepted ones
        for ref, (t, v, card, ack, err) in sent.items():
            if ack is None:
                continue
            seq = seqs.get(ref)
            if seq is None:                        # upper bound: every vote sent by its ack
                seq = sum(1 for s in sends if s <= ack[0])
                self.tally_kind = "upper bound"
            else:
                self.tally_kind = "seq"
            seen = next((tt for tt, s in ticks if s >= seq), None)
            if seen is not None:
                self.tally_ms.append((seen - t) * 1000)
            else:
                self.tally_ms.append(float("inf"))

    async def part(self, name, audience, turns):
        c0, t0, me0 = cpu_seconds(self.srv.pid), time.monotonic(), time.process_time()
        before = self.probe.snap() if self.probe else None
        for _ in range(turns):
            await self.turn(name[0], audience)
        if self.probe:
            self.used[name] = per(before, self.probe.snap(), 1)
        self.cpu[name] = (cpu_seconds(self.srv.pid) - c0) / (time.monotonic() - t0)
        self.cpu["client " + name] = (time.process_time() - me0) / (time.monotonic() - t0)

    async def open_audience(self, n):
        async def one(i):
            status, p = await ahttp("POST", f"{self.base}/api/rooms/{self.code}/audience", {"name": f"Fan{i}"})
            assert status == 201, (status, p)
            return p
        passes = []
        for i in range(0, n, 50):
            passes += await asyncio.gather(*(one(j) for j in range(i, min(n, i + 50))))
        await asyncio.sleep(1.0)
        self.rss0 = rss_bytes(self.srv.pid)
        self.crowd, child = mp.Pipe()
        self.crowd_proc = mp.get_context("spawn").Process(
            target=crowd_main, args=(child, [(self.ws(p["token"]), p["audience_id"]) for p in passes],
                                     self.a.window, self.a.change), daemon=True)
        self.crowd_proc.start()
        assert await asyncio.to_thread(self.crowd.recv) == "open"
        await asyncio.sleep(2.0)
        self.rss1 = rss_bytes(self.srv.pid)

    async def close_audience(self):
        self.crowd.send(("close",))
        self.crowd_stats = await asyncio.to_thread(self.crowd.recv)
        self.crowd_proc.join(30)
        await asyncio.sleep(1.0)
        self.rss2 = rss_bytes(self.srv.pid)


# ---------------------------------------------------------------- the audience's own process

def crowd_main(conn, socks, window, change):
    """The audience sockets in a process of their own (the measuring client's event loop is
    not theirs): opens them, runs the waves it is told to, closes them."""
    asyncio.run(_crowd(conn, socks, window, change))


async def _crowd(conn, socks, window, change):
    voters = []
    for i in range(0, len(socks), 50):
        batch = [Voter(url, name) for url, name in socks[i:i + 50]]
        await asyncio.gather(*(v.open() for v in batch))
        voters += batch
    conn.send("open")
    cpu0, t0 = time.process_time(), time.monotonic()
    while True:
        cmd = await asyncio.to_thread(conn.recv)
        if cmd[0] == "close":
            for i in range(0, len(voters), 100):
                await asyncio.gather(*(v.close() for v in voters[i:i + 100]))
            conn.send({"views": sum(v.views for v in voters), "view_bytes": sum(v.view_bytes for v in voters),
                       "tallies": sum(v.tallies for v in voters),
                       "cpu": (time.process_time() - cpu0) / (time.monotonic() - t0)})
            return
        _, table, opened, seed = cmd
        rnd = random.Random(seed)
        plans = []
        for v in voters:
            t1 = rnd.uniform(0.05, window * 0.8)
            first = rnd.choice(table)
            plans.append((t1, v, first))
            if rnd.random() < change and len(table) > 1:
                plans.append((rnd.uniform(t1 + 0.25, window - 0.05), v, rnd.choice([c for c in table if c != first])))
        plans.sort(key=lambda p: p[0])
        sent = {}
        for at, v, card in plans:
            await asyncio.sleep(max(0.0, opened + at - now()))
            await v.vote(card, sent)
        end = time.monotonic() + 30
        while any(ref not in v.mine and ref not in v.errors for ref, (_, v, _) in sent.items()):
            if time.monotonic() > end:
                break
            await asyncio.sleep(0.02)
        conn.send({ref: (t, v.name, card, v.mine.get(ref), v.errors.get(ref))
                   for ref, (t, v, card) in sent.items()})


REDIS = "redis://127.0.0.1:6379/13"        # the bench's own Redis database (bench/scenarios.py)


async def run(a):
    pg, env = None, {}
    if a.production:        # as compose runs it: PostgreSQL, and Redis with the pub/sub layer
        pg = Postgres(a.pg).create()
        env = {"DATABASE_URL": pg.url, "REDIS_URL": REDIS}
        redis_flush(REDIS)
    srv = Server("partyhub", scratch_dir() / "audience", env).migrate().start()
    b = Bench(srv.base, a)
    b.srv = srv
    if pg:
        b.probe = Costs(a.pg, pg.name, REDIS)
    load0 = Path("/proc/loadavg").read_text().split()[:3]
    try:
        await b.setup()
        await b.part("A", False, a.turns)
        await b.open_audience(a.audience)
        if a.profile:
            import signal
            import subprocess
            prof = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(srv.pid),
                                     "--format", "raw", "-o", a.profile, "--nonblocking"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await b.part("B", True, a.turns)
        if a.profile:
            prof.send_signal(signal.SIGINT)
            prof.wait(30)
        await b.close_audience()
        stray_tallies = b.crowd_stats["tallies"] + sum(len(s.tallies) for s in b.phones.values())
        await b.part("A'", False, a.turns)
        b.stray_tallies = stray_tallies
        b.audience_views = b.crowd_stats["views"]
        b.audience_view_bytes = b.crowd_stats["view_bytes"]
        for s in b.socks():
            await s.close()
    finally:
        srv.kill()
        if pg:
            pg.drop()
    b.load = (load0, Path("/proc/loadavg").read_text().split()[:3])
    return b


def render(a, b):
    base = [ms for _, ms in b.lat["A"]]
    aud = [ms for _, ms in b.lat["B"]]
    sa, sb = summarize(base), summarize(aud)
    va = summarize([ms for t, ms in b.lat["A"] if t == "vote"])
    vb = summarize([ms for t, ms in b.lat["B"] if t == "vote"])
    tl = summarize([x for x in b.tally_ms if x != float("inf")])
    missing_tally = sum(1 for x in b.tally_ms if x == float("inf"))
    once = all(c["counts_match"] and c["unanswered"] == 0 and c["voters"] == c["reveal_voters"] == c["tally_voters"]
               for c in b.checks)
    mean = lambda xs: round(sum(xs) / len(xs), 2) if xs else None  # noqa: E731
    per_sock = (b.rss1 - b.rss0) / max(1, a.audience)
    m = machine()
    votes = sum(c["sent"] for c in b.checks)
    rows = [
        ("room", f"association, {a.players} players + the TV; {a.audience} audience sockets (audience passes)"),
        ("votes", f"{votes} sent over {len(b.checks)} vote phases ({a.change:.0%} of voters change their vote), "
                  f"each wave within {a.window:g} s; refused: {dict(b.refused) or 'none'}"),
        ("TV tally lag p50 / p95 / p99 / max", f"{tl['p50']} / {tl['p95']} / {tl['p99']} / {tl['max']} ms "
                                                f"({b.tally_kind}; {missing_tally} never seen) - target p99 < 500 ms"),
        ("every vote counted exactly once", ("yes" if once else "NO") + "; per turn (sent / voters / reveal voters / "
                                            "tally voters): " + ", ".join(
            f"{c['sent']}/{c['voters']}/{c['reveal_voters']}/{c['tally_voters']}" for c in b.checks)),
        ("player action latency, no audience (A+A')", f"p50 {sa['p50']} / p95 {sa['p95']} / p99 {sa['p99']} / "
                                                      f"mean {mean(base)} ms (n={sa['n']})"),
        (f"player action latency, {a.audience} voting", f"p50 {sb['p50']} / p95 {sb['p95']} / p99 {sb['p99']} / "
                                              f"mean {mean(aud)} ms (n={sb['n']})"),
        ("ratio with / without audience", f"p50 {ratio(sb['p50'], sa['p50'])}x, p95 {ratio(sb['p95'], sa['p95'])}x, "
                                          f"mean {ratio(mean(aud), mean(base))}x - target <= 1.5x"),
        ("players' votes only (during the wave)", f"p50 {va['p50']} -> {vb['p50']} ms, max {va['max']} -> {vb['max']} ms"),
        ("memory per audience socket", f"{per_sock / 1024:.1f} KiB (RSS {b.rss0 / 2**20:.1f} -> {b.rss1 / 2**20:.1f} MiB "
                                       f"with {a.audience} open; {b.rss2 / 2**20:.1f} MiB after they closed)"),
        ("server CPU within a player action (until every screen has it): A+A' / B",
         " / ".join(f"{1000 * sum(b.act_cpu[k]) / len(b.act_cpu[k]):.1f} ms" for k in ("A", "B"))),
        ("server CPU (A / B / A')", " / ".join(f"{b.cpu[k]:.0%}" for k in ("A", "B", "A'"))),
        ("bench client CPU in B: measuring process / audience process",
         f"{b.cpu['client B']:.0%} / {b.crowd_stats['cpu']:.0%}"),
        ("views pushed to the audience", f"{b.audience_views} ({b.audience_view_bytes / 2**20:.1f} MiB)"),
        ("tally frames off the TV", str(b.stray_tallies)),
    ]
    if b.used:
        extra = beyond(b.used["B"], [b.used["A"], b.used["A'"]], votes)
        rows.append(("PostgreSQL and Redis per audience vote (B less the mean of A and A')",
                     f"{extra.get('pg_xact_commit', 0):g} commits, {extra.get('pg_rows_written', 0):g} rows written, "
                     f"{extra.get('pg_wal_bytes', 0):g} WAL bytes; Redis {extra.get('redis_calls', 0):g} calls "
                     f"({top_redis(extra)}), {extra.get('redis_bytes_out', 0):g} bytes out"))
    w = max(len(k) for k, _ in rows)
    table = "\n".join(["| measure | figure |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows])
    text = "\n".join([
        "## the audience", "",
        "Issue 22's bench (`bench/audience.py`): one daphne ("
        + ("PostgreSQL, Redis with the pub/sub layer" if a.production else "SQLite, in-memory channel layer")
        + "), one "
        f"association room of {a.players} scripted players and the TV, {a.audience} audience sockets with "
        f"audience passes, every one voting within {a.window:g} s of each vote phase opening. The same "
        "turn script runs without audience (A), with the audience (B) and without again (A'). "
        "The bench's limits are raised by environment (bench/servers.py BENCH_ENV: "
        "PARTYHUB_SOCKETS_PER_ADDRESS, PARTYHUB_SOCKETS_PER_ROOM, PARTYHUB_AUDIENCE_PER_MINUTE, "
        "PARTYHUB_JOINS_PER_MINUTE: every socket comes from 127.0.0.1; PARTYHUB_VOTERS_PER_BALLOT); the per-socket audience "
        "budget (5/s, burst 10) is not raised. Client and server share the machine.", "",
        f"Machine: {m.get('cpu', '?')}, {m.get('nproc', '?')} cores, Python {m.get('python', '?')}. "
        f"Command: `python -m bench.audience --audience {a.audience} --players {a.players} --turns {a.turns}"
        f"{' --production' if a.production else ''}{' --write' if a.write else ''}`. Load average (1/5/15 min) at the start {' '.join(b.load[0])}, "
        f"at the end {' '.join(b.load[1])}.", "",
        table, ""])
    print("\n".join(f"  {k:<{w}}  {v}" for k, v in rows), file=sys.stderr)
    return text, once


def write_docs(text):
    write_section(START, END, f"{START}\n{text.rstrip()}\n{END}\n")


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.audience", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--audience", type=int, default=500)
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--turns", type=int, default=3, help="turns in each part (A, B, A')")
    p.add_argument("--window", type=float, default=10.0, help="every audience vote within this many seconds")
    p.add_argument("--change", type=float, default=0.3, help="share of voters who vote again")
    p.add_argument("--gap", type=float, default=0.3, help="seconds between the players' actions")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", default=None, help="py-spy raw profile of part B to this file")
    p.add_argument("--write", action="store_true", help="record the figures in docs/performance.md")
    p.add_argument("--json", default=None)
    p.add_argument("--production", action="store_true",
                   help="PostgreSQL and Redis (pub/sub layer) as compose runs them, and what they did per vote")
    p.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres",
                   help="--production: admin URL; a fresh database is made for the run and dropped after")
    a = p.parse_args(argv)
    if a.production and a.write:
        p.error("--write records the single-process figures (docs/performance.md); --production's go to docs/scaling.md by hand")
    b = asyncio.run(run(a))
    text, once = render(a, b)
    print(text)
    if a.write:
        write_docs(text)
    if a.json:
        Path(a.json).write_text(json.dumps({"lat": b.lat, "tally_ms": b.tally_ms, "checks": b.checks,
                                            "cpu": b.cpu, "rss": [b.rss0, b.rss1, b.rss2]}, default=str))
    return 0 if once else 1


if __name__ == "__main__":
    sys.exit(main())
