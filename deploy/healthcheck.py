"""Docker HEALTHCHECK: exit 0 when GET /healthz answers 200 (database and channel layer up)."""
import os
import sys
import urllib.request

url = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/healthz"
try:
    with urllib.request.urlopen(url, timeout=4) as response:
        sys.exit(0 if response.status == 200 else 1)
except Exception as e:  # HTTPError (503), refused, timeout: all mean unhealthy
    print(f"unhealthy: {url}: {e}", file=sys.stderr)
    sys.exit(1)
