"""Percentiles (nearest rank) of a list of milliseconds."""
from __future__ import annotations

import math


def pct(sorted_ms: list, p: float) -> float | None:
    if not sorted_ms:
        return None
    k = max(0, min(len(sorted_ms) - 1, math.ceil(p / 100 * len(sorted_ms)) - 1))
    return round(sorted_ms[k], 2)


def summarize(ms: list) -> dict:
    s = sorted(ms)
    return {"n": len(s), "p50": pct(s, 50), "p95": pct(s, 95), "p99": pct(s, 99),
            "max": round(s[-1], 2) if s else None}


def ratio(a, b):
    if a is None or not b:
        return None
    return round(a / b, 2)
