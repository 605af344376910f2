"""Benchmark of family mode's filter (partyhub/family): what a check costs and what the
dictionaries take.

Run: .venv/bin/python bench/family_filter.py [--n 2000]
Reports the load time and memory of the deny lists and of pymorphy3's ru and uk
dictionaries, and p50/p99 of `refused` for names, one-line clues, long clues (500 characters)
and a sketch word list of 200 lines, first seen (lemma cache cold) and seen again.
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyhub import family  # noqa: E402
from partyhub.family import lemmas, lists  # noqa: E402

NAMES = ["Anna", "Олександр", "Дмитро", "Bob", "Наташа", "Sofia", "Микола", "Lee", "Ярослава"]
WORDS = ("sun cat house river apple ночь кіт сонце річка яблуко дом мост lamp forest tree "
         "кохання мрія страх dream fear light shadow old new красивий тихий быстрый").split()


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(texts):
    out = []
    for text in texts:
        t = time.perf_counter()
        family.refused(text)
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return out


def report(name, ms):
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:40s} n={len(ms):5d}  p50={p50:7.3f} ms  p99={p99:7.3f} ms  max={ms[-1]:7.3f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    n = ap.parse_args().n
    rng = random.Random(1)
    base = rss_mb()
    t = time.perf_counter()
    lists.shipped()
    print(f"deny lists: {(time.perf_counter() - t) * 1000:.1f} ms, +{rss_mb() - base:.1f} MB")
    base = rss_mb()
    t = time.perf_counter()
    lemmas.warm()
    print(f"pymorphy3 ru + uk: {(time.perf_counter() - t) * 1000:.0f} ms, +{rss_mb() - base:.1f} MB "
          f"(max RSS {rss_mb():.0f} MB)")

    def sentence(k):
        return " ".join(rng.choice(WORDS) + rng.choice(["", "а", "и", "s", "ою"]) for _ in range(k))

    names = [rng.choice(NAMES) + str(i) for i in range(n)]
    clues = [sentence(5) for _ in range(n)]
    long_clues = [sentence(60)[:500] for _ in range(n // 10)]
    word_lists = ["\n".join(sentence(1) for _ in range(200)) for _ in range(20)]
    report("name (cold)", timed(names))
    report("clue, 5 words (cold)", timed(clues))
    report("clue, 5 words (again)", timed(clues))
    report("clue, 500 characters", timed(long_clues))
    report("sketch word list, 200 lines", timed(word_lists))
    report("f u c k spaced out, 30 letters", timed([" ".join("abcdefghijklmnopqrstuvwxyzабвг")] * 50))
    redaction()


def redaction():
    """What `hide` adds to every frame once a room has hidden texts: the walk of one view (12
    players, 40 past turns of clues, 6 cards each) with 20 hidden texts."""
    from partyhub.family.redact import redact
    hidden = frozenset(f"rude {i}" for i in range(20))
    view = {"room": {"players": [{"id": f"p{i}", "name": f"Name {i}", "color": "#fff", "score": i}
                                 for i in range(12)], "barred": [], "claims": []},
            "game": {"clue": "rude 3", "history": [{"turn": t, "clue": f"clue {t}", "cards":
                     [f"c{t}-{k}" for k in range(6)], "votes": {f"p{i}": f"c{i}" for i in range(12)}}
                     for t in range(40)]}}
    out = []
    for _ in range(500):
        t = time.perf_counter()
        redact(view, hidden)
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    report("redact one view (hide in use)", out)


if __name__ == "__main__":
    main()
