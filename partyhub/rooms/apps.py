from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "partyhub.rooms"
    label = "rooms"
    verbose_name = "Rooms"
