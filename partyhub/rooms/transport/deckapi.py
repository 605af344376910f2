"""The HTTP API of a host's decks (docs/protocol.md, "Decks"): what the caller may see and
pick, renaming, deleting and sharing. Who calls: a host by its host key (`X-Host-Key`) or by
a room's host token (`Authorization: Bearer`, the room's host key then), a staff user by the
Django admin's session; anyone else is anonymous and sees no uploaded deck."""
from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from partyhub.decks import custom
from partyhub.http import limits, net
from partyhub.http.limits import client_address
from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.gateway import registry
from partyhub.rooms.store import store
from partyhub.rooms.transport.api import _body, _host_token, api


def caller(request) -> tuple[str, bool]:
    """(the caller's host key hash or "", whether it is a staff user)."""
    staff = bool(getattr(request, "user", None) and request.user.is_active and request.user.is_staff)
    key = request.headers.get("X-Host-Key")
    if key:
        return custom.host_key_hash(key), staff
    token = _host_token(request)
    if token:
        host = store.find("host", seating.token_hash(token))
        if host is not None:
            return host, staff
    return "", staff


def _host(request) -> tuple[str, bool]:
    host, staff = caller(request)
    if not host and not staff:
        raise fail("no_host_key")
    return host, staff


@api
@require_GET
def decks_list(request):
    host, staff = caller(request)
    return JsonResponse({"decks": custom.listing(host, staff)})


@require_GET
def games_list(request):
    return JsonResponse(registry.described(caller(request)[0]), safe=False)


@api
@require_http_methods(["PATCH", "DELETE"])
def deck_detail(request, deck_id):
    host, staff = _host(request)
    if request.method == "DELETE":
        custom.delete(deck_id, host, staff)
        return HttpResponse(status=204)
    return JsonResponse(custom.rename(deck_id, host, staff, _body(request).get("name")))


@api
@require_http_methods(["POST", "DELETE"])
def deck_share(request, deck_id):
    host, staff = _host(request)
    if request.method == "DELETE":
        return JsonResponse({"id": deck_id, "code": None, "removed": custom.unshare(deck_id, host, staff)})
    # {"new": true}: a new code (any other body, or none, asks for the deck's code)
    new = request.content_type == "application/json" and _body(request).get("new") is True
    code = custom.share(deck_id, host, staff, new=new)
    # the link a friend opens on their own TV: the home page offers to add the deck there
    return JsonResponse({"id": deck_id, "code": code, "url": f"{net.public_base(request)}/?deck={code}"})


@api
@require_POST
def decks_redeem(request):
    body = _body(request)
    host, _ = caller(request)
    if not host:
        raise fail("no_host_key")
    address = client_address(request)
    if not limits.lookup_allowed(address):    # a share code is a secret: probing costs time
        raise fail("rate_limited")
    made = custom.redeem(body.get("code"), host)
    if made is None:
        limits.lookup_failed(address)
        raise fail("bad_share_code")
    return JsonResponse(made)
