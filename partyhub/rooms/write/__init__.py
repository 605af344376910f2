"""Write: the ladder (lock, guards, rules, deadline, save) that every change of a room goes through."""
