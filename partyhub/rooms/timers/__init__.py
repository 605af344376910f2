"""Timers: when a room is next due: its game's timer, pacing's all-bots wait, the stand-in, the VIP's grace."""
