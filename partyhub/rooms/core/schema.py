"""The room actions' fields: the one list of them (registry.clean cuts every action to its
declared fields; domain/roomactions.py handles each of them)."""
from __future__ import annotations

from partyhub.gamekit import flag, integer, listing, mapping, record, string, text
from partyhub.strokes import MAX_POINTS_PER_BATCH

# The host's on/off settings (the room action `settings`).
SETTING_KEYS = {"streamer": bool, "extended": bool, "takeover": bool, "locked": bool,
                "family": bool, "audience": bool, "photos": bool}

# A portrait (access/portraits.py) is at most 64 strokes of the platform's pen, or a character.
PORTRAIT = {
    "strokes": listing(64, record({"points": listing(MAX_POINTS_PER_BATCH), "color": string(16),
                                   "width": integer()})),
    "character": string(8),
}

# The fields of each room action (registry.clean cuts an action to them; the game's own are
# in its rules' actions_schema). The options of `start` are checked by the game's Options.
SCHEMA = {
    "start": {"game": string(40), "options": mapping(64)},
    "choose": {"game": string(40), "options": mapping(64)}, "again": {}, "end": {},
    "pause": {}, "resume": {}, "advance": {}, "kick": {"player": string(16)}, "lock": {}, "unlock": {},
    "settings": {"language": string(8), "timers": string(12), "standin": integer(), "vip_grace": integer(),
                 **{key: flag() for key in SETTING_KEYS}},
    "language": {"language": string(8)}, "portrait": PORTRAIT,
    "add_bot": {}, "take_seat": {"player": string(16)},
    "approve_claim": {"claim": string(32)}, "deny_claim": {"claim": string(32)},
    "unban": {"name": string(64)}, "revoke_passes": {},
    "hide": {"player": string(16), "text": text(500), "portrait": string(16)},
}
