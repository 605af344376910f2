"""Views: what each viewer of a room is sent (the view model and its wire encoding)."""
