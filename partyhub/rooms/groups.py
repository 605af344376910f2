"""Channel-layer group names, in one place."""
from partyhub.gamekit import AUDIENCE, TABLE


def viewer_group(code: str, viewer: str) -> str:
    """One group per viewer of a room: each seat, the table (TV), the audience."""
    tag = {TABLE: "table", AUDIENCE: "audience"}.get(viewer, f"p{viewer}")
    return f"room.{code}.{tag}"


def seat_control_group(code: str, player_id: str) -> str:
    """Control messages for the sockets of one seat (replace, kick)."""
    return f"room.{code}.ctl.{player_id}"


def room_group(code: str) -> str:
    """Every socket of a room (room-wide control: room closed)."""
    return f"room.{code}.all"
