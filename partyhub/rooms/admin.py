from django.contrib import admin

from partyhub.rooms.models import Event, Room, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("name", "player_id", "color", "symbol", "playing", "connected", "kicked", "bot")
    readonly_fields = ("player_id", "connected")


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "phase", "game_id", "language", "version", "updated_at")
    list_filter = ("phase", "game_id", "language")
    search_fields = ("code",)
    readonly_fields = ("host_token_hash", "version", "state", "deadline_at")
    inlines = [SeatInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("room", "version", "game_no", "type", "seat", "at")
    list_filter = ("type",)
