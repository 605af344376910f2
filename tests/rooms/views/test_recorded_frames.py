"""The recorded-frames harness, on the test game: no frame shows another seat's secret."""
import pytest

from tests.harness.recorded import play_recorded

pytestmark = pytest.mark.django_db(transaction=True)


def count_secrets(state, viewer):
    own = state["secrets"].get(viewer)
    return [f'"secret":{n}' for seat, n in state["secrets"].items() if seat != viewer and n != own]


async def test_a_whole_count_game_leaks_no_secret_to_any_connection():
    rec = await play_recorded("count", 4, {"target": 40, "turn_seconds": 5}, reconnect_every=7)
    assert rec.log["events"][-1]["type"] in ("counted", "timed_out")
    checked = rec.check(count_secrets)
    assert checked > 100 and rec.reconnects >= 2


async def test_the_harness_catches_a_leak():
    rec = await play_recorded("count", 3, {"target": 10}, reconnect_every=0)
    with pytest.raises(AssertionError):
        rec.check(lambda state, viewer: ['"total"'])
