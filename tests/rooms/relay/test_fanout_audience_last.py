"""Issue 22: a change reaches the seats and the TV before the audience's sockets, and the loop
turns in between, so that hundreds of audience sockets do not hold the players' frames back
(bench/audience.py measures it)."""
import asyncio

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.relay import fanout


class Fake:
    def __init__(self, name, log):
        self.name, self.log = name, log

    async def room_frame(self, msg):
        self.log.append(self.name)


async def test_the_audience_gets_its_frames_last_after_a_turn_of_the_loop():
    log = []
    code = "FANO"
    crowd = [Fake(f"aud{i}", log) for i in range(3)]
    fanout.LOCAL[code][AUDIENCE].update(crowd)
    fanout.LOCAL[code][TABLE].add(Fake("tv", log))
    fanout.LOCAL[code]["p1"].add(Fake("p1", log))
    try:
        async def meanwhile():          # scheduled now: runs in the turn before the audience
            await asyncio.sleep(0)
            log.append("loop")
        task = asyncio.get_running_loop().create_task(meanwhile())
        # the audience's frame first in the message: still delivered last
        await fanout._local({"kind": "frames", "code": code, "v": 7,
                             "frames": {AUDIENCE: "a", "p1": "b", TABLE: "c"}})
        await task
        assert sorted(log[:2]) == ["p1", "tv"], log
        assert log[2] == "loop", log
        assert sorted(log[3:]) == ["aud0", "aud1", "aud2"], log
    finally:
        fanout.LOCAL.pop(code, None)
        fanout.SEEN.pop(code, None)
