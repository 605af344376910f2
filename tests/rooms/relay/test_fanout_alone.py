"""Issue 30, part 2: a room whose sockets are all in this process (the proxy routes its code
here) is kept to this process: its views are rendered for the viewers here only and never
published to the channel layer. Another process that gets a socket of the room says hello and
is answered; from then on the room is shared, until that process says bye or is unheard for
PEER_TTL. The real two-process case: tests/rooms/test_two_processes.py."""
import pytest

from partyhub.gamekit import TABLE
from partyhub.rooms.core import groups
from partyhub.rooms.relay import fanout

CODE = "ALON"
OTHER = "another-process"


class Layer:
    """A shared channel layer that records what is sent to groups."""

    def __init__(self):
        self.sent, self.members = [], set()

    async def group_add(self, group, channel):
        self.members.add((group, channel))

    async def group_discard(self, group, channel):
        self.members.discard((group, channel))

    async def group_send(self, group, msg):
        assert group == groups.room_group(msg["code"])
        self.sent.append(msg)

    def kinds(self):
        return [m["kind"] for m in self.sent]


class Socket:
    def __init__(self, name):
        self.channel_name, self.frames = name, []

    async def room_frame(self, msg):
        self.frames.append(msg["text"])

    async def room_stream(self, msg):
        self.frames.append(msg["text"])

    async def seat_kick(self, event):
        self.frames.append("kicked")


@pytest.fixture
def layer(monkeypatch):
    fake = Layer()
    monkeypatch.setattr(fanout, "get_channel_layer", lambda: fake)
    monkeypatch.setattr(fanout, "_shared", lambda: True)
    clock = [1000.0]
    monkeypatch.setattr(fanout.time, "monotonic", lambda: clock[0])
    fake.clock = clock
    yield fake
    for table in (fanout.LOCAL, fanout.SEATS, fanout.RECEIVERS, fanout.SEEN, fanout.PEERS,
                  fanout.HELLO, fanout.SENT):
        table.pop(CODE, None)


def later(layer, seconds):
    layer.clock[0] += seconds


async def change(layer, v=1):
    layer.sent.clear()
    await fanout.frames(CODE, v, {TABLE: f"tv{v}", "p1": f"p{v}"})
    return [m for m in layer.sent if m["kind"] == "frames"]


async def test_a_room_with_every_socket_here_is_not_published_after_the_grace(layer):
    tv, phone = Socket("tv"), Socket("p1")
    await fanout.attach(tv, CODE, TABLE, None)
    await fanout.attach(phone, CODE, "p1", "p1")
    assert layer.kinds() == ["hello"]                   # one hello, from the first socket
    assert fanout.viewers(CODE) is None                 # within the grace: as shared
    assert len(await change(layer, 1)) == 1
    later(layer, fanout.GRACE + 0.1)
    assert fanout.alone(CODE)
    assert fanout.viewers(CODE) == {TABLE, "p1"}        # rendered for the sockets here only
    assert await change(layer, 2) == []                 # and never published
    assert tv.frames == ["tv1", "tv2"] and phone.frames == ["p1", "p2"]
    await fanout.stream(CODE, (TABLE,), "s")
    await fanout.control(CODE, "p1", {"type": "seat.kick"})
    assert tv.frames[-1] == "s" and phone.frames[-1] == "kicked"
    assert layer.sent == []                             # nor its streams or control messages


async def test_another_processs_hello_makes_the_room_shared_until_its_bye(layer):
    tv = Socket("tv")
    await fanout.attach(tv, CODE, TABLE, None)
    later(layer, fanout.GRACE + 0.1)
    assert fanout.alone(CODE)
    layer.sent.clear()
    await fanout.receive({"kind": "hello", "code": CODE, "origin": OTHER})
    assert layer.kinds() == ["here"]                    # answered: it knows of us too
    assert not fanout.alone(CODE) and fanout.viewers(CODE) is None
    assert len(await change(layer, 1)) == 1             # its sockets get the change
    await fanout.receive({"kind": "bye", "code": CODE, "origin": OTHER})
    assert fanout.alone(CODE)
    assert await change(layer, 2) == []


async def test_a_process_unheard_for_the_ttl_is_gone_and_a_busy_one_stays(layer):
    await fanout.attach(Socket("tv"), CODE, TABLE, None)
    later(layer, fanout.GRACE + 0.1)
    await fanout.receive({"kind": "here", "code": CODE, "origin": OTHER})
    later(layer, fanout.PEER_TTL - 1)
    # its frames count as hearing from it
    await fanout.receive({"kind": "frames", "code": CODE, "origin": OTHER, "v": 5, "frames": {}})
    later(layer, fanout.PEER_TTL - 1)
    assert not fanout.alone(CODE)
    later(layer, 2)
    assert fanout.alone(CODE)                           # killed, say: the room is ours again
    assert fanout.PEERS[CODE] == {}


async def test_refresh_beats_for_shared_rooms_only_when_nothing_else_was_sent(layer):
    await fanout.attach(Socket("tv"), CODE, TABLE, None)
    later(layer, fanout.GRACE + 0.1)
    layer.sent.clear()
    await fanout.refresh()
    assert layer.kinds() == []                          # alone: no beat
    await fanout.receive({"kind": "here", "code": CODE, "origin": OTHER})
    layer.sent.clear()
    await fanout.refresh()
    assert layer.kinds() == []                          # just answered: no beat needed yet
    later(layer, fanout.PEER_TTL / 4 + 0.1)
    await fanout.refresh()
    assert layer.kinds() == ["here"]
    await change(layer, 1)
    layer.sent.clear()
    await fanout.refresh()
    assert layer.kinds() == []                          # the change itself said we are here


async def test_the_last_socket_says_bye_and_the_room_is_forgotten(layer):
    tv, phone = Socket("tv"), Socket("p1")
    await fanout.attach(tv, CODE, TABLE, None)
    await fanout.attach(phone, CODE, "p1", "p1")
    await fanout.receive({"kind": "here", "code": CODE, "origin": OTHER})
    layer.sent.clear()
    await fanout.detach(tv, CODE, TABLE, None)          # the receiver leaves: the phone takes over
    assert layer.kinds() == []
    assert fanout.RECEIVERS[CODE] is phone
    await fanout.detach(phone, CODE, "p1", "p1")
    assert layer.kinds() == ["bye"]
    for table in (fanout.LOCAL, fanout.PEERS, fanout.HELLO, fanout.SENT, fanout.RECEIVERS):
        assert CODE not in table
    # a hello for a room this process has no socket of is not remembered
    await fanout.receive({"kind": "hello", "code": CODE, "origin": OTHER})
    assert CODE not in fanout.PEERS and layer.kinds() == ["bye"]


async def test_a_hello_that_cannot_be_sent_leaves_the_room_shared_and_is_said_again(layer):
    async def away(group, msg):
        raise ConnectionError("Redis is away")
    send = layer.group_send
    layer.group_send = away
    await fanout.attach(Socket("tv"), CODE, TABLE, None)
    later(layer, fanout.GRACE + 1)
    assert not fanout.alone(CODE) and CODE not in fanout.HELLO
    layer.group_send = send
    await fanout.refresh()
    assert layer.kinds() == ["hello"]
    assert not fanout.alone(CODE)
    later(layer, fanout.GRACE + 0.1)
    assert fanout.alone(CODE)


async def test_a_process_without_sockets_of_the_room_always_publishes(layer):
    assert not fanout.alone(CODE)
    assert fanout.viewers(CODE) is None
    assert len(await change(layer, 1)) == 1
