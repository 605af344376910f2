"""The pages: the TV's home, the TV's room, the phone's join/controller page."""
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

LANGS = ("en", "uk", "ru")


def _lang(request, fallback="en") -> str:
    lang = request.GET.get("lang") or fallback
    return lang if lang in LANGS else "en"


def _page(request, template, lang, **context):
    translation.activate(lang)
    response = render(request, template, {"lang": lang, **context})
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def home(request):
    return _page(request, "partyhub/home.html", _lang(request))


@require_GET
def tv(request, code):
    from partyhub.rooms.models import Room
    room = Room.objects.filter(code=code.upper()).first()
    return _page(request, "partyhub/tv.html", _lang(request, room.language if room else "en"),
                 code=code.upper())


@require_GET
def phone(request, code):
    from partyhub.rooms.models import Room
    room = Room.objects.filter(code=code.upper()).first()
    return _page(request, "partyhub/phone.html", _lang(request, room.language if room else "en"),
                 code=code.upper())
