"""The audience guesses the drawings (issue 22): the players' matcher, no board and no point
taken, one count per drawing, the award, and no word told to the audience before the end
unless the voter has just guessed it."""
import json
import random

from hypothesis import given, settings, strategies as st
from partyhub.gamekit import AUDIENCE, TABLE, Ballot

from games.sketch.rules import GAME
from games.sketch.rules.constants import BOARDS

from sketch_play import T0, next_round, ok, options, put, seats, started
from test_sketch_random_games import step
from tests.audience_sim import Audience


def guess(n, text):
    return {"type": "audience_guess", "board": n, "text": text}


def guessing_with(words):
    """A 3-player game in its first guessing round with a word on p0's board 0 and p1's
    board 2 (the host's custom `words` are dealt first)."""
    s = started(3, words="\n".join(words))
    return next_round(put(put(s, "p0", 0), "p1", 2))


def test_the_ballot_is_open_in_guessing_rounds_and_lists_the_drawn_boards():
    s = started(3)
    assert GAME.audience_ballot(s) is None and GAME.audience_actions(s) == []
    s = put(put(s, "p0", 0), "p1", 2)
    assert GAME.audience_check(s, guess(0, "x"), {}).code == "no_ballot"
    s = next_round(s)
    assert GAME.audience_ballot(s) == "r2"
    assert GAME.audience_actions(s) == [guess(0, None), guess(BOARDS + 2, None)]
    assert set(GAME.audience_schema) == {"audience_guess"}
    s = next_round(s)
    assert GAME.audience_ballot(s) is None


def recorded(n, said, left):
    return Ballot(str(n), said, {"board": n, "recorded": True, "left": left})


def test_a_guess_is_only_recorded_right_or_wrong_alike():
    """Issue 31: no reply tells whether a guess is right (nor the word) before the close."""
    s = guessing_with(["car", "мʼяч"])
    owner0 = s["boards"]["p0"][0]["word"]
    n0 = 0
    right = GAME.audience_check(s, guess(n0, f"a toy {owner0.upper()}!"), {})
    wrong = GAME.audience_check(s, guess(n0, f"super{owner0}"), {})
    assert right == recorded(n0, [f"a toy {owner0.upper()}!"], 2)
    assert wrong == recorded(n0, [f"super{owner0}"], 2)
    assert right.reply == wrong.reply
    # a voter who has (unknowingly) got it may go on guessing: no "already guessed"
    then = GAME.audience_check(s, guess(n0, "  two   words "), {str(n0): [owner0]})
    assert then == recorded(n0, [owner0, "two words"], 1)


def test_three_guesses_per_drawing_of_three_words_each():
    s = guessing_with(["car", "sun"])
    n0 = 0
    assert GAME.audience_check(s, guess(n0, "sun moon car star"), {}).code == "too_many_words"
    three = {str(n0): ["a", "b", "c"]}
    assert GAME.audience_check(s, guess(n0, "car"), three).code == "out_of_guesses"
    assert GAME.audience_check(s, guess(BOARDS + 2, "car"), three).reply["left"] == 2
    assert GAME.audience_check(s, guess(n0, "A!"), {str(n0): ["a"]}).code == "repeated_guess"
    assert GAME.audience_check(s, guess(1, "x"), {}).code == "not_drawn"
    for bad in (-1, 3 * BOARDS, True, "0", None):
        assert GAME.audience_check(s, guess(bad, "x"), {}).code == "bad_board", bad
    assert GAME.audience_check(s, guess(n0, " !? "), {}).code == "empty_guess"
    assert GAME.audience_check(s, guess(n0, "x" * 61), {}).code == "long_guess"
    assert GAME.audience_check(s, guess(n0, "x"), {str(n0): True}).reply["left"] == 2   # old value


def test_the_close_judges_with_the_players_matcher_and_credits_named_voters():
    s = guessing_with(["car", "sun"])
    w0, w1 = s["boards"]["p0"][0]["word"], s["boards"]["p1"][2]["word"]
    aud = Audience(GAME)
    aud.sync_open(s)
    aud.offer(s, "a1", "Zoe", guess(0, f"toy {w0}"))
    aud.offer(s, "a2", "max", guess(0, f"super{w0}"))
    aud.offer(s, "a2", "max", guess(0, w0.upper()))
    aud.offer(s, "c3", None, guess(0, w0))                 # anonymous: no credit
    aud.offer(s, "c3", None, guess(BOARDS + 2, w1))
    aud.offer(s, "a1", "Zoe", guess(BOARDS + 2, f"the {w1}!"))
    aud.offer(s, "a2", "max", guess(BOARDS + 2, "nope"))
    # the live summary counts who guessed each drawing, right or wrong
    assert aud.summary(s) == {"boards": [
        {"player": "p0", "board": 0, "n": 3}, {"player": "p1", "board": 2, "n": 3}]}
    s = ok(s, "p2", {"type": "guess", "player": "p0", "board": 0, "text": w0})    # p0's board is won
    s = aud.after(s, next_round(s))
    # who got a drawing shows once it is out of play: p1's board 2 can still be guessed
    last = {"ballot": "r2", "boards": [{"player": "p0", "board": 0, "n": 2, "names": ["max", "Zoe"]}]}
    assert s["audience"]["last"] == last
    for viewer in (AUDIENCE, TABLE, "p0"):
        assert GAME.view(s, viewer)["audience"] == last
    assert "c3" not in s["audience"]["voters"]
    assert s["audience"]["voters"]["a1"]["got"] == [["p0", 0, w0], ["p1", 2, w1]]
    assert s["audience"]["voters"]["a2"]["got"] == [["p0", 0, w0]]
    # at the end every drawing shows who got it
    for _ in range(3):
        s = aud.after(s, next_round(s))
    aud.offer(s, "a2", "max", guess(BOARDS + 2, w1))
    s = aud.after(s, next_round(s))
    assert s["phase"] == "over"
    assert s["audience"]["last"] == {"ballot": "r6", "boards": [
        {"player": "p1", "board": 2, "n": 1, "names": ["max"]}]}
    assert GAME.outcome(s)["audience"] == {"best": [{"name": "max", "right": 2}, {"name": "Zoe", "right": 2}]}


def test_a_board_a_player_has_won_can_still_be_guessed_and_nothing_is_taken():
    s = guessing_with(["car", "sun"])
    word = s["boards"]["p0"][0]["word"]
    s = ok(s, "p2", {"type": "guess", "player": "p0", "board": 0, "text": word})
    aud = Audience(GAME)
    aud.sync_open(s)
    assert aud.offer(s, "a1", "Zoe", guess(0, word)).reply["recorded"] is True
    plain = next_round(s)       # the round's end as the players alone make it
    boards, scores = json.dumps(plain["boards"]), GAME.scores(plain)
    s = aud.after(s, plain)
    assert json.dumps(s["boards"]) == boards and GAME.scores(s) == scores
    assert s["audience"]["voters"]["a1"]["got"] == [["p0", 0, word]]


def test_one_count_per_drawing_over_the_rounds_and_the_best_guesser():
    s = guessing_with(["car", "sun"])
    w0, w1 = s["boards"]["p0"][0]["word"], s["boards"]["p1"][2]["word"]
    aud = Audience(GAME)
    aud.sync_open(s)
    aud.offer(s, "a1", "Zoe", guess(0, w0))
    aud.offer(s, "a2", "max", guess(0, w0))
    aud.offer(s, "c3", None, guess(0, w0))
    aud.offer(s, "c3", None, guess(BOARDS + 2, w1))
    s = aud.after(s, next_round(s))              # drawing round 3
    s = aud.after(s, next_round(s))              # guessing round 4
    assert GAME.audience_ballot(s) == "r4"
    aud.offer(s, "a1", "Zoe", guess(0, w0))      # the same drawing again: counted once
    aud.offer(s, "a1", "Zoe", guess(BOARDS + 2, w1))
    aud.offer(s, "a2", "max", guess(BOARDS + 2, "nope"))
    s = aud.after(s, next_round(s))
    s = aud.after(s, next_round(s))
    s = aud.after(s, next_round(s))
    assert GAME.outcome(s)["audience"] == {"best": [{"name": "Zoe", "right": 2}]}
    assert "c3" not in s["audience"]["voters"]


def test_nobody_right_means_no_award():
    s = guessing_with(["car", "sun"])
    aud = Audience(GAME)
    aud.sync_open(s)
    aud.offer(s, "a1", "Zoe", guess(0, "nope"))
    for _ in range(5):
        s = aud.after(s, next_round(s))
    assert GAME.outcome(s)["audience"] == {"best": []}


VOTERS = [("a0", "Ann"), ("a1", "Bob"), ("c2", None)]


def words_of_game(s):
    return {w for card_list in s["cards"].values() for card in card_list for w in card}


def heard(s, aud, probes):
    """What the audience hears now, except the replies to right guesses: the audience view
    and actions, the TV view, the live summary, and the replies to `probes` of wrong text."""
    replies = []
    for action in probes:
        v = GAME.audience_check(s, action, {})
        replies.append(v.reply if isinstance(v, Ballot) else v.code)
    return json.dumps([GAME.view(s, AUDIENCE), GAME.view(s, TABLE), GAME.audience_actions(s),
                       aud.summary(s), replies], ensure_ascii=False)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), lang=st.sampled_from(["en", "uk", "ru"]))
def test_random_games_with_an_audience_never_tell_an_unguessed_word(seed, n, lang):
    rnd = random.Random(seed)
    opts = options(round_seconds=5, tie_window_ms=1000, language=lang)
    state = GAME.begin(GAME.setup(seats(n), opts, seed), T0)
    aud = Audience(GAME)
    words = words_of_game(state)
    now = T0
    got: dict = {}                      # voter -> {(owner, board, word)}
    for k in range(2_000):
        if GAME.outcome(state) is not None:
            break
        aud.sync_open(state)
        now += rnd.randint(0, 400)
        due = GAME.deadline(state)
        before = state
        if GAME.audience_ballot(state) and rnd.random() < 0.4:
            voter, name = rnd.choice(VOTERS)
            acts = GAME.audience_actions(state)
            if acts:
                a = rnd.choice(acts)
                owner, board = state["seats"][a["board"] // BOARDS], a["board"] % BOARDS
                word = state["boards"][owner][board]["word"]
                text = rnd.choice([word, f"the {word}", f"zz{k}", word + "x"])
                mine = dict(aud.entries.get(voter, {}).get("votes", {}))
                blind = GAME.audience_check(state, guess(a["board"], f"zz{k}y"), mine)
                verdict = aud.offer(state, voter, name, guess(a["board"], text))
                # the verdict is the same as for a surely wrong guess: nothing tells right
                if isinstance(verdict, Ballot):
                    assert set(verdict.reply) == {"board", "recorded", "left"}
                    assert isinstance(blind, Ballot) and blind.reply == verdict.reply
                    if name and any(w in verdict.value for w in (word, f"the {word}")):
                        got.setdefault(voter, set()).add((owner, board, word))
                else:
                    assert verdict.code in ("out_of_guesses", "repeated_guess", "too_many_words"), verdict
                # and the TV's live summary is that of the same guesses all wrong
                wrong = {v: {**e, "votes": {key: [f"zz{i}" for i, _ in enumerate(said)]
                                            for key, said in e["votes"].items()}}
                         for v, e in aud.entries.items()}
                assert GAME.audience_summary(state, wrong) == aud.summary(state)
                told = json.dumps([verdict.reply if isinstance(verdict, Ballot) else verdict.code],
                                  ensure_ascii=False)
                for w in words:
                    assert f'"{w}"' not in told
        if due is not None and now >= due:
            state = aud.after(before, GAME.on_deadline(state, now).state)
        else:
            state = aud.after(before, step(state, rnd, now, k))
        state = json.loads(json.dumps(state))
        if state["phase"] != "over":
            probes = [guess(a["board"], f"zz{k}") for a in GAME.audience_actions(state)[:4]]
            text = heard(state, aud, probes)
            for w in words:
                assert f'"{w}"' not in text, w
    out = GAME.outcome(state)
    assert out is not None
    top = max((len(g) for g in got.values()), default=0)
    assert out["audience"]["best"] == sorted(
        ({"name": dict(VOTERS)[v], "right": top} for v, g in got.items() if top and len(g) == top),
        key=lambda e: e["name"].casefold())
