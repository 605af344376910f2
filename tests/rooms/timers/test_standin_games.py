"""A bot keeps a dropped seat warm, in each game, over the real transport: a player leaves
mid-turn, the stand-in covers after the room's delay (the timekeeper's pass is run at a
chosen time, nobody sleeps 20 s), the player comes back to the seat as it is now, and the
scores are the rules' (the log, stand-in moves included, replays to the room's state)."""
import pytest
from channels.db import database_sync_to_async

from partyhub.rooms.gateway import registry
from partyhub.rooms.timers import standin
from tests.rooms.standinkit import (back, catch_up, drop, fire, game_acts, moves_of, play_others,
                                    player, replays, row)
from tests.rooms.transport.test_consumers import table

pytestmark = pytest.mark.django_db(transaction=True)
DELAY = standin.DEFAULT_SECONDS * 1000


async def started(game, options, n):
    code, tv, phones = await table(n)
    await tv.act({"type": "start", "game": game, "options": options})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    await catch_up([tv, *phones], (await row(code)).version)
    start = await row(code)
    assert start.phase == "playing"
    return code, tv, phones, start


async def covered(code, tv, phone, kinds):
    """`phone`, whom the game waits on, goes; nothing happens before the delay; then its
    stand-in moves (one of `kinds`) and the TV marks the seat."""
    pid = phone.seat.player_id
    before = (await row(code)).version
    since = await drop(code, tv, phone)
    assert (await row(code)).deadline_at == since + DELAY
    assert await fire(since + DELAY - 1) == 0
    assert await fire(since + DELAY) == 1
    view = await tv.until(lambda v: player(v, pid)["standin"])
    assert not player(view, pid)["connected"]
    done = await moves_of(code, pid, before)
    assert done and done[0]["type"] in kinds, done
    return pid, since


async def returned(code, tv, phone, pid, since):
    """The phone comes back: its view is the seat as it is now, the TV drops the mark, and the
    stand-in makes no move for it any more."""
    again = await back(code, phone)
    now = await row(code)
    game = registry.get(now.game_id)
    assert {k: again.view["you"][k] for k in ("role", "id")} == {"role": "player", "id": pid}
    assert again.view["game"] == game.view(now.state, pid)
    await tv.until(lambda v: player(v, pid)["connected"] and not player(v, pid)["standin"])
    assert pid not in (await row(code)).away
    version = (await row(code)).version
    await fire(since + DELAY * 3)
    assert await moves_of(code, pid, version) == []
    return again


async def test_association_a_storyteller_who_drops_is_told_for_and_the_turn_scores_by_the_rules():
    code, tv, phones, start = await started("association", {}, 3)
    teller = next(p for p in phones if any(a["type"] == "tell" for a in game_acts(p.view)))
    pid, since = await covered(code, tv, teller, {"tell"})
    told = (await row(code)).state
    assert told["phase"] == "submit" and told["clue"]
    again = await returned(code, tv, teller, pid, since)
    hand = (await row(code)).state["hands"][pid]
    assert told["played"][pid] not in hand            # the card the stand-in told with is spent
    others = [p for p in phones if p is not teller]
    await play_others(tv, [again, *others], lambda v: v["game"]["phase"] in ("reveal", "over"))
    scores = await replays(code, start.version, start.state)
    story = (await row(code)).state
    voters = [s for s in story["seats"] if s != pid]
    assert story["phase"] == "reveal" and set(story["votes"]) == set(voters)
    found = [s for s in voters if story["votes"][s] == story["played"][pid]]
    # the storyteller scores nothing when all or none found the card, else 3 plus 1 a finder
    assert scores[pid] == (0 if len(found) in (0, len(voters)) else 3 + len(found))
    assert all(scores[s] >= (3 if s in found and len(found) < len(voters) else 0) for s in voters)


async def test_jinx_an_active_player_who_drops_gets_a_clue_given_and_the_cards_follow_the_rules():
    code, tv, phones, start = await started("jinx", {"first_player": "first_seat"}, 3)
    active = next(p for p in phones if any(a["type"] == "clue" for a in game_acts(p.view)))
    pid, since = await covered(code, tv, active, {"clue"})
    clued = (await row(code)).state
    assert clued["clue"]
    again = await returned(code, tv, active, pid, since)
    others = [p for p in phones if p is not active]
    await play_others(tv, [again, *others], lambda v: not any(game_acts(p.view) for p in others))
    scores = await replays(code, start.version, start.state)
    last = (await row(code)).state["last"]
    assert last["active"] == pid and last["clue"] == clued["clue"]
    wrong = sum(1 for p in last["picks"] if not p["right"])
    if last["finder"] is None:            # nobody found it: nothing is won
        assert set(scores.values()) == {0}
    else:                                 # the finder wins the target, the clue giver the rest
        assert scores[last["finder"]] == 1 and scores[pid] == wrong


async def test_klepka_a_player_who_drops_on_their_turn_is_played_for_and_keeps_the_cards():
    code, tv, phones, start = await started("klepka", {}, 2)
    mover = next(p for p in phones if game_acts(p.view) and
                 any(a["type"] in ("flip", "word", "words_done") for a in game_acts(p.view)))
    pid, since = await covered(code, tv, mover, {"flip", "word", "words_done"})
    t = since + DELAY
    for _ in range(6):       # the stand-in plays on while the game waits on the seat
        t += standin.THINK_MS
        await fire(t)
    played = await moves_of(code, pid, start.version)
    held = (await row(code)).state["hands"][pid]
    again = await returned(code, tv, mover, pid, t)
    assert (await row(code)).state["hands"][pid] == held      # what the stand-in won stays
    assert again.view["game"]["mine"] is not None
    assert len(played) >= 2, played
    await replays(code, start.version, start.state)


async def test_sketch_a_drawer_who_drops_is_drawn_for_and_a_right_guess_scores_by_the_rules():
    code, tv, phones, start = await started("sketch", {"round_seconds": 120}, 3)
    ann = phones[0]
    pid, since = await covered(code, tv, ann, {"draw"})
    await fire(since + DELAY + standin.THINK_MS)          # then it draws the word it chose
    state = (await row(code)).state
    board = next(i for i, b in enumerate(state["boards"][pid]) if b["word"])
    assert state["boards"][pid][board]["strokes"], "the stand-in drew the word"
    again = await returned(code, tv, ann, pid, since + DELAY + standin.THINK_MS)
    assert again.view["game"]["you"]["boards"][board]["strokes"]
    await fire(state["deadline"])                          # the sand runs out: guessing
    await tv.until(lambda v: v["game"]["phase"] == "guessing")
    word = state["boards"][pid][board]["word"]
    bob = phones[1]
    await catch_up([bob], (await row(code)).version)
    await bob.act({"type": "guess", "player": pid, "board": board, "text": word})
    await tv.until(lambda v: player(v, bob.seat.player_id)["score"] > 0)
    scores = await replays(code, start.version, start.state)
    won = (await row(code)).state["boards"][pid][board]["won_by"]
    assert won == [bob.seat.player_id]
    # +1 per board of another player won; live, no penalty before a guessing round ended
    assert scores[bob.seat.player_id] == 1 and scores[pid] == 0
