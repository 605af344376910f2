"""Bots at a table that plays with its own photos (partyhub/rooms/domain/photos.py): a photo card has no
title or objects, so a bot treats it neutrally. The storyteller tells about a card of the shipped
deck when its hand has one, and gives a chance clue for a photo when it has nothing else; a
player puts down and votes at random among photos (no card fits the clue better)."""
import copy
import random

from partyhub import bots
from partyhub.decks import sense

from association_helpers import new_game, ok
from test_association_bot_sense import view_of

PHOTOS = [f"u0123456789-{n:03d}" for n in range(1, 30)]


def with_photo_hands(state, keep_one_shipped=False):
    s = copy.deepcopy(state)
    for i, seat in enumerate(s["seats"]):
        hand = PHOTOS[i * 6:(i + 1) * 6]
        s["hands"][seat] = hand[:5] + s["hands"][seat][:1] if keep_one_shipped else hand
    return s


def test_a_storyteller_tells_about_its_shipped_card_rather_than_a_photo():
    for seed in range(10):
        s = with_photo_hands(new_game(4, seed=seed), keep_one_shipped=True)
        teller = s["seats"][s["teller"]]
        action = bots.next_action(view_of(s, teller), random.Random(seed))
        assert action["type"] == "tell" and not action["card"].startswith("u")
        ok(s, teller, action)


def test_with_only_photos_every_bot_still_tells_puts_down_and_votes():
    for seed in range(10):
        s = with_photo_hands(new_game(4, seed=seed))
        assert all(sense.tags(c) == frozenset() for c in PHOTOS)
        teller = s["seats"][s["teller"]]
        rnd = random.Random(seed)
        action = bots.next_action(view_of(s, teller), rnd)
        assert action["type"] == "tell" and action["card"] in PHOTOS and action["clue"]
        s = ok(s, teller, action)
        for seat in s["seats"]:
            if seat != teller:
                a = bots.next_action(view_of(s, seat), rnd)
                assert a["type"] == "submit" and a["card"] in PHOTOS
                s = ok(s, seat, a)
        for seat in s["seats"]:
            if seat != teller:
                a = bots.next_action(view_of(s, seat), rnd)
                assert a["type"] == "vote"
                s = ok(s, seat, a)
        assert s["phase"] != "vote"
