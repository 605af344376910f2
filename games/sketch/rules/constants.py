"""The fixed numbers of the game: one place for each."""
BOARDS = 6                 # drawing boards per player
CARDS = 2                  # word cards per player
WORDS_PER_CARD = 5         # words on each card
ROUNDS = ("drawing", "guessing") * 3   # six rounds, no pauses between them

LANGUAGES = ("en", "uk", "ru")
DIFFICULTIES = ("easy", "hard")

# The canvas: the platform's pen (palette, widths, batch size, scale: partyhub/strokes.py).
from partyhub.strokes import MAX_POINTS_PER_BATCH, PALETTE, SCALE, WIDTHS  # noqa: E402,F401
MAX_POINTS_PER_BOARD = 3000   # thousandth-grid points; the phone thins its strokes

MAX_GUESS_CHARS = 80
# Fair play (issue 31): a guess names one thing, not a word list, and nobody reads out the
# dictionary. A guess holds at most GUESS_WORDS words (more only when a word dealt in this
# game has more: matcher.guess_words); a player has WRONG_GUESSES wrong guesses per board
# per round; an audience voter AUDIENCE_GUESSES guesses per board per round (rules/audience.py).
GUESS_WORDS = 3
WRONG_GUESSES = 5
AUDIENCE_GUESSES = 3
MAX_WORD_CHARS = 40           # a custom word list entry longer than this is dropped
FEEDBACK = ("close", "far")
SHOWN_GUESSES = 50            # the newest guesses of a player its phone is sent...
SHOWN_PER_BOARD = 3           # ...of them the newest 3 on each board (what the phone shows)
SHOWN_ASKED = 8               # the newest guesses of this round on a drawer's boards
