import asyncio

from django.conf import settings
from django.core.management.base import BaseCommand

from partyhub.bots import client
from partyhub.rooms.core import botpass


class Command(BaseCommand):
    help = "Join N bot players to a room; they play any game through the public protocol."

    def add_arguments(self, parser):
        parser.add_argument("code")
        parser.add_argument("--count", type=int, default=1)
        parser.add_argument("--url", default=settings.INTERNAL_URL, help="the server's base URL")
        parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5),
                            metavar=("MIN", "MAX"), help="seconds a bot waits before acting")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--as-people", action="store_true",
                            help="join unflagged (for a server with another SECRET_KEY)")

    def handle(self, code, count, url, think, seed, as_people=False, **_):
        # the server's own bots show its pass (same SECRET_KEY): flagged as bots, never VIP
        pass_ = None if as_people else botpass.for_room(code)

        async def main():
            results = await asyncio.gather(*(
                client.run(url.rstrip("/"), code.upper(), None if seed is None else seed + i, tuple(think),
                         pass_)
                for i in range(count)), return_exceptions=True)
            for r in results:
                self.stdout.write(f"bot: {r}")
        asyncio.run(main())
