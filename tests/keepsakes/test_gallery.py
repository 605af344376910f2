"""The gallery page shows each game's keepsake in the room's language: sketch's drawings,
association's turns, jinx's won cards, klepka's words, each with the players' names; and a
room keeps only its last few games (partyhub/keepsakes/gallery.py)."""
import pytest

from partyhub.decks import deckpass
from partyhub.keepsakes import gallery
from partyhub.rooms.access.familymode import PLACEHOLDER
from partyhub.rooms.models import Keepsake, Room
from partyhub.rooms.store import store
from partyhub.rooms.write import services
from tests.keepsakes.test_access import gallery_url, played
from tests.rooms.helpers import make_room, player, start_count, tv

pytestmark = pytest.mark.django_db


def kept(code, game, data, game_no=1):
    room = Room.objects.get(code=code)
    Keepsake.objects.create(room=room, game_no=game_no, game=game, at=1_764_000_000_000,
                            data={"scores": {}, "winners": [], **data})
    return room


def page(client, code, seat):
    r = client.get(gallery_url(client, code, seat.token))
    assert r.status_code == 200
    return r.content.decode()


def test_association_shows_each_turn_with_its_clue_teller_card_and_finders(client):
    code, _, seats = make_room(3)
    a, b, c = (s.player_id for s in seats)
    kept(code, "association", {"image": "/decks/u0123456789/{id}.webp", "turns": [
        {"turn": 1, "storyteller": a, "clue": "A quiet sea", "story_card": "u0123456789-004",
         "found": [b, c], "fooled": []},
        {"turn": 2, "storyteller": b, "clue": "", "story_card": "u0123456789-007", "found": [], "fooled": []}]})
    html = page(client, code, seats[0])
    room = Room.objects.get(code=code)
    assert "“A quiet sea”" in html and deckpass.url(room, "u0123456789-004").replace("&", "&amp;") in html
    assert "told by P1" in html and "found by P2, P3" in html
    assert "(said aloud)" in html and "nobody found it" in html


def test_jinx_shows_each_players_won_cards_most_first(client):
    code, _, seats = make_room(3)
    a, b, _ = (s.player_id for s in seats)
    kept(code, "jinx", {"cards": {a: ["a001"], b: ["f017", "u0123456789-002"]}})
    html = page(client, code, seats[0])
    assert html.index('keep-name">P2') < html.index('keep-name">P1')
    assert "2 cards" in html and "1 card<" in html
    assert "/static/games/association/cards/a001.webp" in html
    card = deckpass.url(Room.objects.get(code=code), "u0123456789-002")
    assert card.startswith(f"/r/{code}/cards/u0123456789-002.webp?p=") and card in html and ">f017<" in html


def test_klepka_shows_the_words_made_with_their_points_and_makers(client):
    code, _, seats = make_room(2, "uk")
    a, b = (s.player_id for s in seats)
    kept(code, "klepka", {"words": [{"seat": a, "word": "КІТ", "points": 3, "double": False, "turn": 1},
                                    {"seat": b, "word": "СЛАВА", "points": 10, "double": True, "turn": 2}]})
    html = page(client, code, seats[1])
    assert "Галерея кімнати" in html and "Клепка" in html      # the room's language
    assert "КІТ" in html and "СЛАВА" in html and "×2" in html
    assert html.index("КІТ") < html.index("СЛАВА")


def test_sketch_shows_word_drawer_guessers_and_both_downloads_in_russian(client):
    code, _, seats = make_room(3, "ru")
    a, b, c = (s.player_id for s in seats)
    kept(code, "sketch", {"drawings": [{"player": a, "board": 0, "word": "кот", "won_by": [b, c],
                                        "strokes": []}]})
    html = page(client, code, seats[2])
    assert "Галерея комнаты" in html and "автор: P1" in html and "угадали: P2, P3" in html
    assert 'download="sketch-1-1-кот.png"' in html and 'download="sketch-1-1-кот.gif"' in html


def test_an_unfinished_room_has_an_empty_gallery(client):
    code, _, seats = make_room(2)
    assert "No finished games yet" in page(client, code, seats[0])


def test_a_room_keeps_only_its_last_games(client):
    code, _, seats = make_room(2)
    start_count(code, target=3)
    for n in range(store.KEEPSAKES + 3):
        services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 3})
        services.room_apply(code, tv(), None, {"type": "again"})
    room = Room.objects.get(code=code)
    numbers = [k.game_no for k in gallery.keepsakes(room)]
    assert numbers == list(range(store.KEEPSAKES + 3, 3, -1))
    assert page(client, code, seats[0]).count('class="keep-game"') == store.KEEPSAKES


def test_a_game_ended_early_leaves_no_keepsake():
    code, _, seats = played()
    services.room_apply(code, tv(), None, {"type": "again"})
    services.room_apply(code, player(seats[0]), None, {"type": "add", "n": 1})
    services.room_apply(code, tv(), None, {"type": "end"})
    assert [k.game_no for k in gallery.keepsakes(Room.objects.get(code=code))] == [1]


def test_the_hosts_hidden_texts_are_hidden_in_the_gallery_and_its_share_link(client):
    code, host, seats = make_room(3)
    a, b, c = (s.player_id for s in seats)
    kept(code, "association", {"turns": [
        {"turn": 1, "storyteller": a, "clue": "A quiet sea", "story_card": "a004", "found": [b],
         "fooled": []}]})
    kept(code, "sketch", {"drawings": [{"player": a, "board": 0, "word": "rude word",
                                        "won_by": [b], "strokes": []}]}, game_no=2)
    kept(code, "klepka", {"words": [{"seat": a, "word": "СЛАВА", "points": 3, "double": False,
                                     "turn": 1}]}, game_no=3)
    for hidden in ["a quiet  SEA", "ru\u034fde word", "СЛ\u200bАВА"]:
        services.room_apply(code, tv(), None, {"type": "hide", "text": hidden})
    link = client.post(f"/api/rooms/{code}/keepsakes/share", data="{}", content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {host}").json()["url"]
    for html in (client.get(link).content.decode(), page(client, code, seats[1])):
        assert "quiet" not in html and "rude" not in html and "СЛАВА" not in html
        assert html.count(PLACEHOLDER) == 4             # the drawing's word is its alt text too
        assert 'download="sketch-2-1.png"' in html      # a file name without the word
        assert "told by P1" in html and "found by P2" in html      # the rest is shown
