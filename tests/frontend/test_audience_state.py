"""The audience's live state on a page (frontend/static/common/audience.js, issue 22): run in Node,
which imports the browser's own module (it touches no DOM). What app.audience shows as tally and
mine frames and views come in: the highest seq of a ballot wins, a new ballot starts anew, a late
frame of a ballot left behind is ignored, a new game clears, a phone's vote goes when its ballot
closes (its audience actions go), but not when the game pauses or the host turns the audience off."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from partyhub.rooms.core import schema
from tests.frontend.page import document_stub

MODULE = Path(__file__).resolve().parents[2] / "frontend" / "static" / "common" / "audience.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def run(steps):
    """Feed the steps to a fresh state; returns app.audience after each one.
    A step: ["tally"|"mine", d] | ["view", view] | ["reconnected"]."""
    script = f"""
{document_stub({"room-actions": sorted(schema.SCHEMA)})}
const {{ createAudience }} = await import({json.dumps(MODULE.as_uri())});
const a = createAudience();
const out = [];
for (const [kind, d] of {json.dumps(steps)}) {{
  let changed;
  if (kind === 'view') changed = a.view(d);
  else if (kind === 'reconnected') changed = a.reconnected();
  else changed = a.frame(kind, d);
  out.push({{changed: !!changed, ...a.state}});
}}
console.log(JSON.stringify(out));
"""
    r = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def view(game_no=1, phase="playing", actions=(), paused=False, audience_play=True):
    return {"room": {"phase": phase, "game_no": game_no, "paused": paused, "audience_play": audience_play},
            "actions": list(actions), "you": {"role": "audience", "id": None}}


def tally(ballot, seq, voters=1):
    return {"ballot": ballot, "seq": seq, "voters": voters, "summary": {}}


def mine(ballot, votes, ref=None):
    return {"ballot": ballot, "votes": votes, "ref": ref, "reply": {}}


VOTE = {"type": "audience_vote", "card": "c1"}
PREDICT = {"type": "predict", "n": 2}           # the test game's audience action: no prefix
SEAT = {"type": "take_seat", "player": "p1"}     # a room action: not a vote


def test_the_highest_seq_of_a_ballot_wins():
    out = run([["view", view()], ["tally", tally("t1", 3, 3)], ["tally", tally("t1", 2, 2)],
               ["tally", tally("t1", 3, 9)], ["tally", tally("t1", 5, 5)]])
    assert [o["tally"]["voters"] for o in out[1:]] == [3, 3, 3, 5]
    assert [o["changed"] for o in out[1:]] == [True, False, False, True]


def test_a_new_ballot_starts_anew_and_a_late_frame_of_the_old_one_is_ignored():
    out = run([["view", view()], ["mine", mine("t1", {"card": "c1"})], ["tally", tally("t1", 7)],
               ["tally", tally("t2", 1)], ["tally", tally("t1", 8)], ["mine", mine("t1", {"card": "c2"})]])
    assert out[2] == {"changed": True, "tally": tally("t1", 7), "mine": mine("t1", {"card": "c1"})}
    assert out[3]["tally"] == tally("t2", 1) and out[3]["mine"] is None      # t2 opened: your t1 vote goes
    assert out[4]["tally"] == tally("t2", 1) and not out[4]["changed"]
    assert out[5]["mine"] is None and not out[5]["changed"]


def test_a_new_socket_takes_the_current_tally_whatever_its_seq():
    out = run([["view", view()], ["tally", tally("t1", 40)], ["reconnected", None], ["tally", tally("t1", 2)],
               ["tally", tally("t1", 1)]])
    assert out[3]["tally"]["seq"] == 2 and out[4]["tally"]["seq"] == 2


def test_a_new_game_or_the_lobby_clears_it():
    out = run([["view", view(1)], ["tally", tally("t1", 1)], ["view", view(1)], ["view", view(2)],
               ["tally", tally("t1", 1)], ["view", view(2, phase="lobby")]])
    assert out[2]["tally"] and not out[2]["changed"]
    assert out[3] == {"changed": True, "tally": None, "mine": None}
    assert out[4]["tally"] == tally("t1", 1)        # ballot keys repeat in a new game: not "left behind"
    assert out[5]["tally"] is None


def test_a_phone_forgets_its_vote_when_its_ballot_closes_not_when_paused_or_switched_off():
    steps = [["view", view(actions=[VOTE])], ["mine", mine("r1", {"slot": 3}, ref="x-1")],
             ["view", view(actions=[], paused=True)], ["view", view(actions=[VOTE])],
             ["view", view(actions=[], audience_play=False)], ["view", view(actions=[VOTE])],
             ["view", view(actions=[])]]
    out = run(steps)
    assert out[1]["mine"]["votes"] == {"slot": 3}
    assert out[2]["mine"] and out[4]["mine"] and out[5]["mine"]
    assert out[6] == {"changed": True, "tally": None, "mine": None}


def test_an_audience_action_is_any_game_action_of_an_audience_socket():
    seat = view(actions=[PREDICT])
    seat["you"] = {"role": "player", "id": "p1"}
    out = run([["view", view(actions=[PREDICT, SEAT])], ["mine", mine("t0", {"n": 2})],
               ["view", view(actions=[SEAT])], ["mine", mine("t0", {"n": 2})],
               ["view", seat], ["view", view(actions=[])]])
    assert out[2]["mine"] is None                   # only a room action left: the ballot closed
    assert out[5]["mine"]                           # a seat's predict was no audience action


def test_a_view_that_names_the_open_ballot_drops_a_vote_of_another():
    named = view(actions=[PREDICT])
    named["room"]["audience_ballot"] = "t3"
    out = run([["view", view(actions=[PREDICT])], ["mine", mine("t0", {"n": 2})], ["view", view(actions=[PREDICT])],
               ["view", named]])
    assert out[2]["mine"] and out[3] == {"changed": True, "tally": None, "mine": None}


def test_frames_without_a_ballot_are_ignored():
    out = run([["view", view()], ["tally", {"seq": 1}], ["mine", {"ballot": "", "votes": {}}], ["other", {"ballot": "t1"}]])
    assert all(o == {"changed": False, "tally": None, "mine": None} for o in out)
