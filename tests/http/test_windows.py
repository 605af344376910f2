"""The per-address windows and counts (a limit per key, never more than max_keys keys in
memory), and the client address every limit uses."""
from partyhub.http import limits
from partyhub.http.limits import Count, Window, client_address


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


def test_full_says_whether_a_key_is_spent_without_counting():
    w = Window(2, seconds=60)
    assert not w.full("a") and "a" not in w.hits
    w.allow("a")
    assert not w.full("a")
    w.allow("a")
    assert w.full("a") and not w.allow("a")


def test_a_count_holds_at_most_its_limit_per_key_and_forgets_empty_keys():
    c = Count(2)
    assert c.enter("a") and c.enter("a") and not c.enter("a") and c.enter("b")
    c.leave("a")
    assert c.enter("a")
    for _ in range(3):
        c.leave("a")
        c.leave("b")
    assert c.open == {}


def test_the_client_address_is_one_function_for_requests_and_socket_scopes(settings, rf):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.7", REMOTE_ADDR="10.0.0.1")
    scope = {"type": "websocket", "client": ["10.0.0.1", 5123],
             "headers": [(b"host", b"x"), (b"x-forwarded-for", b"203.0.113.9, 198.51.100.7")]}
    settings.PARTYHUB_TRUST_PROXY = False
    assert client_address(request) == client_address(scope) == "10.0.0.1"
    settings.PARTYHUB_TRUST_PROXY = True     # the proxy's own entry is the last one
    assert client_address(request) == client_address(scope) == "198.51.100.7"
    assert client_address({"client": None, "headers": []}) == "?"


def test_a_socket_takes_a_place_of_its_address_and_of_its_room(settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "sockets_per_address": 3, "sockets_per_room": 2}
    limits.reset()
    try:
        assert limits.open_socket("a", "ROOM") is None and limits.open_socket("a", "ROOM") is None
        assert limits.open_socket("b", "ROOM") == "room_crowded"
        assert limits.open_socket("a", "MOOR") is None
        assert limits.open_socket("a", "OTHR") == "too_many_sockets"
        limits.close_socket("a", "ROOM")
        assert limits.open_socket("b", "ROOM") is None      # the refusal took no place
    finally:
        limits.reset()
