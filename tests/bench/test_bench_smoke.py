"""A smoke run of the bench at tiny size: one room of a TV and 2 phones, every server, a few
seconds. It asserts the bench produces figures, not what they are (make bench measures)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow]


def test_the_bench_produces_latency_figures_for_partyhub_and_both_baselines(tmp_path):
    out = tmp_path / "bench.json"
    r = subprocess.run(
        [sys.executable, "-m", "bench", "--scenario", "1", "--rooms", "1", "--phones", "2",
         "--seconds", "1.5", "--rounds", "1", "--warmup", "0.5", "--json", str(out), "--no-docs"],
        cwd=ROOT, capture_output=True, text=True, timeout=28)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    res = json.loads(out.read_text())
    row = res["s1"]["1"]
    assert set(row) == {"partyhub", "bare", "raw"}
    for kind, fig in row.items():
        assert fig["n"] >= 1, (kind, fig)
        assert fig["lost"] == 0, (kind, fig)
        assert 0 < fig["p50"] <= fig["p99"] <= fig["max"], (kind, fig)
        assert fig["frames_out_s"] > 0 and fig["server_cpu_pct"] >= 0
    assert row["partyhub"]["frame_bytes_out"] > 200     # whole views, not echoes
    assert "| 1 | partyhub |" in r.stdout


def test_scenario_2_reports_partyhub_against_both_redis_layers():
    from bench.report import latency_table

    def fig(p50, p99):
        return {"p50": p50, "p95": p99, "p99": p99, "max": p99, "lost": 0, "frames_in_s": 2,
                "frames_out_s": 18, "frame_bytes_out": 600, "server_cpu_pct": 1, "rss_mb": 1,
                "rss_per_room_kb": 1}
    table = latency_table({"10": {"partyhub": fig(10, 20), "bare": fig(8, 16),
                                  "bare-pubsub": fig(5, 10), "raw": fig(1, 2)}})
    assert "vs bare-pubsub" in table[0] and table[1].count("|") == table[0].count("|")
    row = next(r for r in table if "| partyhub |" in r)
    assert "| 1.25 / 1.25 | 2 / 2 | 10 / 10 |" in row, row


def test_the_write_path_bench_runs_on_sqlite():
    r = subprocess.run([sys.executable, "-m", "bench.write_path", "--actions", "24", "--blocks", "2"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "room_apply on sqlite" in r.stdout and "locked    n=   24" in r.stdout, r.stdout


def test_the_room_churn_bench_plays_its_games_and_reports_the_memory_of_each_half(tmp_path):
    out = tmp_path / "churn.json"
    r = subprocess.run([sys.executable, "-m", "bench.room_churn", "--games", "8", "--parallel", "2",
                        "--cache-idle", "0.5", "--json", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (fig,) = json.loads(out.read_text())
    assert fig["games"] == 8 and fig["root"] == str(ROOT)
    assert 0 < fig["rss_start_mib"] <= fig["rss_half_mib"] + 50
    assert abs(fig["growth_second_half_mib"] - (fig["rss_end_mib"] - fig["rss_half_mib"])) < 0.2
