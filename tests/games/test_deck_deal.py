"""The deal never repeats a scene family in one hand, one table or one jinx grid (issue 28).

The shipped deck tells each card's family (partyhub.decks.resolve: "families"); association
deals and refills hands from it, jinx fills its square from it."""
import random
import sys
from pathlib import Path

import pytest

from partyhub import decks

from games.association.rules import turn as as_turn
from games.jinx.rules import turn as jx_turn
from games.jinx.rules.deck import GRID

sys.path[:0] = [str(Path(__file__).parent / "association"), str(Path(__file__).parent / "jinx")]
import association_helpers as ash  # noqa: E402
import jinx_helpers as jxh  # noqa: E402

FAMILY = {c["id"]: c["family"] for c in decks.cards(decks.DEFAULT)}
PALETTE = {c["id"]: c["palette"] for c in decks.cards(decks.DEFAULT)}


def distinct(cards) -> bool:
    fams = [FAMILY[c] for c in cards]
    return len(fams) == len(set(fams))


def test_the_shipped_deck_tells_the_families_to_the_games():
    deck = decks.resolve(decks.DEFAULT)
    assert deck["families"] == FAMILY and len(set(FAMILY.values())) >= 15


@pytest.mark.parametrize("players", [3, 4, 6, 8, 12])
def test_no_association_hand_repeats_a_family_through_a_whole_game(players):
    for seed in range(6):
        state = ash.new_game(players=players, seed=seed)
        r = random.Random(seed)
        for _ in range(60):
            for seat, hand in state["hands"].items():
                assert distinct(hand), (seed, seat, hand)
            if state["phase"] == "over" or not state["draw"]:
                break
            for seat in state["seats"]:           # every hand puts a card on the table
                card = r.choice(state["hands"][seat])
                state["hands"][seat].remove(card)
                state["table"].append(card)
            as_turn.end_turn(state, ash.T, [])


def test_an_association_table_of_three_never_repeats_a_family():
    """Hands of up to three players are dealt from families no other hand holds, so any
    table (one card from each hand) shows three families; larger tables repeat as rarely
    as the deck allows (each family in as few hands as it can be)."""
    for seed in range(20):
        state = ash.new_game(players=3, seed=seed)
        held = [FAMILY[c] for hand in state["hands"].values() for c in hand]
        assert len(held) == len(set(held)), seed


def test_a_twelve_player_deal_spreads_each_family_over_few_hands():
    state = ash.new_game(players=12, seed=3)
    count: dict = {}
    for hand in state["hands"].values():
        for c in hand:
            count[FAMILY[c]] = count.get(FAMILY[c], 0) + 1
    assert max(count.values()) <= -(-12 * as_turn.HAND // len(set(FAMILY.values()))) + 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_jinx_grid_repeats_a_family(players):
    for seed in range(8):
        state = jxh.new_game(n=players, seed=seed)
        r = random.Random(seed)
        while True:
            shown = [f for f in state["grid"] if f is not None]
            assert len(shown) == GRID
            if players < 6 or len(state["deck"]) >= GRID:   # six players have no box to swap with
                assert distinct(shown), (seed, shown)
            for slot in r.sample(range(GRID), r.randint(1, 4)):   # found cards leave the square
                state["grid"][slot] = None
            if not jx_turn.refill_into(state):
                break


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_new_jinx_square_shows_nine_palettes_too(players):
    """Nine cards told apart at a glance from across the room: other scenes, other light."""
    for seed in range(25):
        grid = jxh.new_game(n=players, seed=seed)["grid"]
        assert len({PALETTE[f] for f in grid}) == GRID, (seed, [PALETTE[f] for f in grid])


def test_a_deck_without_families_deals_as_before():
    deck = {"id": "u0000000000", "name": "x", "image": "{id}", "spares": [],
            "cards": [f"u0000000000-{i:03d}" for i in range(160)]}
    state = as_turn.setup(ash.SEATS[:4], {"_deck": deck}, 7)
    assert state["families"] == {} and sum(len(h) for h in state["hands"].values()) == 24
