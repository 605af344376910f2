from django.core.management.base import BaseCommand

from partyhub.rooms.timers import clock
from partyhub.rooms.write import lifecycle


class Command(BaseCommand):
    help = ("Close the rooms idle for PARTYHUB_ROOM_IDLE_SECONDS and delete the rooms closed for "
            "PARTYHUB_ROOM_RETENTION_DAYS (rows of the room, its seats, events and stream items). "
            "The timekeeper of a running server does the same in small batches.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true",
                            help="only count what would be closed and deleted")

    def handle(self, dry_run, **_):
        now = clock.wall_ms()
        if dry_run:
            idle = lifecycle.idle_codes(now, limit=None)
            due = lifecycle.Purged()
            for room_id in lifecycle.due_ids(now, limit=None):
                due.add(lifecycle.count(room_id))
            self.stdout.write(f"would close {len(idle)} idle rooms; would delete {due.rooms} closed "
                              f"rooms ({due.seats} seats, {due.events} events, "
                              f"{due.stream_items} stream items, {due.keepsakes} keepsakes)")
            return
        closed = lifecycle.close_idle(now, limit=None)
        gone = lifecycle.purge(now, limit=None)
        self.stdout.write(f"closed {closed} idle rooms; deleted {gone.rooms} closed rooms "
                          f"({gone.seats} seats, {gone.events} events, {gone.stream_items} stream items, "
                          f"{gone.keepsakes} keepsakes)")
