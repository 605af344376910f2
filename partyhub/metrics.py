"""GET /metrics: Prometheus text format, for `Authorization: Bearer $METRICS_TOKEN` only.

Counters and the socket gauge are per process: a scraper asks every web replica (README.md,
"Metrics"). The live rooms are read from the database at each scrape, so every replica
reports the same, whole-server figure.

The transport and the timekeeper count through the one-line helpers below:
`socket_opened`/`socket_closed`, `acted(started)`, `refused(code)`, `timer_fired()`,
`stream_item()`.
"""
from __future__ import annotations

import hmac
import time

from django.conf import settings
from django.http import HttpResponse, HttpResponseNotFound
from django.views.decorators.http import require_GET
from prometheus_client import (CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram,
                               disable_created_metrics, generate_latest)
from prometheus_client.core import GaugeMetricFamily

from partyhub.rooms.store import store

disable_created_metrics()   # no *_created series: the process start time is already there

SOCKETS = Gauge("partyhub_sockets", "WebSockets open in this process")
ACTIONS = Counter("partyhub_actions", "Actions applied (accepted and published)")
ERRORS = Counter("partyhub_errors", "Error frames sent to sockets, by code", ["code"])
ACTION_SECONDS = Histogram("partyhub_action_seconds", "From an action frame to its views published",
                           buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5))
TIMERS = Counter("partyhub_timers_fired", "Game deadlines fired by the timekeeper")
STREAM_ITEMS = Counter("partyhub_stream_items", "Stream items (drawing strokes) relayed")


def socket_opened() -> None:
    SOCKETS.inc()


def socket_closed() -> None:
    SOCKETS.dec()


def acted(started: float) -> None:
    """An action from a socket went through; `started` is time.perf_counter() at its frame."""
    ACTIONS.inc()
    ACTION_SECONDS.observe(time.perf_counter() - started)


def refused(code: str) -> None:
    ERRORS.labels(code=code).inc()


def timer_fired() -> None:
    TIMERS.inc()


def stream_item() -> None:
    STREAM_ITEMS.inc()


class LiveRooms:
    """partyhub_rooms{phase, game}: rooms with a connected seat, counted at scrape time."""

    @staticmethod
    def family() -> GaugeMetricFamily:
        return GaugeMetricFamily("partyhub_rooms", "Rooms with at least one connected seat",
                                 labels=["phase", "game"])

    def describe(self):
        """The names, for register(): without it the registry would collect (query) at import."""
        yield self.family()

    def collect(self):
        family = self.family()
        for (phase, game), n in store.find("live").items():
            family.add_metric([phase, game or ""], n)
        yield family


REGISTRY.register(LiveRooms())


def _authorized(request) -> bool:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@require_GET
def view(request):
    """The metrics, or a plain 404 (as for any unknown path) without the right token."""
    if not _authorized(request):
        return HttpResponseNotFound("Not Found", content_type="text/plain")
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
