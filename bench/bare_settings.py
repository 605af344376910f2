"""Minimal Django settings for the bare-Channels baseline (bench/bare_channels.py).

In-memory channel layer by default; Redis when BENCH_REDIS_URL is set (same capacity and
expiry as partyhub's settings, so the two are compared like for like).
"""
import os

SECRET_KEY = "bench-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS = ["channels"]
USE_TZ = True
ASGI_APPLICATION = "bench.bare_channels.application"
_redis = os.environ.get("BENCH_REDIS_URL", "")
if _redis:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                  "CONFIG": {"hosts": [_redis], "capacity": 1500, "expiry": 30}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer",
                                  "CONFIG": {"capacity": 1500}}}
