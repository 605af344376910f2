"""The gallery's doors (docs/protocol.md, "Keepsakes"):

- `POST /api/rooms/<code>/keepsakes` (Bearer: a seat's or the TV's token): a pass, as the
  gallery's address;
- `POST` / `DELETE /api/rooms/<code>/keepsakes/share` (Bearer: the host token): make or revoke
  the share link;
- `GET /r/<code>/keepsakes?k=<pass>`: the page, in the room's language; the host's pass also
  shows the share link's buttons, which `POST` the same address (a form, CSRF-checked);
- `GET /r/<code>/keepsakes/<game_no>/drawing/<n>.png|.gif?k=<pass>`: a drawing as a PNG, or
  its strokes replayed as an animated GIF, made on the server (drawings.py) once and kept
  with the keepsake (renders.py).
"""
from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from partyhub.http import limits
from partyhub.keepsakes import access, gallery, renders
from partyhub.rooms.core.errors import ServiceError, fail
from partyhub.rooms.store import store
from partyhub.rooms.transport.api import _host_token, api
from partyhub.web import _lang

IMAGE_SECONDS = 3600       # a drawing never changes: the browser keeps it an hour


@api
@require_POST
def keepsakes_pass(request, code):
    room, key = access.pass_for(code, _host_token(request))
    return JsonResponse({"url": access.page_url(room, key)}, status=201)


@api
@require_http_methods(["POST", "DELETE"])
def keepsakes_share(request, code):
    room = access.host_room(code, _host_token(request))
    if request.method == "DELETE":
        return JsonResponse({"revoked": access.unshare(room)})
    return JsonResponse({"url": access.page_url(room, access.share(room))}, status=201)


@require_http_methods(["GET", "POST"])
def page(request, code):
    key = request.POST.get("k") if request.method == "POST" else request.GET.get("k")
    try:
        who = _visitor(request, code, key)
    except ServiceError as e:
        # a pass that opens nothing: the room is known, its page speaks the room's language
        return _refused(request, e, _language_of(code) if e.code == "keepsake_pass" else None)
    made = None
    if request.method == "POST":
        if not who.host:
            return _refused(request, fail("keepsake_pass"), who.room.language)
        if request.POST.get("do") == "unshare":
            access.unshare(who.room)
        else:
            made = request.build_absolute_uri(access.page_url(who.room, access.share(who.room)))
    lang = _lang(request, who.room.language)
    translation.activate(lang)
    response = render(request, "partyhub/keepsakes.html", {
        "lang": lang, "code": who.room.code, "key": who.key, "host": who.host,
        "games": gallery.shown(who.room, who.key, faces=who.who != "share"), "shared": who.host and access.shared(who.room),
        "made": made, "back": "" if who.who == "share" else _back(who),
    })
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def drawing(request, code, game_no, n, kind):
    try:
        if kind not in renders.KINDS:
            raise fail("keepsake_not_found")
        who = _visitor(request, code, request.GET.get("k"))
        data = renders.picture(who.room, game_no, n, kind, limits.client_address(request))
    except ServiceError as e:
        return HttpResponse(e.message, status=e.status, content_type="text/plain; charset=utf-8")
    response = HttpResponse(data, content_type="image/png" if kind == "png" else "image/gif")
    response["Cache-Control"] = f"private, max-age={IMAGE_SECONDS}"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _visitor(request, code: str, key):
    """Who the pass lets in; an unknown room counts as a failed lookup (limits.py)."""
    address = limits.client_address(request)
    if not limits.lookup_allowed(address):
        raise fail("rate_limited")
    try:
        return access.visitor(code, key)
    except ServiceError as e:
        if e.code == "room_not_found":
            limits.lookup_failed(address)
        raise


def _back(who) -> str:
    """Back to the room: the TV's page, or the phone's."""
    return f"/tv/{who.room.code}" if who.host else f"/j/{who.room.code}"


def _language_of(code: str) -> str | None:
    room = store.load(str(code).upper()[:8], "read")
    return None if room is None else room.language


def _refused(request, e: ServiceError, room_language: str | None = None):
    """The refusal's page: in the room's language when the room is known (?lang= first, as
    the gallery's own page), else the browser's."""
    lang = _lang(request, room_language)
    translation.activate(lang)
    response = render(request, "partyhub/keepsakes_refused.html",
                      {"lang": lang, "status": e.status, "gone": e.status == 404}, status=e.status)
    response["Cache-Control"] = "no-store"
    return response
