"""Gateway: the only way into games/*: the registry of rules objects and the guarded calls into them."""
