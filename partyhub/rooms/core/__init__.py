"""Core: pure facts of a room (errors, codes, names, tallies, bot passes): no database, no game, no async."""
