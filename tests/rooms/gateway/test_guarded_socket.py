"""Over the socket: a game whose rules raise for one phone (its view, its move) leaves that
socket open with an error frame, and the TV and the other phones play on."""
import pytest

from tests.rooms.gateway.test_guarded import _broken_for
from tests.rooms.transport.test_consumers import table

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_phone_the_rules_raise_for_gets_an_error_and_the_table_plays_on(monkeypatch):
    _, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {"target": 20}})
    for p in phones:
        await p.until(lambda v: v["room"]["phase"] == "playing")
    broken = phones[1].seat.player_id
    _broken_for(monkeypatch, "view", broken)
    _broken_for(monkeypatch, "apply", broken)
    await phones[0].act({"type": "add", "n": 2})
    await tv.until(lambda v: (v["game"] or {}).get("total") == 2)
    seen = await phones[1].until(lambda v: v["game"] is None)     # its view: none, its frame: sent
    assert seen["room"]["phase"] == "playing"
    version = phones[1].version
    ref = await phones[1].act({"type": "add", "n": 1})
    err = await phones[1].error()
    assert err["d"]["code"] == "bad_action" and err["d"]["ref"] == ref
    await phones[1].send({"t": "ping", "d": {"c": 1}})
    assert (await phones[1].recv())["t"] == "pong" and phones[1].version == version
    assert await tv.comm.receive_nothing(timeout=0.2)
