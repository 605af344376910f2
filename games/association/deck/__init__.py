"""Association's asset pipeline: how the default deck is made (offline, once).

`python -m games.association.deck.generate` plans the story cards (`story.py`, from the
curated actors, moods and things of `cast.py`), paints them (the scene families of
`outdoors.py`, `wonders.py` and `rooms.py` with `stage.py`, `scene.py` and `draw.py`),
rasterises them (`render.py`) into frontend/static/games/association/cards/ and writes the
manifest the platform reads (partyhub/decks/default.json); `measure.py` and `sheets.py`
measure the pictures and make docs/deck/. At run time nobody imports this package: the
platform owns the decks (`partyhub.decks`) and hands a game its deck as data in its options.
"""
