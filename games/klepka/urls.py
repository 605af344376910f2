from django.http import JsonResponse
from django.urls import path
from django.views.decorators.http import require_GET

from games.klepka import dictionary


@require_GET
def dictionary_uk(request, word):
    if len(word) > 64:
        return JsonResponse({"error": {"code": "bad_word", "message": "A word has at most 64 letters."}},
                            status=400)
    return JsonResponse(dictionary.lookup(word))


# `path`, not `str`: the phone sends encodeURIComponent(word), and a typed "/" (%2F, decoded
# before routing) must get an answer ("not a word"), not a 404 ("could not check").
urlpatterns = [path("api/dictionary/uk/<path:word>", dictionary_uk)]
