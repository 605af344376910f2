"""The two stores answer alike: every named read (`store.find`) and seat write, on rooms made
through the ladder, gives the same answer from the database (sql.py) and from memory
(memory.py)."""
import pytest

from partyhub.rooms.core import pending, seating
from partyhub.rooms.store import memory, sql, store
from partyhub.rooms.timers import clock
from partyhub.rooms.write import ladder, lifecycle, services
from tests.rooms.conftest import events
from tests.rooms.helpers import make_room, player, start_count

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backend")]


def test_held_versions_and_due_rooms(monkeypatch):
    a, _, _ = make_room(1)
    b, _, seats = make_room(2)
    start_count(b, target=50, turn_seconds=5)
    assert store.find("held", [a, b, "QQQQ"]) == {a, b}
    versions = store.find("versions", [a, b])
    assert versions == {a: store.load(a, "read").version, b: store.load(b, "read").version}
    due = store.load(b, "read").deadline_at
    assert store.find("due", due - 1) == [] and store.find("due", due) == [b]
    c, _, _ = make_room(2)
    start_count(c, target=50, turn_seconds=5)
    later = store.load(c, "read").deadline_at
    assert sorted(store.find("due", later)) == sorted([b, c])
    with monkeypatch.context() as m:
        m.setattr(sql, "DUE_BATCH", 1)
        m.setattr(memory, "DUE_BATCH", 1)
        assert len(store.find("due", later)) == 1      # a batch at a time
    far = later + lifecycle.idle_ms() + 1
    assert lifecycle.close(b, far)
    with store.atomic():        # a closed room that still holds a deadline is never due
        closed = store.load(b)
        closed.deadline_at = later
        store.save(closed)
    assert store.find("due", far) == [c]


def test_the_host_of_a_token_and_the_rooms_with_a_connected_seat():
    room, token = services.room_create("en", host_key_hash="k" * 64)
    assert store.find("host", seating.token_hash(token)) == room.host
    assert store.find("host", seating.token_hash("forged")) is None
    _, seat, _ = services.seat_join(room.code, "Ann")
    assert store.find("live") == {}
    services.seat_connect(room.code, seat.player_id, "chan")
    assert store.find("live") == {("lobby", ""): 1}


def test_seats_are_inserted_updated_read_and_deleted():
    code, _, seats = make_room(2)
    room = store.load(code, "read")
    kicked = store.seats(room, fresh=True)[1]
    kicked.kicked = True
    store.put("seat", kicked, ("kicked",))
    assert [s.player_id for s in store.seats(room, fresh=True)] == [seats[0].player_id]
    assert [s.player_id for s in store.seats(room, kicked=True)] == [s.player_id for s in seats]
    store.put("seat", kicked, delete=True)
    assert len(store.seats(room, kicked=True)) == 1


def test_events_of_a_game_in_order_and_rows_a_room_holds():
    code, _, seats = make_room(2)
    start_count(code, target=50)
    services.room_apply(code, player(seats[0]), "a", {"type": "add", "n": 1})
    found = events(code)
    assert found[0].type == "game_started" and [e.version for e in found] == sorted(e.version for e in found)
    pk = store.load(code, "read").pk
    assert store.find("held_rows", pk)[:2] == (2, len(events(code, game_no=0)) + len(found))


def test_idle_and_closed_rooms_are_found_oldest_first(settings):
    settings.PARTYHUB_ROOM_IDLE_SECONDS = 3600
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    older, _, _ = make_room(0)
    newer, _, _ = make_room(1)
    now = clock.wall_ms()
    assert store.find("idle", now + 3_700_000, now + 700_000, None) == [older, newer]
    assert store.find("idle", now - 3_600_000, now + 700_000, 5) == [older]    # empty: sooner
    assert lifecycle.close(older, now + 700_000)
    closed = store.load(older, "read")
    assert store.find("closed", closed.closed_at + 1, closed.closed_at + 1, None) == [closed.pk]
    assert store.find("closed", closed.closed_at, closed.closed_at, None) == []


def test_the_store_has_few_verbs_and_both_backends_answer_every_named_read():
    verbs = [name for name in store.__all__ if name != "Change"]
    assert len(verbs) <= 10
    public = {name for name, value in vars(store).items()
              if callable(value) and not name.startswith("_") and value.__module__ == store.__name__
              and not isinstance(value, type)}
    assert public == set(verbs)
    named = {n for n in dir(sql.SqlStore) if not n.startswith("_")}
    assert named == {n for n in dir(memory.MemoryStore) if not n.startswith("_")}


def test_keepsakes_their_share_link_and_kept_pictures():
    code, _, seats = make_room(2)
    start_count(code, target=3)
    services.room_apply(code, player(seats[0]), "k", {"type": "add", "n": 3})
    room = store.load(code, "read")
    kept = store.find("keepsakes", room)
    assert [(k.game_no, k.game) for k in kept] == [(1, "count")]
    assert store.find("link", room) is None
    assert store.put("link", room, "h1", 5) == 1 and store.put("link", room, "h2", 6) == 1
    assert store.find("link", room) == "h2"
    assert store.put("link", room, None, 7) == 1 and store.find("link", room) is None
    assert store.put("picture", kept[0], 0, "png", b"abc", 5) is True
    assert store.put("picture", kept[0], 0, "png", b"abc", 50) is False      # kept already
    assert store.put("picture", kept[0], 1, "png", b"abc", 5) is False       # past the bound
    assert store.find("picture", room, 1, 0, "png") == b"abc"
    assert store.find("picture", room, 1, 1, "png") is None


def test_a_file_a_decision_takes_away_goes_only_when_the_decision_commits(tmp_path,
                                                                          django_capture_on_commit_callbacks):
    """Table photos: the file of a photo taken off the table is deleted after the write that
    took it off has committed (`pending.remove`), never for one rolled back."""
    code, _, _ = make_room(1)
    kept, gone = tmp_path / "kept.webp", tmp_path / "gone.webp"
    for path in (kept, gone):
        path.write_bytes(b"RIFF")

    def take_away(path, then=None):
        with django_capture_on_commit_callbacks(execute=True):
            with store.atomic():
                room = ladder.lock(code)
                pending.remove(room, path)
                ladder.save(room, store.seats(room), seats_changed=False)
                assert path.exists()            # not before the commit
                if then:
                    raise then

    with pytest.raises(RuntimeError):
        take_away(kept, RuntimeError("refused after the save"))
    assert kept.exists()
    version = store.load(code, "read").version
    take_away(gone)
    assert not gone.exists() and kept.exists()
    assert store.load(code, "read").version == version + 1
