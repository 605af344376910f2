"""The bare-Channels baseline: the least any Channels app can do.

Every frame a socket sends is `group_send`-ed to its room group, and every member of the
group sends it on. Run: `python -m daphne bench.bare_channels:application` with
DJANGO_SETTINGS_MODULE=bench.bare_settings (bench/servers.py does this).
"""
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bare_settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = "bench." + self.scope["url_route"]["kwargs"]["room"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, close_code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/<str:room>", RelayConsumer.as_asgi())]),
})
