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


urlpatterns = [path("api/dictionary/uk/<str:word>", dictionary_uk)]
