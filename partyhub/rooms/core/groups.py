"""Channel-layer group names, in one place."""


def room_group(code: str) -> str:
    """One socket per process of a room receives the room's fan-out messages here."""
    return f"room.{code}.all"
