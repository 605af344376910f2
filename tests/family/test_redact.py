"""The host's hide, as a view is redacted (partyhub/family/redact.py)."""
from partyhub.family.redact import PLACEHOLDER, redact


def test_redact_replaces_texts_under_text_fields_only_and_leaves_ids_and_drawings():
    hidden = frozenset({"c17", "rude one"})
    view = {"clue": "Rude   ONE", "card": "c17", "cards": ["c17"], "word": "c17",
            "players": [{"id": "rude one", "name": "rude one"}],
            "strokes": [{"text": "rude one"}], "history": [{"text": "rude one", "turn": 3}]}
    assert redact(view, hidden) == {
        "clue": PLACEHOLDER, "card": "c17", "cards": ["c17"], "word": PLACEHOLDER,
        "players": [{"id": "rude one", "name": PLACEHOLDER}],
        "strokes": [{"text": "rude one"}], "history": [{"text": PLACEHOLDER, "turn": 3}]}
    assert redact(view, frozenset()) is view
