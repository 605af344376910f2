"""Storage: one row per room (state as JSON plus a version), its seats, an append-only event log."""
from django.db import models

from partyhub.rooms import scoreboard as _scoreboard


class Room(models.Model):
    code = models.CharField(max_length=8, unique=True)   # 4 letters, more as they fill (codes.py)
    host_token_hash = models.CharField(max_length=64, db_index=True)
    # The hash of the host key of the TV browser that made the room (partyhub/decks/custom.py):
    # its uploaded decks are this host's. "" for a room made before host keys.
    host_key_hash = models.CharField(max_length=64, blank=True, default="")
    language = models.CharField(max_length=2, default="en")
    settings = models.JSONField(default=dict)        # locked, streamer, extended, takeover
    phase = models.CharField(max_length=8, default="lobby")   # lobby | playing | over
    game_id = models.CharField(max_length=32, blank=True, default="")
    game_no = models.IntegerField(default=0)          # how many games were started here
    options = models.JSONField(null=True, blank=True)
    game_seats = models.JSONField(default=list)      # player ids in the running game, in seat order
    state = models.JSONField(null=True, blank=True)
    version = models.BigIntegerField(default=0)
    seats_version = models.BigIntegerField(default=0)   # bumped by every write that may change a seat
    vip = models.CharField(max_length=16, blank=True, default="")
    paused_at = models.BigIntegerField(null=True, blank=True)   # wall ms
    paused_total = models.BigIntegerField(default=0)            # ms the game clock lags the wall
    deadline_at = models.BigIntegerField(null=True, blank=True, db_index=True)  # wall ms, due timer
    results = models.JSONField(null=True, blank=True)
    recent = models.JSONField(default=dict)          # player id -> the last action ids (applied once)
    scoreboard = models.JSONField(default=_scoreboard.empty)   # bounded: scoreboard.py
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The room's life (partyhub/rooms/write/lifecycle.py): wall ms of the last action, join,
    # connect or disconnect, kept fresh while any process holds a socket of the room; and
    # when the room was closed for being idle (None while it lives). Closed rooms are purged
    # after the retention days.
    active_at = models.BigIntegerField(default=0, db_index=True)
    closed_at = models.BigIntegerField(null=True, blank=True, db_index=True)
    # Who may get in (partyhub/rooms/access/claims.py, docs/decisions.md "Seats and people"): the
    # pending requests for a seat, each waiting for the TV's approval; and the names of
    # kicked players that may not join again until let back in.
    claims = models.JSONField(default=list)
    barred = models.JSONField(default=list)
    # The seats handed to another phone (claims.approve): the token hash of each phone that
    # lost its seat, with the seat and how it moved, the last HANDED_MAX. That phone's token
    # is told so (a `handed` frame) and may ask for the seat back; views show the rest.
    handed = models.JSONField(default=list)
    # Seats whose phone is away (partyhub/rooms/timers/standin.py): player id -> {"since": wall ms the
    # last socket closed, "played": wall ms of the stand-in's last move (absent until it has
    # played: the view marks the seat), "rest": the version at which it found nothing to do}.
    # Written with the disconnect and the moves themselves, so no extra write and a restart
    # keeps the count.
    away = models.JSONField(default=dict)
    # The last time the VIP's crown passed from a seat that had it (partyhub/rooms/timers/vip.py):
    # {"from": player id, "name": their name, "to": player id, "why": "away" | "left", "at": wall
    # ms}, so the TV can say so; None until it has passed.
    vip_passed = models.JSONField(null=True, blank=True)
    # What a stand-in did for a seat whose phone came back (partyhub/rooms/timers/standin.py): player
    # id -> {"turns": moves made, "points": the seat's score then less its score before the
    # first move, "game_no"}; shown to that seat's phone only, until its own next move.
    covered = models.JSONField(default=dict)

    def __str__(self):
        return f"{self.code} ({self.phase}, {self.game_id or 'no game'})"

    @property
    def host(self) -> str:
        """Whose decks this room may pick: its host key hash (a room made before host keys
        is a host of its own, by its host token hash)."""
        return self.host_key_hash or self.host_token_hash


class Seat(models.Model):
    room = models.ForeignKey(Room, related_name="seats", on_delete=models.CASCADE)
    player_id = models.CharField(max_length=16)
    token_hash = models.CharField(max_length=64, db_index=True)
    name = models.CharField(max_length=32)
    name_key = models.CharField(max_length=64)   # a skeleton (seating.name_key); compare with seating.same_name
    color = models.CharField(max_length=7)
    symbol = models.CharField(max_length=2)
    order = models.IntegerField()
    playing = models.BooleanField(default=True)   # False: joined mid-game, watches as audience
    kicked = models.BooleanField(default=False)
    bot = models.BooleanField(default=False)
    connected = models.BooleanField(default=False)
    channel = models.CharField(max_length=128, blank=True, default="")
    # The language of this player's phone (en, uk, ru): from the join's Accept-Language, changed
    # with the `language` action. The TV and the game's content keep the room's language.
    language = models.CharField(max_length=2, blank=True, default="")
    # The player's face (partyhub/rooms/access/portraits.py): {}, {"character"} or {"strokes"}.
    portrait = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["order"]
        constraints = [models.UniqueConstraint(fields=["room", "player_id"], name="seat_player_unique")]

    def __str__(self):
        return f"{self.name} in {self.room.code}"


class Event(models.Model):
    """Append-only: what happened in a room, in version order."""
    room = models.ForeignKey(Room, related_name="events", on_delete=models.CASCADE)
    version = models.BigIntegerField()
    game_no = models.IntegerField(default=0)
    at = models.BigIntegerField()                  # wall ms
    seat = models.CharField(max_length=16, blank=True, default="")
    type = models.CharField(max_length=40)
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["room", "game_no"])]


class StreamItem(models.Model):
    """High-rate items (drawing strokes) appended without the room lock, absorbed later."""
    room = models.ForeignKey(Room, related_name="stream_items", on_delete=models.CASCADE)
    game_no = models.IntegerField()
    seat = models.CharField(max_length=16)
    data = models.JSONField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["room", "id"])]


class Keepsake(models.Model):
    """What a finished game leaves for the room's gallery (partyhub/keepsakes/): its public
    recap as the game's `keepsake(state)` gives it, written with the room row at the game's
    end. A room keeps its last KEEP; they go with the room (lifecycle.purge_one)."""
    room = models.ForeignKey(Room, related_name="keepsakes", on_delete=models.CASCADE)
    game_no = models.IntegerField()
    game = models.CharField(max_length=32)
    at = models.BigIntegerField()                  # wall ms of the game's end
    data = models.JSONField(default=dict)

    class Meta:
        ordering = ["-game_no"]
        constraints = [models.UniqueConstraint(fields=["room", "game_no"], name="keepsake_game_unique")]


class KeepsakePicture(models.Model):
    """A keepsake's drawing made into a picture (partyhub/keepsakes/renders.py): made on its
    first request, then served from here by every process; it goes with its keepsake (a room
    keeps its last few) and so with its room."""
    keepsake = models.ForeignKey(Keepsake, related_name="pictures", on_delete=models.CASCADE)
    n = models.IntegerField()                      # the drawing, in the keepsake's order
    kind = models.CharField(max_length=3)          # png | gif
    size = models.IntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["keepsake", "n", "kind"], name="keepsake_picture_unique")]


class KeepsakeLink(models.Model):
    """The host's share link of a room's gallery: whoever has it may look (read only). One
    per room; revoking deletes it, and a new one has a new key."""
    room = models.OneToOneField(Room, related_name="keepsake_link", on_delete=models.CASCADE)
    key_hash = models.CharField(max_length=64)
    created_at = models.BigIntegerField()
