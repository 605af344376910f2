"""publish(): views are rendered for the viewers with sockets, and only for them."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.http import net
from partyhub.rooms.access import selectors
from partyhub.rooms.live import publish
from partyhub.rooms.relay import fanout
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, start_count
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def test_frames_for_some_viewers_are_the_frames_for_all_of_them():
    code, _, seats = make_room(3)
    start_count(code, target=50)
    change = selectors.room_read(code)
    url = net.join_url(code)
    every = viewmodel.viewer_frames(change.room, change.seats, url)
    assert set(every) == {TABLE, AUDIENCE} | {s.player_id for s in seats}
    for only in ({seats[1].player_id}, {TABLE, seats[2].player_id}, {AUDIENCE}, set()):
        assert viewmodel.viewer_frames(change.room, change.seats, url, only) == {
            v: every[v] for v in only}


async def test_a_change_is_rendered_only_for_the_sockets_here(monkeypatch):
    code, _, seats = await database_sync_to_async(make_room)(3)
    await database_sync_to_async(start_count)(code, target=50)
    phone = Client(code, seats[0].token)
    assert await phone.open() is True
    rendered, real = [], viewmodel.viewer_frames

    def spy(room, seats_, url, only=None):
        rendered.append((room.version, only))
        return real(room, seats_, url, only)
    monkeypatch.setattr(viewmodel, "viewer_frames", spy)
    change = await database_sync_to_async(services.room_apply)(
        code, player(seats[1]), "b1", {"type": "say", "text": "w1"})
    await publish.publish(change)
    assert rendered == [(change.room.version, {seats[0].player_id})]
    frame = await phone.next_view()
    assert frame["v"] == change.room.version and [t for _, t in frame["d"]["game"]["said"]] == ["w1"]
    # another process may hold the other sockets: then every viewer's view is rendered
    monkeypatch.setattr(fanout, "_shared", lambda: True)
    monkeypatch.setattr(fanout, "_remote", lambda msg: asyncio.sleep(0))
    more = await database_sync_to_async(services.room_apply)(
        code, player(seats[1]), "b2", {"type": "say", "text": "w2"})
    await publish.publish(more)
    assert rendered[-1] == (more.room.version, None)
    assert (await phone.next_view())["v"] == more.room.version
    await phone.close()


async def test_a_room_without_sockets_here_renders_nothing():
    code, _, seats = await database_sync_to_async(make_room)(2)
    change = await database_sync_to_async(services.seat_join)(code, "Late")
    assert code not in fanout.LOCAL
    calls = []
    real = viewmodel.viewer_frames
    viewmodel.viewer_frames = lambda *a: calls.append(a) or real(*a)
    try:
        await publish.publish(change[0])
    finally:
        viewmodel.viewer_frames = real
    assert calls == []
