"""Renders the figures as markdown and keeps them in their own section of docs/performance.md."""
from __future__ import annotations

from pathlib import Path

from bench.stats import ratio

DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
START, END = "<!-- bench:platform:start -->", "<!-- bench:platform:end -->"
HEADER = ("# Performance\n\nBenchmarks live in `bench/` and are not part of `make test`. Each section "
          "below is written by one bench; a bench rewrites only its own section.\n")


def _ms(x):
    return "-" if x is None else f"{x:g}"


def latency_table(block: dict) -> list:
    pubsub = any("bare-pubsub" in row for row in block.values())
    out = ["| rooms | server | p50 | p95 | p99 | max (ms) | lost | frames in/s | frames out/s | "
           "bytes/frame out | server CPU | RSS | RSS/room | p50 / p99 vs bare | "
           + ("p50 / p99 vs bare-pubsub | " if pubsub else "") + "p50 / p99 vs raw |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if pubsub else "")]
    for n, row in block.items():
        bare, raw, bare_ps = row.get("bare", {}), row.get("raw", {}), row.get("bare-pubsub", {})
        bare = {} if "error" in bare else bare
        bare_ps = {} if "error" in bare_ps else bare_ps
        for kind, r in row.items():
            if "error" in r:
                out.append(f"| {n} | {kind} | **failed**: {r['error']} |" + " |" * 12)
                continue
            vs = lambda b: (f"{_ms(ratio(r['p50'], b.get('p50')))} / {_ms(ratio(r['p99'], b.get('p99')))}"  # noqa: E731
                            if b and kind != "raw" and b is not r else "")
            out.append(f"| {n} | {kind} | {_ms(r['p50'])} | {_ms(r['p95'])} | {_ms(r['p99'])} | "
                       f"{_ms(r['max'])} | {r['lost']} | {r['frames_in_s']} | {r['frames_out_s']} | "
                       f"{r['frame_bytes_out']} | {r['server_cpu_pct']}% | {r['rss_mb']} MB | "
                       f"{r['rss_per_room_kb']} KB | {vs(bare) if kind.startswith('partyhub') else ''} | "
                       + (f"{vs(bare_ps) if kind.startswith('partyhub') else ''} | " if pubsub else "")
                       + f"{vs(raw) if kind != 'raw' else ''} |")
    return out


def against_old(block: dict) -> list:
    """This checkout's partyhub against partyhub-old (python -m bench --baseline), per room count."""
    out = []
    for n, row in block.items():
        new, old = row.get("partyhub", {}), row.get("partyhub-old", {})
        if new and old and "error" not in new and "error" not in old:
            out.append(f"- {n} room(s): partyhub / partyhub-old p50 {_ms(ratio(new['p50'], old['p50']))}x, "
                       f"p99 {_ms(ratio(new['p99'], old['p99']))}x; server CPU {new['server_cpu_pct']}% / "
                       f"{old['server_cpu_pct']}%")
    return [""] + out if out else []


def profile_lines(title: str, prof: dict) -> list:
    if not prof or "error" in prof:
        return []
    out = ["", f"Profile ({title}; py-spy, {prof['samples']} samples, % of busy samples):", "",
           "| where (bucket of the innermost known frame) | % |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in prof["buckets"]]
    out += ["", "| top inclusive frames | % |", "|---|---|"]
    out += [f"| `{k}` | {v} |" for k, v in prof["inclusive"] if "<module>" not in k][:12]
    return out


def _head(res: dict, command_note: str = "") -> list:
    """The command, machine and date lines a bench's section starts with."""
    m = res["machine"]
    return [f"- command: `{res['command']}`{command_note}",
            f"- machine: {m['nproc']} cores ({m['cpu']}), {m['mem_gib']} GiB, Python {m['python']}; "
            "the load generator runs on the same machine",
            f"- date: {res['date']}"]


def render(res: dict) -> str:
    L = [START, "## Platform: latency, baselines, join storm, restart, capacity", "",
         *_head(res, " (`make bench` runs the suite)"),
         f"- load: rooms of 1 TV + {res['load']['phones']} phones, {res['load']['rate']:g} actions/s per "
         f"room (open loop), each fanned out to every socket of the room; baselines relay "
         f"{res['load']['frame_bytes']}-byte frames; window {res['load']['seconds']:g} s per row",
         "- latency: action sent -> the last socket of the room holds a view reflecting it (ms)", ""]
    for key, title in (("s1", "Scenario 1: one daphne process, in-memory channel layer"),
                       ("s2", "Scenario 2: two daphne processes, Redis layer (+ PostgreSQL for partyhub), "
                              "sockets of each room split between them")):
        if key in res:
            L += [f"### {title}", ""]
            if key == "s2":
                L += ["partyhub runs on channels_redis's pub/sub layer. `bare` is the issue's baseline, "
                      "bare Channels on channels_redis's default core layer; `bare-pubsub` is the same "
                      "bare consumer on the pub/sub layer.", ""]
            L += latency_table(res[key]) + against_old(res[key])
            for n, row in res[key].items():
                if "profile" in row.get("partyhub", {}):
                    L += profile_lines(f"partyhub, {n} rooms", row["partyhub"]["profile"])
            L.append("")
    if "s4" in res:
        r = res["s4"]
        L += ["### Scenario 4: join storm", "",
              f"{r['joins']} joins (HTTP join, then the socket until its first view) spread over "
              f"{r['spread_s']:g} s, into rooms of 10: **{r['failures']} failures**, {r['open_after']} sockets "
              f"open afterwards; join p50 / p99 / max {_ms(r['join_ms']['p50'])} / {_ms(r['join_ms']['p99'])} / "
              f"{_ms(r['join_ms']['max'])} ms (HTTP part p99 {_ms(r['http_ms']['p99'])} ms); server CPU "
              f"{r['server_cpu_pct']}%." + (f" Failures: {r['failure_samples']}" if r['failures'] else ""), ""]
    if "s5" in res:
        r = res["s5"]
        L += ["### Scenario 5: kill -9 with live rooms (SQLite file database)", "",
              f"{r['rooms']} rooms ({r['sockets']} sockets) under load; the senders stop, daphne is killed "
              f"with SIGKILL and started again on the same port (took {r['restart_s']} s to answer /healthz); "
              f"clients reconnect with the front end's backoff (400 ms doubling, equal jitter). "
              f"**Every client back on the current version after {r['recovered_s']} s** "
              f"({r['back']}/{r['sockets']} reconnected, {r['on_current_version']}/{r['sockets']} on the "
              f"version stored in the database); reconnect+view after the kill p50 / p99 "
              f"{_ms(r['reconnect_ms']['p50'])} / {_ms(r['reconnect_ms']['p99'])} ms.", ""]
    if "s6" in res:
        L += ["### Scenario 6: capacity at p99 <= 100 ms, one process", "",
              "| server | rooms held | steps (rooms: p50 / p99 ms, CPU) |", "|---|---|---|"]
        for kind, r in res["s6"].items():
            steps = "; ".join(f"{s['rooms']}: {_ms(s['p50'])} / {_ms(s['p99'])}, {s['server_cpu_pct']}%"
                              + (f", lost {s['lost']}" if s["lost"] else "") for s in r["steps"])
            L.append(f"| {kind} | **{r['rooms']}** | {steps} |")
        ph, bare = res["s6"].get("partyhub"), res["s6"].get("bare")
        if ph and bare and bare["rooms"]:
            L += ["", f"partyhub holds {ratio(ph['rooms'], bare['rooms'])}x the rooms bare Channels holds."]
        for kind, r in res["s6"].items():
            for s in r["steps"]:
                if "profile" in s:
                    L += profile_lines(f"{kind}, capacity step {s['rooms']} rooms", s["profile"])
        L.append("")
    if "s3" in res:
        L += ["### Scenario 3: sketch strokes", "", f"See its own section (bench/sketch_strokes.py): {res['s3']}", ""]
    L.append(END)
    return "\n".join(L) + "\n"


PROD_START, PROD_END = "<!-- bench:production:start -->", "<!-- bench:production:end -->"
# Issue 30, part 2: the production path's goals against bare Channels on the pub/sub layer.
GOALS = {"routed": (1.3, 1.5), "split": (1.5, 2.0)}


def render_production(res: dict) -> str:
    """Scenario 7 (python -m bench --scenario 7): its own section of docs/performance.md."""
    L = [PROD_START, "## The production path: rooms routed to one replica, and split (issue 30)", "",
         *_head(res),
         f"- load: rooms of 1 TV + {res['load']['phones']} phones, {res['load']['rate']:g} actions/s per "
         f"room (open loop); two daphne processes of each server; partyhub on PostgreSQL and "
         f"channels_redis's pub/sub layer, `bare-pubsub` bare Channels on the same layer relaying "
         f"{res['load']['frame_bytes']}-byte frames; both measured in alternating rounds, "
         f"{res['load']['seconds']:g} s per row",
         "- routed: every socket of a room on one process, the rooms spread over both; split: each "
         "room's sockets round the two processes", "",
         "| placement | rooms | partyhub p50 / p99 (ms) | bare-pubsub p50 / p99 | ratio p50 / p99 | goal | met |",
         "|---|---|---|---|---|---|---|"]
    for placement, block in res["s7"].items():
        lo, hi = GOALS[placement]
        for n, row in block.items():
            ph, bare = row.get("partyhub", {}), row.get("bare-pubsub", {})
            if "p50" not in ph or "p50" not in bare:
                L.append(f"| {placement} | {n} | {ph.get('error', '-')} | {bare.get('error', '-')} | | | |")
                continue
            r50, r99 = ratio(ph["p50"], bare["p50"]), ratio(ph["p99"], bare["p99"])
            met = r50 is not None and r99 is not None and r50 <= lo and r99 <= hi
            L.append(f"| {placement} | {n} | {_ms(ph['p50'])} / {_ms(ph['p99'])} | {_ms(bare['p50'])} / "
                     f"{_ms(bare['p99'])} | {_ms(r50)} / {_ms(r99)} | <= {lo:g} / {hi:g} | "
                     f"{'yes' if met else '**no**'} |")
    for placement, block in res["s7"].items():
        L += ["", f"### {placement}", ""] + latency_table(block) + against_old(block)
    L += ["", PROD_END]
    return "\n".join(L) + "\n"


def write_docs(section: str) -> None:
    """Replace this bench's section in docs/performance.md, keeping every other section."""
    write_section(START, END, section)


def write_section(start: str, end: str, section: str) -> None:
    """Put `section` (which starts with `start` and ends with `end`) in docs/performance.md in
    place of the text between those markers, or at the end when they are not there yet; every
    other section stays. Each bench that writes its figures there calls this."""
    text = DOC.read_text() if DOC.exists() else HEADER
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + section.rstrip("\n") + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.write_text(text)
