"""`make run`: print where to go (with a terminal QR code), then serve with daphne
(partyhub.edge: daphne with request bodies bounded by path)."""
import os
import sys

import django
import segno


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    django.setup()
    from django.conf import settings

    from partyhub.rooms import net
    base = net.public_base()
    print("\n  partyhub is running.\n")
    print(f"  TV:     open {base}/ on the TV (or this laptop) and press New room")
    print(f"  Phones: scan the room's QR code on the TV, or open {base}/j/<CODE>\n")
    segno.make(f"{base}/", error="m").terminal(compact=True, border=2)
    print(f"\n  (the QR code above opens the TV page: {base}/)\n", flush=True)
    args = ["partyhub.edge", "-b", os.environ.get("HOST", "0.0.0.0"), "-p", str(settings.PORT),
            "--proxy-headers", "partyhub.asgi:application"]
    os.execvp(sys.executable, [sys.executable, "-m"] + args)


if __name__ == "__main__":
    main()
