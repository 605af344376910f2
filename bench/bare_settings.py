"""Minimal Django settings for the bare-Channels baseline (bench/bare_channels.py).

In-memory channel layer by default; Redis when BENCH_REDIS_URL is set: channels_redis's
default core layer (the issue's "bare Channels over Redis"), or with BENCH_LAYER=pubsub the
pub/sub layer partyhub runs on, so partyhub is also compared like for like.
"""
import os

SECRET_KEY = "bench-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS = ["channels"]
USE_TZ = True
ASGI_APPLICATION = "bench.bare_channels.application"
_redis = os.environ.get("BENCH_REDIS_URL", "")
if _redis and os.environ.get("BENCH_LAYER") == "pubsub":
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                  "CONFIG": {"hosts": [_redis]}}}
elif _redis:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                  "CONFIG": {"hosts": [_redis], "capacity": 1500, "expiry": 30}}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer",
                                  "CONFIG": {"capacity": 1500}}}
