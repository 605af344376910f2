"""Transport: the WebSocket consumer, its routing and the HTTP API of rooms and decks."""
