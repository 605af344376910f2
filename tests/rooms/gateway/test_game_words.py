"""Issue 27, item 10: a game whose words have a language of their own (klepka: Ukrainian,
whatever the room's language) says so in the game list, so the lobby's tile can tell the host
before the game starts (frontend/static/common/picker.js: .gwords)."""
from partyhub.rooms.gateway import registry


def test_klepka_says_its_words_are_ukrainian_and_the_other_games_have_none_of_their_own():
    words = {g["id"]: g["words_language"] for g in registry.described()}
    assert words["klepka"] == "uk"
    assert {words[g] for g in ("association", "jinx", "sketch")} == {None}
