"""Live: after a commit: publish to sockets, the timekeeper's ticks and heals, the watcher counts."""
