"""The pages: the TV's home, the TV's room, the phone's join/controller page."""
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

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
    translation.activate(lang)
    response = render(request, template, {"lang": lang, **context})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def home(request):
    return _page(request, "partyhub/home.html", _lang(request))


def _room_language(request, code: str) -> str | None:
    """The language of the room a page is of: a lookup by code like the API's (not made while
    the address has used up its failed lookups; an unknown or ended room counts as one)."""
    from partyhub.rooms import limits
    from partyhub.rooms.models import Room
    address = limits.client_address(request)
    if not limits.lookup_allowed(address):
        return None
    room = Room.objects.filter(code=code).first()
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
