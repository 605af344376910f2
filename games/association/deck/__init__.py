"""Association's asset pipeline: how the default deck is made (offline, once).

`python -m games.association.deck.generate` plans the cards (`compose.py`), paints them
(`families.py`, `scene.py`, `draw.py`), rasterises them (`render.py`) into
frontend/static/games/association/cards/ and writes the manifest the platform reads
(partyhub/decks/default.json). At run time nobody imports this package: the platform owns
the decks (`partyhub.decks`) and hands a game its deck as data in its options.
"""
