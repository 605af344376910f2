"""A bot plays its turn in a busy room: frames that keep arriving (others chatting, strokes
streaming) do not put its move off (partyhub/bots/client.py `Session`)."""
import asyncio
import json
import random

from partyhub.bots import client as botclient


class BusySocket:
    """A socket whose room changes every 10 ms (another player's chatter); it records what the
    bot sends."""

    def __init__(self):
        self.version, self.sent = 0, []

    def frame(self):
        self.version += 1
        actions = [{"type": "add", "n": 1}, {"type": "say", "text": None}]
        return json.dumps({"t": "view", "v": self.version, "d": {
            "room": {"game": "count", "language": "en"}, "game": {"total": 0}, "actions": actions}})

    async def recv(self):
        await asyncio.sleep(0.01)
        return self.frame()

    async def send(self, raw):
        self.sent.append(json.loads(raw))


async def test_a_bot_acts_within_its_think_time_however_busy_the_room():
    ws = BusySocket()
    session = asyncio.create_task(botclient.session(ws, random.Random(7), (0.05, 0.1)))
    await asyncio.sleep(1.0)
    session.cancel()
    # before: every frame restarted the think time, so a frame every 10 ms meant no move at all
    assert len(ws.sent) >= 5, ws.sent
    assert all(f["t"] == "act" for f in ws.sent)


async def test_a_bot_with_nothing_to_do_sends_nothing():
    class Quiet(BusySocket):
        def frame(self):
            self.version += 1
            return json.dumps({"t": "view", "v": self.version, "d": {
                "room": {"game": "count", "language": "en"}, "game": {}, "actions": []}})
    ws = Quiet()
    session = asyncio.create_task(botclient.session(ws, random.Random(7), (0.05, 0.1)))
    await asyncio.sleep(0.5)
    session.cancel()
    assert ws.sent == []


class ScriptedSocket:
    """One view, then frames made from what the bot sent so far; the socket closes after."""

    def __init__(self, script):
        self.script, self.sent = list(script), []

    async def recv(self):
        import websockets
        if not self.script:
            raise websockets.ConnectionClosed(None, None)
        step = self.script.pop(0)
        if step == "idle":              # nothing arrives: the bot's think time runs out
            await asyncio.sleep(0.2)
            return await self.recv()
        return json.dumps(step(self.sent) if callable(step) else step)

    async def send(self, raw):
        self.sent.append(json.loads(raw))


VIEW = {"t": "view", "v": 1, "d": {"room": {"game": "count", "language": "en"}, "game": {"total": 0},
                                   "actions": [{"type": "add", "n": 1}, {"type": "say", "text": None}]}}


def refusal(ref):
    return {"t": "error", "d": {"code": "time_up", "message": "", "ref": ref}}


async def test_a_bot_takes_only_its_actions_own_refusal_as_its_refusal():
    # a stroke refused at its room's stream tick comes after the bot's next game action: it
    # must not make the bot think that action failed (and send another in the same view)
    ws = ScriptedSocket([VIEW, "idle", lambda sent: refusal("a stroke's id"), "idle"])
    await botclient.session(ws, random.Random(7), (0, 0))
    assert len(ws.sent) == 1
    # its own refusal: it chooses the other action of the same view
    ws = ScriptedSocket([VIEW, "idle", lambda sent: refusal(sent[-1]["id"]), "idle"])
    await botclient.session(ws, random.Random(7), (0, 0))
    assert sorted(f["d"]["type"] for f in ws.sent) == ["add", "say"]


async def test_a_think_time_given_as_a_function_of_the_view_is_asked_of_each_view():
    """`make screens` holds a short moment (jinx's race) by slower seats in it: think may be a
    function of the view. A long think in this view: nothing sent within it."""
    asked = []

    def think(view):
        asked.append(view["game"])
        return (5.0, 5.0)
    ws = BusySocket()
    session = asyncio.create_task(botclient.session(ws, random.Random(7), think))
    await asyncio.sleep(0.5)
    session.cancel()
    assert asked and asked[0] == {"total": 0}
    assert ws.sent == []


class TwoPhases:
    """A reveal with nothing to do, then, 0.3 s later, a clue to give; then silence. (A recv
    the bot's think time cancels is asked again: the clue comes at its time all the same.)"""

    def __init__(self):
        self.frames, self.sent, self.clue_at = [("reveal", []), ("clue", [{"type": "add", "n": 1}])], [], None

    async def recv(self):
        loop = asyncio.get_running_loop()
        if len(self.frames) == 2:
            self.clue_at = loop.time() + 0.3
        elif len(self.frames) == 1:
            await asyncio.sleep(max(0.0, self.clue_at - loop.time()))
        else:
            await asyncio.sleep(60)
        phase, actions = self.frames.pop(0)
        return json.dumps({"t": "view", "v": 2 - len(self.frames), "d": {
            "room": {"game": "count", "language": "en"}, "game": {"phase": phase}, "actions": actions}})

    async def send(self, raw):
        self.sent.append((asyncio.get_running_loop().time(), json.loads(raw)))


async def test_a_view_that_asks_another_pace_starts_the_think_time_again():
    """The clue giver of tests/e2e/test_tv_results_fit_browser.py holds the clue 2.5-3 s. Its
    wait had begun in the reveal before (1 s there, with nothing to do), and the clue went after
    0.2-1 s: on a loaded machine a TV was never measured in it (CI, 2026-12-03)."""
    ws = TwoPhases()
    session = asyncio.create_task(botclient.session(
        ws, random.Random(7), lambda view: (0.8, 0.8) if view["game"]["phase"] == "clue" else (0.2, 0.2)))
    await asyncio.sleep(1.5)
    session.cancel()
    assert len(ws.sent) == 1, ws.sent
    assert ws.sent[0][0] - ws.clue_at >= 0.75, "the clue's own think time, from the clue's view"
