"""Relay: the paths that skip the row lock (stroke streams, audience acts) and the fan-out to sockets."""
