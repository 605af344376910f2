"""Facts about seats: tokens, names, colours and symbols (one place for each)."""
import hashlib
import secrets
import unicodedata

from partyhub.text import keys, visible

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
    """The name as shown (invisible characters and excess combining marks stripped: text.visible;
    trimmed, inner runs of space folded), or None when not allowed (empty, too long,
    private-use characters)."""
    if not isinstance(raw, str):
        return None
    name = " ".join(unicodedata.normalize("NFC", visible(raw)).split())
    if not 1 <= len(name) <= NAME_MAX:
        return None
    if any(unicodedata.category(ch) == "Co" for ch in name):
        return None
    return name


def same_name(a: str, b: str) -> bool:
    """Whether two names are one name: alike but for case, invisible characters and letters
    that look alike (UTS #39 skeletons, text.keys): "Bob", "BOB", "Bo\u034fb" and Cyrillic
    "Воb" are one name. The one check of names taken, kicked and claimed (and of audience
    names); never compare names or Seat.name_key otherwise."""
    return bool(keys(a) & keys(b))


def name_key(name: str) -> str:
    """What Seat.name_key stores (a skeleton, at most 64 characters): a record, not compared."""
    return min(keys(name), default=name.casefold())[:64]


def free_look(taken_colors) -> tuple[str, str]:
    for color, symbol in SEAT_LOOKS:
        if color not in taken_colors:
            return color, symbol
    return SEAT_LOOKS[len(taken_colors) % len(SEAT_LOOKS)]


def fits(game, n: int) -> bool:
    """Whether n seats make a table for `game` (a deal seats every seat of the room, or none)."""
    return game.min_players <= n <= game.max_players


def may_run_room(seat) -> bool:
    """Whether a seat may be the VIP: a human who plays (never a spectator, never a bot)."""
    return seat is not None and seat.playing and not seat.bot

