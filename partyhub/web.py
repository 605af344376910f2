"""The pages: the TV's home, the TV's room, the phone's join/controller page."""
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from partyhub.http import limits
from partyhub.rooms.core import schema
from partyhub.rooms.store import store

LANGS = ("en", "uk", "ru")


def _lang(request, fallback=None) -> str:
    """?lang= (a choice the page stored, or a link), else `fallback` (the room's language, for
    the TV), else the browser's own: the language cookie a phone keeps for its room's page (the
    player's choice), else its Accept-Language (a first visit), else English."""
    lang = request.GET.get("lang") or fallback or _accepted(request)
    return lang if lang in LANGS else "en"


def _accepted(request) -> str:
    """The browser's language cookie (settings.LANGUAGE_COOKIE_NAME), else the first of en, uk,
    ru its Accept-Language asks for (by its q order)."""
    return translation.get_language_from_request(request)


def _page(request, template, lang, **context):
    """A page, with the room actions' types (core/schema.py) for its script: served, never
    copied (frontend/static/common/util.js reads them from the page)."""
    translation.activate(lang)
    response = render(request, template, {"lang": lang, "room_actions": sorted(schema.SCHEMA), **context})
    response["Cache-Control"] = "no-store"
    return response


def bad_request(request, exception=None):
    """Django's 400, except for a Host this server does not answer under /api/: a JSON error
    (`host_not_allowed`) that says so, for bots and scripts pointed at a proxy's inner name."""
    from django.core.exceptions import DisallowedHost
    from django.http import JsonResponse
    from django.views import defaults
    if isinstance(exception, DisallowedHost) and request.path.startswith("/api/"):
        host = request.META.get("HTTP_HOST", "")
        return JsonResponse({"error": {"code": "host_not_allowed", "message": (
            f"This server does not answer the name {host!r}: use an allowed name or address, "
            "or add it to ALLOWED_HOSTS (README.md, \"Names and addresses\").")}}, status=400)
    return defaults.bad_request(request, exception)


@require_GET
def home(request):
    return _page(request, "partyhub/home.html", _lang(request))


def _room_language(request, code: str) -> str | None:
    """The language of the room a page is of: a lookup by code like the API's (not made while
    the address has used up its failed lookups; an unknown or ended room counts as one)."""
    address = limits.client_address(request)
    if not limits.lookup_allowed(address):
        return None
    room = store.load(code, "read")
    if room is None or room.closed_at is not None:
        limits.lookup_failed(address)
    return room.language if room else None


@require_GET
def tv(request, code):
    code = code.upper()
    return _page(request, "partyhub/tv.html", _lang(request, _room_language(request, code)), code=code)


@require_GET
def phone(request, code):
    """The phone speaks its player's language, not the room's (issue 22): the cookie its page
    set for this room when the player chose (or the seat said), else Accept-Language."""
    code = code.upper()
    return _page(request, "partyhub/phone.html", _lang(request), code=code)
