"""A late joiner's view says whether the next deal of the game seats them (issue 27 item 12):
`you.dealt_next` in a seat's view while it watches a game it joined too late for. The next deal
(Play again) seats every seat of the room or none, so the answer is whether the game takes
that many players."""
import json

import pytest

from partyhub.rooms.core import seating
from partyhub.rooms.store import store
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import services
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.models import Room
from tests.rooms.helpers import make_room, tv

pytestmark = pytest.mark.django_db


def frames(code) -> dict:
    r = Room.objects.get(code=code)
    return {k: json.loads(v)["d"] for k, v in viewmodel.viewer_frames(r, store.seats(r, fresh=True), "").items()}


def late_join(code, name):
    _, seat, _ = services.seat_join(code, name)
    return seat.player_id


@pytest.mark.parametrize("players, dealt", [(5, True), (6, False)])
def test_a_late_joiner_is_told_whether_the_next_jinx_has_a_seat_for_them(players, dealt):
    code, _, seats = make_room(players)
    services.room_apply(code, tv(), None, {"type": "start", "game": "jinx", "options": {}})
    cleo = late_join(code, "Cleo")
    views = frames(code)
    assert views[cleo]["you"] == {"role": "audience", "id": cleo, "language": "en", "dealt_next": dealt}
    assert all("dealt_next" not in views[s.player_id]["you"] for s in seats), "only a late joiner's view"
    # the answer is the next deal's: Play again seats Cleo, or is refused
    if dealt:
        services.room_apply(code, tv(), None, {"type": "again"})
        assert frames(code)[cleo]["you"]["role"] == "player"
    else:
        with pytest.raises(ServiceError) as refused:
            services.room_apply(code, tv(), None, {"type": "again"})
        assert refused.value.code == "player_count"


def test_no_dealt_next_outside_a_running_game():
    code, _, _ = make_room(3)
    cleo = late_join(code, "Cleo")
    assert "dealt_next" not in frames(code)[cleo]["you"], "in the lobby everyone is dealt in"


def test_a_table_fits_from_the_games_fewest_to_its_most_players():
    class Game:
        min_players, max_players = 3, 6
    assert [n for n in range(10) if seating.fits(Game, n)] == [3, 4, 5, 6]
