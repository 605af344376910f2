from django.urls import re_path

from partyhub.rooms.transport.consumers import RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z]{4,8})/?$", RoomConsumer.as_asgi()),
]
