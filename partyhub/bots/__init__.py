"""Bots: players that choose among their view's actions, as a phone could. `choice` chooses
(pure), `turn` is the loop of choosing again when refused that every bot client runs (the
lobby's bots, the stand-in, the crash tests' clients), `client` joins and plays over a socket.
The package's own names are the choice's: the stand-in, inside the write path, reaches them
without the client (pyproject.toml's contracts keep it so)."""
from partyhub.bots.choice import (WORDS, choose, never_played, next_action, offered_actions,  # noqa: F401
                                  offered_key, strategy, stream_moves)
