import threading

from django.apps import AppConfig


class RoomsConfig(AppConfig):
    name = "partyhub.rooms"
    label = "rooms"
    verbose_name = "Rooms"

    def ready(self):
        # Family mode's dictionaries (pymorphy3 ru and uk, about 0.3 s): loaded beside the
        # start-up, not on the first name of the first room.
        from partyhub.family import lemmas
        threading.Thread(target=lemmas.warm, name="family-lemmas", daemon=True).start()
