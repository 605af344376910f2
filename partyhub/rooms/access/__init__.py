"""Access: who a token opens (seats, claims, audience passes) and which names a room accepts."""
