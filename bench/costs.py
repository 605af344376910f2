"""What PostgreSQL and Redis did between two moments (bench/replica.py, docs/scaling.md):
counters read from outside, so the server under test runs as it would anywhere.

- PostgreSQL: the bench database's row in `pg_stat_database` (transactions, rows read and
  written), the WAL written by the whole server (`pg_current_wal_lsn`) and the database's size.
  A backend reports its counts at most once a second while it is busy, so a window of several
  seconds is off by a second's worth at most.
- Redis: `INFO commandstats` (calls of each command) and `INFO stats` (bytes in and out), for
  the whole server: run it on a Redis nothing else uses meanwhile.
"""
from __future__ import annotations

PG_COUNTS = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted",
             "tup_updated", "tup_deleted")


class Costs:
    def __init__(self, admin_url: str, database: str, redis_url: str):
        self.admin_url, self.database, self.redis_url = admin_url, database, redis_url

    def snap(self) -> dict:
        import psycopg
        import redis
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            row = conn.execute(f"SELECT {', '.join(PG_COUNTS)}, pg_current_wal_lsn() - '0/0'::pg_lsn, "
                               "pg_database_size(datname) FROM pg_stat_database WHERE datname = %s",
                               (self.database,)).fetchone()
        out = {f"pg_{k}": int(v) for k, v in zip(PG_COUNTS, row)}
        out["pg_wal_bytes"], out["pg_size_bytes"] = int(row[-2]), int(row[-1])
        r = redis.Redis.from_url(self.redis_url)
        for name, stat in r.info("commandstats").items():
            out["redis_" + name.removeprefix("cmdstat_")] = int(stat["calls"])
        stats = r.info("stats")
        out["redis_bytes_in"] = int(stats["total_net_input_bytes"])
        out["redis_bytes_out"] = int(stats["total_net_output_bytes"])
        r.close()
        return out


def tables(url: str) -> dict:
    """Each table of the database at `url` with rows: {name: [live rows, bytes with its indexes
    and TOAST]} (the rows as PostgreSQL's statistics count them; ANALYZE first)."""
    import psycopg
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
        got = conn.execute("SELECT relname, n_live_tup, pg_total_relation_size(relid) FROM pg_stat_user_tables "
                           "WHERE n_live_tup > 0 ORDER BY 3 DESC").fetchall()
    return {name: [int(rows), int(size)] for name, rows, size in got}


def per(before: dict, after: dict, n: int) -> dict:
    """Each counter's growth from `before` to `after`, per one of `n` things (actions, votes),
    rounded; the database's size as it is at the end."""
    n = max(n, 1)
    out = {}
    for k, v in after.items():
        if k == "pg_size_bytes":
            out[k] = v
            continue
        d = v - before.get(k, 0)
        if d:
            out[k] = round(d / n, 2)
    calls = sum(v for k, v in out.items() if k.startswith("redis_") and not k.startswith("redis_bytes")
                and k != "redis_info")
    out["redis_calls"] = round(calls, 2)
    out["pg_rows_written"] = round(sum(out.get(f"pg_tup_{k}", 0) for k in ("inserted", "updated", "deleted")), 2)
    return out


def beyond(part: dict, baselines: list, n: int) -> dict:
    """What `part`'s counts (per() over a whole part) add to the mean of the `baselines` (parts
    that did the same without the thing measured), per one of `n` things; the database's size
    left out, and what rounds to nothing."""
    out = {}
    for k, v in part.items():
        if k == "pg_size_bytes":
            continue
        d = (v - sum(b.get(k, 0) for b in baselines) / len(baselines)) / max(n, 1)
        if abs(d) >= 0.005:
            out[k] = round(d, 2)
    return out


def top_redis(costs: dict, n: int = 5) -> str:
    """The n commands called most, "PUBLISH 2.0, GET 1.0"."""
    cmds = sorted(((v, k[6:].upper()) for k, v in costs.items() if k.startswith("redis_")
                   and k not in ("redis_calls", "redis_bytes_in", "redis_bytes_out", "redis_info")), reverse=True)
    return ", ".join(f"{name} {v:g}" for v, name in cmds[:n])
