"""A test-only Django app for the jinx race test: it records, in the server process, the order in
which the consumers received `pick` frames (before the room lock or the database is touched).

Loaded with PARTYHUB_EXTRA_APPS=...,tests.games.jinx.race_probe.ProbeConfig; lines go to the file
named by JINX_PROBE_FILE: {"ns": perf_counter_ns, "ref": action id, "player": id, "slot": n}.
"""
import json
import os
import time
from pathlib import Path

from django.apps import AppConfig


class ProbeConfig(AppConfig):
    name = "tests.games.jinx.race_probe"
    label = "jinx_race_probe"
    path = str(Path(__file__).resolve().parent)

    def ready(self):
        from partyhub.rooms.transport.consumers import RoomConsumer

        target = os.environ.get("JINX_PROBE_FILE")
        if not target or getattr(RoomConsumer, "_jinx_probe", False):
            return
        original = RoomConsumer.receive
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)

        async def receive(self, text_data=None, bytes_data=None):
            ns = time.perf_counter_ns()
            if text_data and '"pick"' in text_data:
                try:
                    f = json.loads(text_data)
                    seat = self.actor.seat.player_id if self.actor and self.actor.seat else None
                    line = json.dumps({"ns": ns, "ref": f.get("id"), "player": seat,
                                       "slot": f["d"].get("slot")}) + "\n"
                    os.write(fd, line.encode())
                except (ValueError, KeyError, TypeError, AttributeError):
                    pass
            return await original(self, text_data, bytes_data)

        RoomConsumer.receive = receive
        RoomConsumer._jinx_probe = True
