"""The host's hide, as a view is redacted (partyhub/family/redact.py)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from partyhub.family.redact import PLACEHOLDER, hidden_keys, redact, shown
from tests.family.test_filter import IGNORABLES


def test_redact_replaces_texts_under_text_fields_only_and_leaves_ids_and_drawings():
    hidden = hidden_keys(["c17", "rude one"])
    view = {"clue": "Rude   ONE", "card": "c17", "cards": ["c17"], "word": "c17",
            "players": [{"id": "rude one", "name": "rude one"}],
            "strokes": [{"text": "rude one"}], "history": [{"text": "rude one", "turn": 3}]}
    assert redact(view, hidden) == {
        "clue": PLACEHOLDER, "card": "c17", "cards": ["c17"], "word": PLACEHOLDER,
        "players": [{"id": "rude one", "name": PLACEHOLDER}],
        "strokes": [{"text": "rude one"}], "history": [{"text": PLACEHOLDER, "turn": 3}]}
    assert redact(view, frozenset()) is view


def test_a_hidden_text_is_hidden_however_invisible_marks_and_look_alike_letters_write_it():
    hidden = hidden_keys(["rude one", "Bob"])
    for text in ["ru\u034fde one", "rude\ufe0f one", "rudе оne", "RUDΕ ONE", "ｒｕｄｅ one",
                 "Bo\u034fb", "Воb", "ΒΟΒ", "b\u3164ob"]:
        assert redact({"clue": text}, hidden) == {"clue": PLACEHOLDER}, text
    for text in ["rude ones", "rude", "Bobby", "воb"]:      # воb: в is a small capital В
        assert redact({"clue": text}, hidden) == {"clue": text}, text


def test_a_hidden_text_is_kept_visible_with_runs_of_space_as_one():
    assert shown("  ru\u034fde \u200b  one ") == "rude one"
    assert shown(None) == "" and shown("\u3164\u034f") == ""


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(categories=("L", "N", "P", "Zs")), min_size=1, max_size=20),
       st.lists(st.tuples(st.integers(0, 20), st.sampled_from(IGNORABLES)), max_size=4))
def test_a_hidden_text_with_ignorables_anywhere_is_hidden(text, spots):
    """Any text with default-ignorable code points put anywhere in it is hidden with it."""
    hidden = hidden_keys([text])
    for at, ch in sorted(spots, reverse=True):
        text = text[:at] + ch + text[at:]
    if hidden:
        assert redact({"text": text}, hidden) == {"text": PLACEHOLDER}, text
