"""Which joins are bots: only the server's own (the lobby's "add bot", run in the server
process, and `manage.py bots`, run with the server's settings). They show a pass derived from
the server's SECRET_KEY and the room code; the public join API sets the bot flag only for it.
A public client cannot make itself a (hidden, never-VIP) bot, and a human cannot be hidden
as a bot: the flag only ever follows the pass."""
from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

from partyhub.rooms.core.errors import fail

SALT = "partyhub.rooms.core.botpass"


def for_room(code: str) -> str:
    return salted_hmac(SALT, code.upper()).hexdigest()


def is_bot(code: str, given) -> bool:
    """Whether `given` is the room's bot pass."""
    return isinstance(given, str) and constant_time_compare(given, for_room(code))


def checked(code: str, given) -> bool:
    """Whether a join is a bot's: no pass, a human; the room's pass, a bot; any other pass
    is refused (`not_allowed`)."""
    if given is None:
        return False
    if not is_bot(code, given):
        raise fail("not_allowed", "That bot pass is not this server's.")
    return True
