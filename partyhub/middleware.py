"""SyncStack: run Django's middleware stack in one thread per request.

Under ASGI, Django calls every middleware in the mode of the handler below it. With an async
handler at the bottom, each of Django's own middlewares (MiddlewareMixin) then hops to a
worker thread and back for its process_request and again for its process_response, and
WhiteNoise, which is sync only, hops back to the event loop for the rest of the stack:
18 thread switches for a GET of the room summary, most of a small request's CPU. Our views
are all sync, so nothing gains from the async mode. This middleware is sync only and sits last:
every middleware above it runs sync, in the request's one worker thread, and the request
switches thread 6 times instead (docs/performance.md, "The join storm").
"""
from __future__ import annotations


class SyncStack:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)
