from django.core.management.base import BaseCommand, CommandError

from partyhub.decks import custom
from partyhub.rooms.core.errors import ServiceError


class Command(BaseCommand):
    help = ("The server admin's view of every uploaded deck (docs/protocol.md \"Whose decks\"): "
            "`decks list` (id, cards, size, owner, hosts shared with, name) and "
            "`decks delete <deck>...`.")

    def add_arguments(self, parser):
        parser.add_argument("what", choices=["list", "delete"])
        parser.add_argument("ids", nargs="*", help="the decks to delete")

    def handle(self, what, ids, **_):
        if what == "list":
            for d in custom.listing("", staff=True):
                self.stdout.write(f"{d['id']}  {d['cards']:>3} cards  {d['bytes']:>10} B  "
                                  f"owner {d['owner'] or '-':<12}  shared {d['shared_with']}  {d['name']}")
            return
        if not ids:
            raise CommandError("name the decks to delete")
        for deck_id in ids:
            try:
                custom.delete(deck_id, "", staff=True)
            except ServiceError as e:
                raise CommandError(f"{deck_id}: {e.message}")
            self.stdout.write(f"deleted {deck_id}")
