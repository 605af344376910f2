"""Small helpers for room tests: a room with seats, actors, the count game started."""
from partyhub.rooms.access import selectors
from partyhub.rooms.access.selectors import Actor
from partyhub.rooms.write import services


def make_room(n=3, language="en"):
    room, host = services.room_create(language)
    seats = []
    for i in range(n):
        _, seat, token = services.seat_join(room.code, f"P{i + 1}")
        seat.token = token
        seats.append(seat)
    return room.code, host, seats


def tv():
    return Actor("tv")


def player(seat):
    return Actor("player", seat)


def start_count(code, actor=None, **options):
    return services.room_apply(code, actor or tv(), None,
                               {"type": "start", "game": "count", "options": options})


def room(code):
    return selectors.room_get(code)
