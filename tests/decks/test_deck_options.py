"""What a game is given of the platform's decks: its deck option's choices (bound at
registration) and, at the start, the chosen deck as data; and the card files a request may name."""
import json
import pytest

from partyhub import decks
from partyhub.decks import options as deck_options
from partyhub.gamekit import DEFAULT_DECK, Option, clean_options
from partyhub.rooms.gateway import registry


def write_deck(root, deck_id, name, cards, created=1.0, owner="h1"):
    folder = root / "decks" / deck_id
    folder.mkdir(parents=True)
    ids = [f"{deck_id}-{n:03d}" for n in range(1, cards + 1)]
    manifest = {"name": name, "image": f"/decks/{deck_id}/{{id}}.webp", "created": created,
                "owner": owner, "cards": [{"id": i, "objects": []} for i in ids]}
    (folder / decks.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return ids


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.DATA_DIR = settings.MEDIA_ROOT = tmp_path
    return tmp_path


class Tiny:
    id, name, min_players, max_players = "tiny", "Tiny", 1, 2
    options = {"deck": Option(DEFAULT_DECK, deck=True), "rounds": Option(3, min=1, max=9)}


def test_the_registry_offers_a_games_deck_option_the_default_deck_and_a_hosts_own(data_dir):
    game = Tiny()
    assert Tiny.options["deck"].clean("anything") == "anything"     # unbound: only text
    deck_options.bind(game)
    deck_options.bind(game)                                          # twice: the same
    assert Tiny.options["deck"].choices is None, "the class's options were changed"
    assert game.options["rounds"] is Tiny.options["rounds"]
    assert registry.describe(game)["options"]["deck"] == {"default": "default",
                                                          "choices": ["default"], "labels": {}}
    write_deck(data_dir, "u00000000aa", "Ours", 3)
    assert registry.describe(game)["options"]["deck"]["choices"] == ["default"]   # anyone: none
    assert registry.describe(game, "h2")["options"]["deck"]["choices"] == ["default"]
    spec = registry.describe(game, "h1")["options"]["deck"]          # asked afresh each time
    assert spec["choices"] == ["default", "u00000000aa"] and spec["labels"] == {"u00000000aa": "Ours"}
    with pytest.raises(ValueError, match="deck: must be one of"):
        clean_options(game.options, {"deck": "u00000000aa"})
    assert clean_options(deck_options.scoped(game.options, "h1"), {"deck": "u00000000aa"})["deck"] \
        == "u00000000aa"


def test_every_registered_game_with_a_deck_option_has_it_bound():
    with_decks = [g.id for g in registry.listed() if deck_options.names_of(g.options)]
    assert with_decks == ["association", "jinx"]
    for game_id in with_decks:
        assert registry.get(game_id).options["deck"].choice_list() == decks.names() == ("default",)


def test_the_chosen_deck_is_handed_over_as_data_with_the_default_decks_other_cards(data_dir):
    ids = write_deck(data_dir, "u00000000aa", "Ours", 4)
    game = Tiny()
    deck_options.bind(game)
    given = deck_options.resolved(game.options, {"deck": "u00000000aa", "rounds": 3})
    assert list(given) == ["_deck"]
    deck = given["_deck"]
    assert deck == {"id": "u00000000aa", "name": "Ours", "image": "/decks/u00000000aa/{id}.webp",
                    "cards": ids, "spares": decks.card_ids(DEFAULT_DECK),
                    "families": {c["id"]: c["family"] for c in decks.cards(DEFAULT_DECK)},
                    "palettes": {c["id"]: c["palette"] for c in decks.cards(DEFAULT_DECK)}}
    default = deck_options.resolved(game.options, {"deck": DEFAULT_DECK})["_deck"]
    assert default["cards"] == decks.card_ids(DEFAULT_DECK) and default["spares"] == []
    assert default["image"] == decks.image_path(DEFAULT_DECK) and default["name"] == "default"
    assert set(default["families"]) == set(default["cards"])     # the deal keeps hands varied
    json.dumps(given)                                                 # plain data: it is logged


def test_a_deck_gone_between_the_check_and_the_start_is_a_bad_option(data_dir):
    with pytest.raises(ValueError, match="deck: no deck 'u00000000cc'"):
        deck_options.resolved(Tiny.options, {"deck": "u00000000cc"})
    assert deck_options.resolved({"rounds": Option(3)}, {"rounds": 3}) == {}


def test_only_a_well_formed_card_of_the_same_uploaded_deck_names_a_file(data_dir):
    assert decks.card_file("u00000000aa", "u00000000aa-001") == \
        data_dir / "decks" / "u00000000aa" / "u00000000aa-001.webp"
    for deck_id, card_id in (("u00000000aa", "u00000000bb-001"), ("u00000000aa", "a001"),
                             ("default", "a001"), ("../etc", "u00000000aa-001"),
                             ("u00000000aa", "u00000000aa-001/../x"), ("U00000000AA", "U00000000AA-001")):
        assert decks.card_file(deck_id, card_id) is None, (deck_id, card_id)


@pytest.mark.django_db(transaction=True)
def test_the_room_keeps_the_deck_id_and_only_setup_and_the_log_see_the_cards(data_dir):
    from partyhub.rooms.access import selectors
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Event
    from tests.rooms.helpers import make_room, tv
    code, host, _ = make_room(3)
    ids = write_deck(data_dir, "u00000000aa", "Ours", 21, owner=selectors.room_get(code).host)
    services.room_apply(code, tv(), None, {"type": "start", "game": "association",
                                           "options": {"deck": "u00000000aa", "_deck": {"cards": []}}})
    services.room_apply(code, tv(), None, {"type": "again"})          # resolved afresh
    room = selectors.room_get(code)
    assert room.options["deck"] == "u00000000aa" and "_deck" not in room.options
    assert "_deck" not in room.state["options"]
    assert sorted(room.state["draw"] + [c for h in room.state["hands"].values() for c in h]) == ids
    logged = [e.data["options"]["_deck"] for e in Event.objects.filter(room__code=code,
                                                                       type="game_started")]
    assert len(logged) == 2 and all(d["cards"] == ids and d["name"] == "Ours" for d in logged)
