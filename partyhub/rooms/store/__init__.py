"""Store: the SQL and every per-process cache of rooms, seats, events and stream items."""
