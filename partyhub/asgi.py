import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from partyhub.http.replica import ReplicaHeader  # noqa: E402
from partyhub.origin import HostOriginValidator  # noqa: E402
from partyhub.rooms.transport.routing import websocket_urlpatterns  # noqa: E402
from partyhub.rooms.live import timekeeper  # noqa: E402


class StartClock:
    """Starts the timekeeper with the first request, so deadlines fire after a restart."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            timekeeper.ensure_started()
        return await self.app(scope, receive, send)


# Every answer, and every socket's handshake, names the replica that served it.
application = ReplicaHeader(StartClock(ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": HostOriginValidator(URLRouter(websocket_urlpatterns)),
})), settings.PARTYHUB_REPLICA)
