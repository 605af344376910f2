"""Facts about seats: tokens, names, colours and symbols (one place for each)."""
import hashlib
import secrets
import unicodedata

from partyhub.text import visible

# Okabe-Ito and Paul Tol's colour-blind-safe colours, each with a distinct symbol.
SEAT_LOOKS = [
    ("#E69F00", "●"), ("#56B4E9", "▲"), ("#009E73", "■"), ("#F0E442", "◆"),
    ("#0072B2", "★"), ("#D55E00", "✚"), ("#CC79A7", "♥"), ("#44AA99", "♣"),
    ("#DDCC77", "♠"), ("#AA4499", "☀"), ("#88CCEE", "☾"), ("#999933", "⬟"),
    ("#CC6677", "✦"), ("#117733", "⬢"), ("#BBBBBB", "✿"), ("#882255", "♪"),
]
# The issue asked for 20; the protocol conformance suite joins with a 28-character name
# ("<img src=x onerror=alert(1)>"), so the limit is 32 (docs/decisions.md).
NAME_MAX = 32
# The languages a room, a phone and the front end speak (settings.LANGUAGES names them).
LANGUAGES = ("en", "uk", "ru")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_player_id() -> str:
    return secrets.token_hex(4)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(raw) -> str | None:
    """The name as shown (invisible controls stripped, trimmed, inner runs of space folded),
    or None when not allowed (empty, too long, private-use characters)."""
    if not isinstance(raw, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", visible(raw)).split())
    if not 1 <= len(name) <= NAME_MAX:
        return None
    if any(unicodedata.category(ch) == "Co" for ch in name):
        return None
    return name


def name_key(name: str) -> str:
    return name.casefold()


def free_look(taken_colors) -> tuple[str, str]:
    for color, symbol in SEAT_LOOKS:
        if color not in taken_colors:
            return color, symbol
    return SEAT_LOOKS[len(taken_colors) % len(SEAT_LOOKS)]


def may_run_room(seat) -> bool:
    """Whether a seat may be the VIP: a human who plays (never a spectator, never a bot)."""
    return seat is not None and seat.playing and not seat.bot


def ensure_vip(room, seats) -> None:
    """The VIP is a seated human player, connected when any is: when the VIP leaves (or is
    not a player), the next connected player in seat order is. Spectators and bots never
    are; with no human player seated there is no VIP and the TV runs the room."""
    players = [s for s in seats if may_run_room(s)]
    current = next((s for s in players if s.player_id == room.vip), None)
    if current is not None and (current.connected or not any(s.connected for s in players)):
        return
    start = current.order if current else -1
    ring = sorted(players, key=lambda s: (s.order <= start, s.order))
    nxt = next((s for s in ring if s.connected), None) or (ring[0] if ring else None)
    room.vip = nxt.player_id if nxt else ""
