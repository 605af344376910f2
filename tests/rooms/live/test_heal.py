"""Frames lost between processes (pub/sub delivers at most once) are repaired by heal()."""
import pytest
from channels.db import database_sync_to_async

from partyhub.rooms.live import publish
from partyhub.rooms.relay import fanout
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_change_whose_frames_never_arrived_is_sent_again_by_heal(monkeypatch):
    code, host, seats = await database_sync_to_async(make_room)(2)
    tv = Client(code, host)
    assert await tv.open() is True
    phone = Client(code, seats[0].token)
    assert await phone.open() is True
    await tv.act({"type": "start", "game": "count", "options": {}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    await phone.until(lambda v: v["room"]["phase"] == "playing")
    # committed by "another process": written, never published here
    change = await database_sync_to_async(services.room_apply)(
        code, player(seats[1]), "lost-1", {"type": "say", "text": "lost"})
    assert fanout.SEEN[code] < change.room.version
    assert await publish.heal() == 0                 # one process, in-memory: nothing to heal
    monkeypatch.setattr(fanout, "_shared", lambda: True)
    assert code not in fanout.HELLO
    assert await publish.heal() == 1
    # that process may think itself alone with the room (fanout.alone): told otherwise
    assert code in fanout.HELLO
    for c in (tv, phone):
        await c.until(lambda v: [t for _, t in v["game"]["said"]] == ["lost"])
        assert c.version == change.room.version
    assert fanout.SEEN[code] == change.room.version
    assert await publish.heal() == 0                 # caught up: no second resend
    await tv.close()
    await phone.close()
