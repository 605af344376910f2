"""The lobby's chosen game and options are room state (`choose`): one set, the same on the TV
and every VIP phone, dealt by `start` without options. Any option may take any allowed value
in any room language (the sketch word language English in a Ukrainian room)."""
import json

import pytest

from partyhub.gamekit import TABLE
from partyhub.rooms.core import schema
from partyhub.rooms.core.errors import ServiceError as ActionError
from partyhub.rooms.domain import roomactions
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room, player, room, tv

pytestmark = pytest.mark.django_db
T0 = 1_900_000_000_000


def act(code, d, actor=None, now=T0):
    return services.room_apply(code, actor or tv(), None, d, now=now)


def shown(code):
    return viewmodel.room_part(room(code), [], "")["chosen"]


def test_a_choice_of_the_tv_is_room_state_shown_in_the_view():
    code, _, _ = make_room(3)
    assert shown(code) is None
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 6}})
    assert shown(code) == {"game": "association", "options": {"target_score": 6}}


def test_the_vip_and_the_tv_change_the_same_set_and_start_without_options_deals_it():
    code, _, seats = make_room(3)
    vip = next(s for s in seats if s.player_id == room(code).vip)
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 6}})
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 6, "tell_seconds": 90}},
        actor=player(vip))
    assert shown(code)["options"] == {"target_score": 6, "tell_seconds": 90}
    change = act(code, {"type": "start", "game": "association"}, actor=player(vip))
    assert change.room.options["target_score"] == 6 and change.room.options["tell_seconds"] == 90


def test_a_player_who_is_not_vip_cannot_choose():
    code, _, seats = make_room(3)
    other = next(s for s in seats if s.player_id != room(code).vip)
    with pytest.raises(ActionError) as e:
        act(code, {"type": "choose", "game": "association", "options": {}}, actor=player(other))
    assert e.value.code == "not_allowed"
    assert shown(code) is None


@pytest.mark.parametrize("d, code_", [
    ({"type": "choose", "game": "nope", "options": {}}, "unknown_game"),
    ({"type": "choose", "game": "association", "options": {"target_score": 10_000}}, "bad_options"),
    ({"type": "choose", "game": "association", "options": {"no_such": 1}}, "bad_options"),
    ({"type": "choose", "game": "sketch", "options": {"language": "xx"}}, "bad_options"),
])
def test_a_bad_choice_is_refused_and_changes_nothing(d, code_):
    code, _, _ = make_room(3)
    act(code, {"type": "choose", "game": "sketch", "options": {"language": "en"}})
    with pytest.raises(ActionError) as e:
        act(code, d)
    assert e.value.code == code_
    assert shown(code) == {"game": "sketch", "options": {"language": "en"}}


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_english_words_can_be_chosen_in_a_ukrainian_or_russian_room(lang):
    code, _, _ = make_room(3, language=lang)
    act(code, {"type": "choose", "game": "sketch", "options": {"language": "en"}})
    assert act(code, {"type": "start", "game": "sketch"}).room.options["language"] == "en"


def test_an_unset_language_follows_the_room_and_another_game_starts_with_its_defaults():
    code, _, _ = make_room(3, language="uk")
    act(code, {"type": "choose", "game": "sketch", "options": {}})
    assert act(code, {"type": "start", "game": "sketch"}).room.options["language"] == "uk"
    act(code, {"type": "end"}, now=T0 + 1)
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 6}}, now=T0 + 2)
    change = act(code, {"type": "start", "game": "sketch"}, now=T0 + 3)
    assert change.room.options["language"] == "uk"


def test_choose_is_refused_while_a_game_runs_and_is_offered_in_the_lobby():
    code, _, _ = make_room(3)
    acts = viewmodel.room_actions(room(code), [], "tv", None)
    assert any(a["type"] == "choose" for a in acts)
    act(code, {"type": "start", "game": "association"})
    with pytest.raises(ActionError) as e:
        act(code, {"type": "choose", "game": "association", "options": {}})
    assert e.value.code == "bad_action"
    assert "choose" in schema.SCHEMA and "choose" in roomactions.HANDLERS


def test_options_the_host_set_come_back_when_that_game_is_picked_again_in_the_room():
    """Issue 27: the host's options for a game are kept for the next time it is picked in the
    same room (server side: a reload, another phone or the TV see them)."""
    code, _, seats = make_room(3)
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 12, "reveal_seconds": 30}})
    act(code, {"type": "choose", "game": "jinx", "options": {}})      # the picker switches with {}
    assert shown(code) == {"game": "jinx", "options": {}}
    act(code, {"type": "choose", "game": "jinx", "options": {"next_turn_seconds": 15}})
    act(code, {"type": "choose", "game": "association", "options": {}})
    assert shown(code) == {"game": "association", "options": {"target_score": 12, "reveal_seconds": 30}}
    # the same game chosen with fewer options: the host put one back to its default
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 12}})
    act(code, {"type": "choose", "game": "jinx", "options": {}})
    assert shown(code) == {"game": "jinx", "options": {"next_turn_seconds": 15}}
    # a game is started and ended: the lobby still has them, and so does `start` without options
    change = act(code, {"type": "start", "game": "jinx"})
    assert change.room.options["next_turn_seconds"] == 15
    act(code, {"type": "end"})
    act(code, {"type": "choose", "game": "association", "options": {}})
    assert shown(code)["options"] == {"target_score": 12}
    # another room knows nothing of them
    other, _, _ = make_room(3)
    act(other, {"type": "choose", "game": "association", "options": {}})
    assert shown(other) == {"game": "association", "options": {}}


def test_a_kept_option_no_longer_allowed_is_dropped_and_picking_the_game_still_works():
    code, _, _ = make_room(3)
    act(code, {"type": "choose", "game": "association", "options": {"target_score": 12}})
    r = room(code)
    from partyhub.rooms.models import Room
    Room.objects.filter(code=code).update(settings={**r.settings, "kept": {
        "association": {"target_score": 12, "deck": "gone-deck", "no_such": 1}}, "chosen": None})
    act(code, {"type": "choose", "game": "association", "options": {}})
    assert shown(code) == {"game": "association", "options": {"target_score": 12}}


def test_a_custom_word_list_stays_with_the_room_and_reaches_no_view_while_the_game_runs():
    """Sketch deals its cards from the host's list: every frame of the game carried the list
    (`room.options.words`), the words the other players draw among them, to every socket."""
    code, _, seats = make_room(4)
    words = [f"{w}{k}" for k in range(10, 22) for w in ("lantern", "teapot", "compass", "kettle")]
    act(code, {"type": "start", "game": "sketch", "options": {"words": "\n".join(words), "round_seconds": 60}})
    r = room(code)
    assert r.options["words"] == "\n".join(words)        # kept for `again` and the log
    out = viewmodel.viewer_frames(r, list(r.seats.all()), "")
    assert len(out) == 6                                  # the TV, four players, the audience
    for viewer, text in out.items():
        view = json.loads(text)["d"]
        assert "words" not in view["room"]["options"] and view["room"]["options"]["round_seconds"] == 60
        own = {w for card in ((view["game"].get("you") or {}).get("cards") or []) for w in card}
        assert not [w for w in words if w not in own and w in text], viewer
    act(code, {"type": "again"})
    assert room(code).options["words"] == "\n".join(words)


def test_before_and_after_a_game_only_the_tv_and_the_vip_are_shown_the_custom_word_list():
    """The lobby's choice (`room.chosen`) is shown whenever no game runs: the TV and
    the VIP's phone edit it, so they get the list; every other phone and the audience get the
    choice without it (the words the next deal puts on their cards)."""
    code, _, seats = make_room(4)
    words = [f"{w}{k}" for k in range(10, 16) for w in ("lantern", "teapot", "compass")]
    act(code, {"type": "choose", "game": "sketch", "options": {"words": "\n".join(words), "round_seconds": 60}})

    def check():
        r = room(code)
        out = viewmodel.viewer_frames(r, list(r.seats.all()), "")
        assert len(out) == 6                              # the TV, four players, the audience
        for viewer, text in out.items():
            chosen = json.loads(text)["d"]["room"]["chosen"]
            assert chosen["game"] == "sketch" and chosen["options"]["round_seconds"] == 60, viewer
            if viewer in (TABLE, r.vip):
                assert chosen["options"]["words"] == "\n".join(words), viewer
            else:
                assert "words" not in chosen["options"], viewer
                assert not [w for w in words if w in text], viewer
        return r.phase

    assert check() == "lobby"
    act(code, {"type": "start", "game": "sketch"})
    act(code, {"type": "end"})          # back in the lobby, the same choice for the next game
    assert check() == "lobby"


def test_a_choice_without_free_text_is_the_same_in_every_view():
    code, _, _ = make_room(3)
    act(code, {"type": "choose", "game": "sketch", "options": {"round_seconds": 60}})
    r = room(code)
    chosen = {json.dumps(json.loads(text)["d"]["room"]["chosen"])
              for text in viewmodel.viewer_frames(r, list(r.seats.all()), "").values()}
    assert chosen == {json.dumps({"game": "sketch", "options": {"round_seconds": 60}})}
