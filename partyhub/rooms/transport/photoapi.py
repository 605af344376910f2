"""The HTTP doors of table photos (partyhub/rooms/domain/photos.py; docs/protocol.md, "Table photos").

POST   /api/rooms/<code>/photos          a seat's pictures (multipart `files`, its seat token)
DELETE /api/rooms/<code>/photos/<card>   a seat takes its own photo away; the TV (host token) any
"""
from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.http import JsonResponse
from django.views.decorators.http import require_http_methods, require_POST

from partyhub.decks import uploads
from partyhub.http.limits import body_limit
from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import fail
from partyhub.rooms.domain import photos
from partyhub.rooms.transport.api import _host_token, _publish, api
from partyhub.rooms.write import ladder


def _seat(code, request):
    actor = selectors.actor_for(code, _host_token(request))
    if actor.role != "player" or actor.seat is None:
        raise fail("unauthorized", "Only a player's phone adds photos.")
    return actor


@body_limit("deck_body_bytes", "upload_too_large")
@api
@require_POST
def photos_add(request, code):
    actor = _seat(code, request)
    player = actor.seat.player_id
    try:
        files = request.FILES.getlist("files")
    except (SuspiciousOperation, ValueError):   # too many files or fields, a broken form
        raise fail("upload_too_large")
    if not files:
        raise fail("no_files")
    room = selectors.room_get(code)
    photos.may_add(room, player, len(files))
    left = photos.PER_SEAT - len(photos.mine(room, player))   # a zip's pictures count too
    with uploads.one_at_a_time(code), uploads.judged(files, left) as up:
        if not up.cards:
            e = fail("no_images")
            return JsonResponse({"error": {"code": e.code, "message": e.message},
                                 "rejected": up.rejected}, status=e.status)
        change = photos.add(ladder.room_change, code, player, [card.read_bytes() for card in up.cards])
    _publish(change)
    return JsonResponse({"photos": photos.mine(change.room, player), "rejected": up.rejected},
                        status=201)


@api
@require_http_methods(["DELETE"])
def photo_remove(request, code, card):
    token = _host_token(request)
    actor = selectors.actor_for(code, token)
    if actor.role == "tv":
        change = photos.remove(ladder.room_change, code, card, None)
    elif actor.role == "player" and actor.seat is not None:
        change = photos.remove(ladder.room_change, code, card, actor.seat.player_id)
    else:
        raise fail("unauthorized")
    _publish(change)
    return JsonResponse({"photos": photos.public(change.room)})
