"""A started game with an uploaded deck plays on with the disk and the settings sealed off:
its views, legal actions, actions and timers, and its replay from the logged start, read
nothing but the state (the deck came in as data when the room service started the game)."""
import builtins
import dataclasses
import io
import os

import pytest
from PIL import Image

from partyhub.decks import custom as upload
from partyhub.decks import pictures, uploads
from partyhub.gamekit import AUDIENCE, TABLE, Accepted, timed
from partyhub.rooms.access import selectors
from partyhub.rooms.gateway import registry
from partyhub.rooms.models import Event
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, tv

pytestmark = pytest.mark.django_db(transaction=True)


class Sealed(Exception):
    pass


class SealedSettings:
    def __getattr__(self, name):
        raise Sealed(f"settings.{name} read by the rules")


def _refuse(what):
    def refuse(*args, **kwargs):
        raise Sealed(f"{what}{args[:1]} by the rules")
    return refuse


@pytest.fixture
def seal(monkeypatch):
    """A context in which opening, listing or stat-ing a file, or reading a setting, raises."""
    def sealed():
        m = monkeypatch.context()
        ctx = m.__enter__()
        for mod, name in ((builtins, "open"), (io, "open"), (os, "open"), (os, "stat"),
                          (os, "listdir"), (os, "scandir")):
            ctx.setattr(mod, name, _refuse(f"{mod.__name__}.{name}"))
        ctx.setattr("django.conf.settings", SealedSettings())
        return m
    return sealed


def uploaded_deck(code, host, cards):
    buf = io.BytesIO()
    Image.new("RGB", (4, 6), (10, 120, 200)).save(buf, "PNG")
    small = dataclasses.replace(uploads.limits(), size=(4, 6))
    made = upload.store("Sealed", [pictures.reencode(buf.getvalue(), small) for _ in range(cards)],
                        selectors.room_get(code).host)
    return made["deck"]


def play(game, state, steps):
    """Every viewer's view and actions, then one action (or the timer), `steps` times."""
    seen = 0
    for _ in range(steps):
        for viewer in (*state["seats"], TABLE, AUDIENCE):
            game.view(state, viewer)
            game.actions(state, viewer)
            seen += 1
        moves = [(s, a) for s in state["seats"] for a in game.actions(state, s)]
        if moves:
            seat, action = moves[0]
            result = game.apply(state, seat, {k: ("x" if v is None else v) for k, v in action.items()},
                                10_000)
        elif game.deadline(state) is not None:
            result = game.on_deadline(state, game.deadline(state))
        else:
            break
        assert isinstance(result, Accepted), result
        state = result.state
    return state, seen


@pytest.mark.parametrize("game_id, cards, players", [("association", 30, 4), ("jinx", 7, 3)])
def test_a_started_game_plays_and_replays_with_the_disk_and_settings_sealed(
        settings, tmp_path, monkeypatch, seal, game_id, cards, players):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    code, host, _ = make_room(players)
    deck_id = uploaded_deck(code, host, cards)
    services.room_apply(code, tv(), None, {"type": "start", "game": game_id,
                                           "options": {"deck": deck_id}})
    room = selectors.room_get(code)
    game, state = registry.get(game_id), room.state
    logged = Event.objects.get(room__code=code, type="game_started")
    started = logged.data
    assert started["options"]["_deck"]["id"] == deck_id
    assert "_deck" not in room.options and "_deck" not in state["options"]

    m = seal()
    try:
        with pytest.raises(Sealed):           # the seal holds
            open(tmp_path / "x", "rb")
        replayed = game.setup(started["seats"], timed(game.options, started["options"],
                                                      started["timer_factor"]), state["seed"])
        if hasattr(game, "begin"):
            replayed = game.begin(replayed, logged.at)     # the game clock of the deal (timers on)
        played, seen = play(game, state, steps=40)
    finally:
        m.__exit__(None, None, None)
    assert replayed == state
    assert seen >= 40 * (players + 2) or game.outcome(played) is not None
    if game_id == "association":
        assert game.view(state, TABLE)["deck"] == {"name": deck_id,
                                                   "image": f"/decks/{deck_id}/{{id}}.webp"}
    else:
        faces = [f for card in state["cards"] for f in card]
        assert faces[:cards] == [f"{deck_id}-{n:03d}" for n in range(1, cards + 1)]
