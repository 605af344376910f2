"""The one guarded way into a game's rules: every call the platform makes into games/* (apply,
stream, on_deadline, advance, absorb, view, actions, scores, deadline, progress, the audience
hooks, and a deal's setup, begin, check, outcome, keepsake) goes through `_guarded`, so that
a rules object that raises is logged for the game's authors and refused (a `Rejected` for a
decision, a neutral value for a read), never a stuck room or a dead socket.
Rules refuse by returning Rejected; raising is a bug in the game."""
from __future__ import annotations

import logging

from partyhub.gamekit import Rejected
from partyhub.rooms.core.errors import fail

log = logging.getLogger(__name__)
REFUSED = Rejected("bad_action", "That action is malformed.")
_RAISED = object()
ACTED = frozenset({"apply", "stream"})     # calls whose third argument is a seat's action


def _guarded(game, name: str, args: tuple, fallback, shape=None):
    """`game.<name>(*args)`, through `shape` (inside the guard: a lazy result raises there);
    `fallback` when the rules raise. The one place a game's exception is caught."""
    try:
        out = getattr(game, name)(*args)
        return out if shape is None else shape(out)
    except Exception:
        what = repr(args[2])[:300] if name in ACTED else ""     # the action, not a voter's entries
        log.warning("game rules raised: %s.%s(%s)", getattr(game, "id", "?"), name, what, exc_info=True)
        return fallback


def rules_call(game, name: str, *args):
    """A decision of the rules (apply, stream, on_deadline, advance, audience_check): what
    they return, or `bad_action` when they raise (the room is not changed)."""
    return _guarded(game, name, args, REFUSED)


def decided(game, name: str, *args):
    """A step of a write the rules must take (setup, begin, check, outcome, keepsake): what
    they return; when they raise, the write is refused as `bad_action` (ServiceError: the
    transaction rolls back, the room is unchanged, the socket gets an error frame)."""
    out = _guarded(game, name, args, _RAISED)
    if out is _RAISED:
        raise fail("bad_action", REFUSED.message)
    return out


def scores(game, state) -> dict:
    """The seats' scores; none when the rules raise (every view shows the scores)."""
    return _guarded(game, "scores", (state,), {})


def deadline(game, state):
    """The game clock's time its timer falls due; None (no timer) when the rules raise."""
    return _guarded(game, "deadline", (state,), None)


def can_advance(game, state) -> bool:
    """Whether a host-paced phase may be ended now; False when the rules raise."""
    return hasattr(game, "can_advance") and bool(_guarded(game, "can_advance", (state,), False))


def view(game, state, viewer):
    """The game's view for `viewer`; None (no game view) when the rules raise."""
    return _guarded(game, "view", (state, viewer), None)


def actions(game, state, viewer) -> list:
    """The viewer's legal actions; none when the rules raise."""
    return _guarded(game, "actions", (state, viewer), [], list)


def audience_actions(game, state) -> list:
    return _guarded(game, "audience_actions", (state,), [], list)


def audience_ballot(game, state):
    """The key of the ballot open in `state`; None when the rules raise."""
    return _guarded(game, "audience_ballot", (state,), None)


def audience_summary(game, state, entries) -> dict:
    return _guarded(game, "audience_summary", (state, entries), {})


def audience_close(game, state, key, entries):
    """The state with the ballot's entries folded in; None when the rules raise (the caller
    keeps the state as it was)."""
    return _guarded(game, "audience_close", (state, key, entries), None)


def stream_many(game, state, items, now):
    """The verdicts on [(seat, action)] in one call; None when the rules raise or give a
    list of another length (then each item is judged alone)."""
    out = _guarded(game, "stream_many", (state, items, now), None)
    if out is not None and not (isinstance(out, list) and len(out) == len(items)):
        log.warning("%s.stream_many gave %r for %d items", game.id, type(out), len(items))
        return None
    return out


def absorb(game, state, items):
    """The state with the stored stream items folded in; None when the rules raise (the
    caller keeps the state and the items as they are)."""
    return _guarded(game, "absorb", (state, items), None)


def progress(game, state):
    """The game's public progress summary; None when it has none or the rules raise."""
    return _guarded(game, "progress", (state,), None) if hasattr(game, "progress") else None
