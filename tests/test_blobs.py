"""partyhub/blobs.py: large view values by content hash, and a client that resolves them."""
import json

from partyhub import blobs

KEYS = frozenset({"strokes"})
A = [{"c": "#000", "w": 4, "p": [1, 2, 3, 4]}]
B = [{"c": "#fff", "w": 8, "p": [5, 6]}]


def _view(*drawings):
    return {"boards": [{"board": i, "strokes": d} for i, d in enumerate(drawings)],
            "you": {"boards": [{"board": 0, "strokes": drawings[0]}]}}


def test_a_drawing_becomes_a_reference_named_by_its_content():
    texts, used = {}, []
    out = blobs.externalize(_view(A, B, []), KEYS, texts, used, {})
    h = blobs.digest(json.dumps(A, separators=(",", ":")))
    assert out["boards"][0]["strokes"] == {"$blob": h} == out["you"]["boards"][0]["strokes"]
    assert out["boards"][2]["strokes"] == []            # an empty drawing stays as it is
    assert used == [h, blobs.digest(json.dumps(B, separators=(",", ":")))]
    assert json.loads(texts[h]) == A and len(texts) == 2


def test_the_same_content_has_the_same_hash_and_a_change_a_new_one():
    one, two = {}, {}
    blobs.externalize(_view(A), KEYS, one, [], {})
    blobs.externalize(_view(json.loads(json.dumps(A))), KEYS, two, [], {})
    assert one.keys() == two.keys()
    changed = [{**A[0], "p": [1, 2, 3, 5]}]
    three = {}
    blobs.externalize(_view(changed), KEYS, three, [], {})
    assert not three.keys() & one.keys()


def test_other_keys_and_the_rules_view_are_left_alone():
    view = {"points": [[0.1, 0.2]], "strokes": "text", "boards": [{"strokes": A}]}
    texts = {}
    out = blobs.externalize(view, KEYS, texts, [], {})
    assert out["points"] == [[0.1, 0.2]] and out["strokes"] == "text"
    assert view["boards"][0]["strokes"] is A          # the rules' view is not mutated


def test_the_blobs_frame_carries_the_texts_before_the_view_of_its_version():
    texts = {}
    blobs.externalize(_view(A, B), KEYS, texts, [], {})
    f = json.loads(blobs.frame(7, texts))
    assert f["t"] == "blobs" and f["v"] == 7 and f["d"] == {h: json.loads(t) for h, t in texts.items()}


def test_a_client_resolves_references_and_keeps_only_its_last_views_values():
    texts, used = {}, []
    ref_view = blobs.externalize(_view(A, B), KEYS, texts, used, {})
    held = blobs.Held()
    held.take({"t": "blobs", "v": 3, "d": {h: json.loads(t) for h, t in texts.items()}})
    view = held.take({"t": "view", "v": 3, "d": json.loads(json.dumps(ref_view))})["d"]
    assert view == _view(A, B) and not held.missing
    # the next view names only A: B is forgotten, A needs no new blobs frame
    ref_a = blobs.externalize(_view(A), KEYS, {}, [], {})
    assert held.take({"t": "view", "v": 4, "d": ref_a})["d"] == _view(A)
    assert list(held.have) == [used[0]]
    held.take({"t": "view", "v": 5, "d": ref_view})      # B again, without its blobs frame
    assert held.missing == [used[1]]


def _event(v, *drawings):
    texts, used = {}, []
    view = blobs.externalize(_view(*drawings), KEYS, texts, used, {})
    return {"v": v, "text": json.dumps({"t": "view", "v": v, "d": view}), "refs": used,
            "blobs": texts}


async def test_a_socket_sends_each_value_once_and_again_only_after_a_view_without_it():
    import asyncio

    from partyhub.rooms.transport.consumers import RoomConsumer

    sock, wire = RoomConsumer(), []

    async def send(text_data):
        wire.append(json.loads(text_data))
        await asyncio.sleep(0)          # let another delivery run in between

    sock.send, sock.last_v, sock.held, sock.views = send, -1, set(), asyncio.Lock()
    C = [{"c": "#000", "w": 2, "p": [9, 9]}]
    # two changes delivered at once (two tasks): each view goes right after its blobs frame
    await asyncio.gather(sock.room_frame(_event(5, A)), sock.room_frame(_event(6, A, B)))
    await sock.room_frame(_event(7, A, B, C))
    await sock.room_frame(_event(8, B, C))
    await sock.room_frame(_event(9, A, B))
    client = blobs.Held()
    for f in wire:
        client.take(f)
    sent = [sorted(map(json.dumps, f["d"].values())) for f in wire if f["t"] == "blobs"]
    assert sent[-2:] == [[json.dumps(C)], [json.dumps(A)]]      # new at 7; A again at 9
    assert client.missing == [] and client.v == 9
    assert [(f["t"], f["v"]) for f in wire] == [
        ("blobs", 5), ("view", 5), ("blobs", 6), ("view", 6), ("blobs", 7), ("view", 7),
        ("view", 8), ("blobs", 9), ("view", 9)]
