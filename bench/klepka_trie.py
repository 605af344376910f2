"""Benchmark of klepka's "can this hand still make a word?" search over the uk word DAWG.

Run: .venv/bin/python bench/klepka_trie.py [--n 200]
Goal (issue 5): under 20 ms for a hand of 30 letters with a polysemy card. Reports p50/p99
for hands drawn from the klepka deck (letter frequencies of the cards), for hard cases
(no vowel, the nouns-only house rule with many words excluded) and the load time/memory.
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

from games.klepka import dictionary  # noqa: E402
from games.klepka.rules.cards import letter_pool  # noqa: E402


def timed(fn, hands):
    out = []
    for hand in hands:
        t = time.perf_counter()
        fn(hand)
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return out


def report(name, ms):
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:48s} n={len(ms):4d}  p50={p50:7.2f} ms  p99={p99:7.2f} ms  max={ms[-1]:7.2f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    d = dictionary.get()
    print(f"load: {(time.perf_counter() - t) * 1000:.0f} ms, "
          f"+{(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) // 1024} MB max RSS")
    pool = letter_pool("10x10")
    consonants = [ch for ch in pool if ch not in dictionary.VOWELS]

    def hands(k, src=pool):
        return [rnd.sample(src, min(k, len(src))) for _ in range(args.n)]

    h30 = hands(30)
    report("30 letters + polysemy", timed(lambda h: d.can_make(h, True), h30))
    report("30 letters, no polysemy", timed(lambda h: d.can_make(h, False), h30))
    report("30 letters + polysemy, nouns only", timed(
        lambda h: d.can_make(h, True, nouns_only=True), h30))
    report("8 letters + polysemy", timed(lambda h: d.can_make(h, True), hands(8)))
    report("5 letters, no polysemy", timed(lambda h: d.can_make(h, False), hands(5)))
    report("12 consonants, no word (exhaustive)", timed(
        lambda h: d.can_make(h, False), hands(12, consonants)))
    report("8 consonants + polysemy", timed(lambda h: d.can_make(h, True), hands(8, consonants)))
    used = frozenset(w for w, _ in d.find(pool[:40], False, limit=300))
    report(f"30 letters, {len(used)} words excluded", timed(
        lambda h: d.can_make(h, False, exclude=used), h30))
    words = ["книжками", "пять", "мячем", "україні", "слава", "абвгд"] * (args.n // 6)
    report("is_word", timed(d.is_word, words))


if __name__ == "__main__":
    main()
