"""Domain: the room actions and pacing: in-memory decisions made inside the write path."""
