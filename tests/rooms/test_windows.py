"""The per-address windows: a limit per key, and never more than max_keys keys in memory."""
from partyhub.rooms.limits import Window


def test_a_window_allows_the_limit_per_key_then_refuses():
    w = Window(3, seconds=60)
    assert [w.allow("a") for _ in range(4)] == [True, True, True, False]
    assert w.allow("b")


def test_a_window_keeps_at_most_max_keys_dropping_the_least_recently_hit():
    w = Window(5, seconds=60, max_keys=100)
    for i in range(1000):
        assert w.allow(f"10.0.{i // 256}.{i % 256}")
        assert len(w.hits) <= 100
    assert "10.0.3.231" in w.hits and "10.0.0.0" not in w.hits


def test_a_key_over_its_limit_stays_refused_while_others_come_and_go():
    w = Window(2, seconds=60, max_keys=50)
    assert w.allow("attacker") and w.allow("attacker")
    for i in range(200):
        w.allow(f"k{i}")
        assert not w.allow("attacker")      # each refusal is a hit: it stays the newest
