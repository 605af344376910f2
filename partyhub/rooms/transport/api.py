"""The HTTP API of PROTOCOL.md: JSON in, JSON out, errors as {"error": {"code", "message"}}."""
from __future__ import annotations

import asyncio
import io
import json
from concurrent.futures import ThreadPoolExecutor

import segno
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import close_old_connections, connection
from django.http import FileResponse, HttpResponse, JsonResponse
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from partyhub import redisconf
from partyhub.decks import custom, deckpass, uploads
from partyhub.http import limits, net
from partyhub.http.limits import body_limit, client_address
from partyhub.origin import origin_allowed
from partyhub.rooms.access import audiencepass, selectors
from partyhub.rooms.core import botpass, seating
from partyhub.rooms.core.errors import ServiceError, fail
from partyhub.rooms.live.publish import publish
from partyhub.rooms.store import store
from partyhub.rooms.write import services

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
GONE = ("room_not_found", "room_closed")


def error_response(e: ServiceError) -> JsonResponse:
    return JsonResponse({"error": {"code": e.code, "message": e.message}, **e.extra}, status=e.status)


def _body(request) -> dict:
    """The JSON object a POST carries (an empty body is {}); only with a JSON content type, so
    that no HTML form (text/plain, urlencoded, multipart) can send one."""
    if request.content_type != "application/json":
        raise fail("bad_content_type")
    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):   # deep nesting: RecursionError
        raise fail("bad_request")
    if not isinstance(body, dict):
        raise fail("bad_request")
    return body


# Django runs each HTTP request in a thread of its own, so a database connection opened
# there is new for every request (about 0.8 ms of CPU on SQLite, a TCP connection and a
# login on PostgreSQL). The database work of the frequent requests (create, join, the room
# summary) runs on these threads instead, which keep their connections for CONN_MAX_AGE as
# the sockets' database thread does (docs/performance.md, "The join storm").
_DB = ThreadPoolExecutor(max_workers=2, thread_name_prefix="http-db")


def _db(fn, *args):
    """fn(*args) on a pooled database thread, with Django's connection upkeep around it
    (what request_started and request_finished do for a request's own thread)."""
    def run():
        close_old_connections()
        try:
            return fn(*args)
        finally:
            close_old_connections()
    return _DB.submit(run).result()


def _publish(change) -> None:
    async_to_sync(publish)(change)


def api(view):
    """A JSON view: a refusal is the protocol's error. Not Django's CSRF check (no cookies are
    used: the tokens travel in bodies, URLs and headers); instead a request that changes
    something must not come from another site's page (partyhub/origin.py). A view of a room by
    its code is a lookup: refused (429 rate_limited) while the address has used up its failed
    lookups, and counted as one when the code names no living room."""
    def wrapped(request, *args, **kwargs):
        address = client_address(request) if "code" in kwargs else None
        try:
            if request.method not in SAFE_METHODS and not origin_allowed(
                    request.headers.get("Origin"), request.get_host()):
                raise fail("bad_origin")
            if address is not None and not limits.lookup_allowed(address):
                raise fail("rate_limited")
            return view(request, *args, **kwargs)
        except ServiceError as e:
            if address is not None and e.code in GONE:
                limits.lookup_failed(address)
            return error_response(e)
    wrapped.__name__ = view.__name__
    return csrf_exempt(wrapped)


@api
@require_POST
def rooms_create(request):
    body = _body(request)
    if not limits.room_allowed(client_address(request)):
        raise fail("rate_limited")
    key = body.get("host_key")
    if not custom.host_key_hash(key):     # a new TV browser: the server makes its host key
        key = custom.new_host_key()
    room, token = _db(services.room_create, body.get("language") or "en", custom.host_key_hash(key))
    return JsonResponse({"code": room.code, "join_url": net.join_url(room.code, request),
                         "tv_url": net.tv_url(room.code, request), "host_token": token,
                         "host_key": key}, status=201)


@api
@require_POST
def rooms_join(request, code):
    body = _body(request)
    # The server's own bots (their pass) are not counted: in-process bots all join from this
    # machine's address, so one busy lobby would stop every room's "add bot" for a minute.
    # Each room's seats still bound them (max_seats; add_bot is refused room_full).
    if not botpass.is_bot(code, body.get("bot_pass")) and not limits.join_allowed(client_address(request)):
        raise fail("rate_limited")
    bot = botpass.checked(code, body.get("bot_pass"))
    change, seat, token = _db(services.seat_join, code, body.get("name"), bot, _language(request, body))
    _publish(change)
    return JsonResponse({"player_id": seat.player_id, "token": token,
                         "color": seat.color, "symbol": seat.symbol}, status=201)


@api
@require_POST
def rooms_audience(request, code):
    """An audience pass: a name to play along with, no seat (audiencepass.py)."""
    body = _body(request)
    if not limits.join_allowed(client_address(request)):
        raise fail("rate_limited")
    return JsonResponse(_db(audiencepass.issue, code, body.get("name")), status=201)


def _language(request, body) -> str | None:
    """A new seat's language: the phone's choice in the body, else its Accept-Language (a first
    join), else None (the room's)."""
    if body.get("language") in seating.LANGUAGES:
        return body["language"]
    if not request.META.get("HTTP_ACCEPT_LANGUAGE"):
        return None
    return translation.get_language_from_request(request)


@api
@require_POST
def rooms_claim(request, code):
    """A request for a seat (claims.py), approved on the TV: a new browser asks for the
    disconnected seat of a name (`{"name"}`), or the phone whose seat was handed to another
    asks for it back (`{"token": its old token}`). It waits with the token it gets here,
    which opens the seat once the TV approves."""
    body = _body(request)
    address = client_address(request)
    if not limits.join_allowed(address):
        raise fail("rate_limited")
    if "token" in body:
        change, claim, token = _db(services.seat_claim_back, code, body.get("token"), None, address)
    else:
        change, claim, token = _db(services.seat_claim, code, body.get("name"), None, address)
    _publish(change)
    return JsonResponse({"claim": claim["id"], "token": token, "player_id": claim["player"],
                         "seat": claim["seat"], "expires": claim["expires"]}, status=202)


@api
@require_GET
def rooms_summary(request, code):
    read = _db(selectors.room_read, code)
    room, seats = read.room, read.seats
    return JsonResponse({
        "code": room.code, "phase": room.phase, "game": room.game_id or None,
        "language": room.language, "locked": bool(room.settings.get("locked")),
        "players": [{"id": s.player_id, "name": s.name, "color": s.color, "symbol": s.symbol,
                     "connected": s.connected} for s in seats],
        "join_url": net.join_url(room.code, request),
    })


@api
@require_GET
def rooms_qr(request, code):
    room = selectors.room_get(code)
    buf = io.BytesIO()
    url = net.join_url(room.code, request)
    segno.make(url, error="m").save(buf, kind="svg", scale=8, dark="#111", light="#fff", border=2,
                                    xmldecl=False)
    response = HttpResponse(buf.getvalue(), content_type="image/svg+xml")
    response["X-Join-Url"] = url   # the TV shows the link the code holds
    return response


@api
@require_GET
def rooms_log(request, code):
    room = selectors.host_check(code, _host_token(request))
    if room.phase == "playing":
        raise fail("game_running")
    if room.game_no == 0:
        raise fail("no_game")
    events = store.find("events", room, room.game_no)
    return JsonResponse({"code": room.code, "game": room.game_id, "game_no": room.game_no,
                         "events": [{"v": e.version, "at": e.at, "seat": e.seat or None,
                                     "type": e.type, "data": e.data} for e in events]})


def _host_token(request):
    auth = request.headers.get("Authorization", "")
    return auth[7:] if auth.startswith("Bearer ") else None


@body_limit("deck_body_bytes", "upload_too_large")
@api
@require_POST
def decks_upload(request, code):
    room = selectors.host_check(code, _host_token(request))
    custom.quota_check(room.host)
    try:
        name, files = request.POST.get("name"), request.FILES.getlist("files")
    except (SuspiciousOperation, ValueError):   # too many files or fields, a broken form
        raise fail("upload_too_large")
    name = custom.clean_name(name)
    if not files:
        raise fail("no_files")
    with uploads.one_at_a_time(code), uploads.judged(files) as up:
        if not up.cards:
            e = fail("no_images")
            return JsonResponse({"error": {"code": e.code, "message": e.message},
                                 "rejected": up.rejected}, status=e.status)
        custom.quota_check(room.host, sum(card.stat().st_size for card in up.cards))
        made = custom.store(name, (card.read_bytes() for card in up.cards), room.host)
    return JsonResponse({**made, "rejected": up.rejected}, status=201)


@api
@require_GET
def deck_card(request, code, card_id):
    """An uploaded deck's picture, for the people of a room that uses the deck (deckpass.py):
    an unknown room counts as a failed lookup, and so does a wrong pass."""
    address = client_address(request)
    if not limits.lookup_allowed(address):
        raise fail("rate_limited")
    try:
        room = deckpass.room_of(code)
    except ServiceError:
        limits.lookup_failed(address)
        raise
    if not deckpass.pass_ok(room, card_id, request.GET.get("p")):
        limits.lookup_failed(address)
        raise fail("deck_not_found")
    try:
        f = open(deckpass.card_file(room, card_id), "rb")
    except OSError:
        raise fail("deck_not_found")
    response = FileResponse(f, content_type="image/webp")
    # the pass is in the address: each phone keeps the picture for the room's whole life
    response["Cache-Control"] = "private, max-age=86400, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    return response


async def _probe_layer() -> None:
    """The in-memory layer: a message there and back. Redis (the pub/sub layer, which keeps a
    subscription for every channel it has received on): Redis answers a PING."""
    layer = get_channel_layer()
    target = redisconf.target()
    if not target:
        channel = await layer.new_channel("healthz.")
        await layer.send(channel, {"type": "probe"})
        await asyncio.wait_for(layer.receive(channel), timeout=2)
        return
    client = redisconf.async_client(target, socket_connect_timeout=2, socket_timeout=2)
    try:
        await client.ping()
    finally:
        await client.aclose()


@require_GET
def healthz(request):
    status = {"db": "ok", "channel_layer": "ok"}
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    except Exception as e:  # the answer is the report
        status["db"] = f"down: {type(e).__name__}"
    try:
        async_to_sync(_probe_layer)()
    except Exception as e:
        status["channel_layer"] = f"down: {type(e).__name__}"
    ok = all(v == "ok" for v in status.values())
    return JsonResponse(status, status=200 if ok else 503)
