import asyncio

from django.conf import settings
from django.core.management.base import BaseCommand

from partyhub import bots


class Command(BaseCommand):
    help = "Join N bot players to a room; they play any game through the public protocol."

    def add_arguments(self, parser):
        parser.add_argument("code")
        parser.add_argument("--count", type=int, default=1)
        parser.add_argument("--url", default=settings.INTERNAL_URL, help="the server's base URL")
        parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5),
                            metavar=("MIN", "MAX"), help="seconds a bot waits before acting")
        parser.add_argument("--seed", type=int, default=None)

    def handle(self, code, count, url, think, seed, **_):
        async def main():
            results = await asyncio.gather(*(
                bots.run(url.rstrip("/"), code.upper(), None if seed is None else seed + i, tuple(think))
                for i in range(count)), return_exceptions=True)
            for r in results:
                self.stdout.write(f"bot: {r}")
        asyncio.run(main())
