"""Every error code of the protocol, in one place (docs/protocol.md lists them)."""


class ServiceError(Exception):
    def __init__(self, code: str, message: str = "", status: int = 400, public: bool = False,
                 extra: dict | None = None):
        super().__init__(message or code)
        self.code, self.message, self.status = code, message or MESSAGES.get(code, code), status
        self.public = public   # the table is told too (a notice frame), e.g. a jinx collision
        self.extra = extra or {}   # more fields of the HTTP answer, beside "error"


MESSAGES = {
    # HTTP
    "room_not_found": "There is no room with that code.",
    "room_closed": "This room has ended. Start a new one!",
    "name_taken": "Somebody in this room already has that name.",
    "name_kicked": "That name was removed from this room; the host can let it back in.",
    "not_claimable": "No seat in this room has that name.",
    "claims_full": "Too many requests for seats are waiting; try again in a minute.",
    "claim_pending_seat": "Someone has already asked for that seat; the TV answers that request first.",
    "claim_pending_address": "A request for a seat from your network is already waiting for the TV's answer.",
    "seat_handed": "Your seat was handed to another phone, approved on the TV; you may ask for it back.",
    "bad_name": "A name has 1 to 32 characters.",
    "not_family_friendly": "This room is in family mode: choose other words.",
    "room_full": "This room is full.",
    "room_locked": "The host has locked this room.",
    "rate_limited": "Too many attempts: wait a moment.",
    "bad_request": "The request body must be a JSON object.",
    "bad_content_type": "Send the body as JSON, with Content-Type: application/json.",
    "bad_origin": "Requests from another site's pages are refused.",
    "unauthorized": "The host token is missing or wrong.",
    "game_running": "The event log is available when the game has ended.",
    "no_game": "No game has been played in this room yet.",
    "bad_deck_name": "A deck name has 1 to 40 characters.",
    "no_files": "Send one or more pictures or a zip of them in the `files` field.",
    "no_images": "None of the files is a usable JPEG, PNG or WebP picture.",
    "upload_too_large": "That upload is too large.",
    "body_too_large": "That request body is larger than this address accepts.",
    "upload_busy": "Another deck upload is being processed; try again when it is done.",
    "deck_too_many_pixels": "These pictures hold more pixels than one deck may: send fewer or smaller pictures.",
    "upload_too_slow": "Reading these pictures takes too long: send fewer or smaller pictures.",
    "upload_failed": "The pictures could not be processed.",
    "deck_not_found": "There is no such deck or card.",
    "deck_not_yours": "That deck belongs to another host; ask them for its share code.",
    "too_many_decks": "You have as many decks as a host may keep: delete one first.",
    "decks_too_large": "Your decks would take more space than a host may use: delete one or send fewer pictures.",
    "bad_share_code": "No deck has that share code.",
    "no_host_key": "Send your host key (X-Host-Key) or a room's host token.",
    "photos_off": "The host has not turned table photos on.",
    "too_many_photos": "A phone may add at most 5 photos to the table.",
    "photo_not_found": "There is no such photo of yours on this table.",
    "request_too_slow": "The request came too slowly.",
    # WebSocket
    "bad_frame": "A frame is a JSON object like {\"t\": \"act\", \"id\": ..., \"d\": {...}}.",
    "frame_too_large": "That frame is larger than 64 KiB.",
    "flood": "Too many frames: slow down.",
    "not_audience": "Players play; the audience's actions are for the audience.",
    "audience_off": "The host has turned the audience off.",
    "no_ballot": "The audience has nothing to vote on now.",
    "ballot_full": "This vote has as many voters as it can take; watch along.",
    "pass_expired": "Your audience pass has expired; watch again to get a new one.",
    "pass_revoked": "The host has revoked the audience passes; watch again to get a new one.",
    "too_many_sockets": "Too many connections from your network: try again in a moment.",
    "room_crowded": "This room has as many connections as it can take: try again in a moment.",
    "bad_action": "That action is not known or is malformed.",
    "duplicate_action": "That action id was already applied.",
    "not_allowed": "Only the host or the VIP can do that.",
    "not_a_player": "Only players in the game can do that.",
    "no_game_running": "No game is running.",
    "game_over": "The game has ended.",
    "paused": "The game is paused.",
    "not_paused": "The game is not paused.",
    "not_paced": "This game runs on timers: only a host-paced game (timers: none) has rounds the VIP ends.",
    "unknown_game": "There is no such game.",
    "bad_options": "The game options are not valid.",
    "player_count": "This game needs a different number of players.",
    "unknown_player": "There is no such player in this room.",
    "seat_taken": "That seat is connected; only a disconnected seat can be taken over.",
    "takeover_off": "The host does not allow taking over seats.",
    "unknown_claim": "That request is gone (answered, expired, or its seat's owner is back).",
    "keepsake_pass": "The room's gallery opens from its own phones and TV, or with the host's share link.",
    "keepsake_not_found": "There is no such keepsake or drawing.",
    "portrait_hidden": "The host hid your portrait: pick a ready-made face.",
    "bad_portrait": "A portrait is a few strokes from the palette, or one of the ready-made faces.",
}

HTTP_STATUS = {
    "room_not_found": 404, "room_closed": 410, "name_taken": 409, "bad_name": 400,
    "not_family_friendly": 400, "room_full": 403,
    "name_kicked": 403, "not_claimable": 404, "seat_taken": 409, "claims_full": 429,
    "claim_pending_seat": 409, "claim_pending_address": 429, "seat_handed": 401,
    "room_locked": 403, "rate_limited": 429, "bad_request": 400, "unauthorized": 401,
    "bad_content_type": 415, "bad_origin": 403,
    "game_running": 409, "no_game": 404,
    "bad_deck_name": 400, "no_files": 400, "no_images": 400, "upload_too_large": 413,
    "deck_not_found": 404, "body_too_large": 413, "upload_busy": 429, "deck_too_many_pixels": 413,
    "upload_too_slow": 413, "upload_failed": 500, "request_too_slow": 408,
    "deck_not_yours": 403, "too_many_decks": 429, "decks_too_large": 413, "bad_share_code": 404,
    "no_host_key": 401, "not_allowed": 403,
    "photos_off": 403, "too_many_photos": 413, "photo_not_found": 404,
    "keepsake_pass": 403, "keepsake_not_found": 404,
}


def fail(code: str, message: str = "", **extra) -> ServiceError:
    return ServiceError(code, message, HTTP_STATUS.get(code, 400), extra=extra)
