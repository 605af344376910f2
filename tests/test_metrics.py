"""GET /metrics: only with the token, Prometheus text, and what the transport and clock count."""
import pytest
from channels.db import database_sync_to_async
from prometheus_client import REGISTRY

from partyhub.rooms.live import timekeeper
from partyhub.rooms.timers import clock
from tests.rooms.helpers import make_room, start_count
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def sample(name, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.mark.parametrize("token, header", [
    ("", None), ("", "Bearer "), ("s3cret", None), ("s3cret", "Bearer wrong"), ("s3cret", "s3cret"),
])
def test_metrics_are_a_plain_404_without_the_right_token(client, settings, token, header):
    settings.METRICS_TOKEN = token
    headers = {"HTTP_AUTHORIZATION": header} if header is not None else {}
    response = client.get("/metrics", **headers)
    assert response.status_code == 404
    assert b"partyhub" not in response.content


def test_metrics_with_the_token_are_prometheus_text_with_live_rooms_by_phase_and_game(client, settings):
    settings.METRICS_TOKEN = "s3cret"
    code, _, seats = make_room(2)
    start_count(code, target=50)
    idle, _, _ = make_room(1)     # nobody connected: not live
    from partyhub.rooms.models import Seat
    Seat.objects.filter(room__code=code).update(connected=True)
    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    text = response.content.decode()
    assert 'partyhub_rooms{game="count",phase="playing"} 1.0' in text
    assert 'phase="lobby"' not in text
    for name in ("partyhub_sockets", "partyhub_actions_total", "partyhub_action_seconds_bucket",
                 "partyhub_timers_fired_total", "partyhub_stream_items_total", "process_cpu_seconds_total"):
        assert name in text


async def test_sockets_actions_latency_and_errors_by_code_are_counted():
    asample = database_sync_to_async(sample)   # a scrape reads the database
    code, host, seats = await database_sync_to_async(make_room)(2)
    before = {"sockets": await asample("partyhub_sockets"), "actions": await asample("partyhub_actions_total"),
              "latency": await asample("partyhub_action_seconds_count"),
              "bad_frame": await asample("partyhub_errors_total", code="bad_frame")}
    tv = Client(code, host)
    assert await tv.open() is True
    assert await asample("partyhub_sockets") == before["sockets"] + 1
    await tv.act({"type": "start", "game": "count", "options": {"target": 50}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    assert await asample("partyhub_actions_total") == before["actions"] + 1
    assert await asample("partyhub_action_seconds_count") == before["latency"] + 1
    await tv.send("not json")
    assert (await tv.error())["d"]["code"] == "bad_frame"
    assert await asample("partyhub_errors_total", code="bad_frame") == before["bad_frame"] + 1
    await tv.close()
    assert await asample("partyhub_sockets") == before["sockets"]


def test_a_fired_deadline_is_counted_once():
    code, _, _ = make_room(2)
    start_count(code, target=50, turn_seconds=1)
    before = sample("partyhub_timers_fired_total")
    from partyhub.rooms.write import services
    changes = timekeeper.fire_due(clock.wall_ms() + 5000)
    assert len(changes) == 1
    assert sample("partyhub_timers_fired_total") == before + 1
    timekeeper.fire_due(clock.wall_ms() + 5000)   # not due again yet: nothing more
    assert sample("partyhub_timers_fired_total") == before + 1
