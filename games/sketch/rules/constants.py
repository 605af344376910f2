"""The fixed numbers of the game: one place for each."""
BOARDS = 6                 # drawing boards per player
CARDS = 2                  # word cards per player
WORDS_PER_CARD = 5         # words on each card
ROUNDS = ("drawing", "guessing") * 3   # six rounds, no pauses between them

LANGUAGES = ("en", "uk", "ru")
DIFFICULTIES = ("easy", "hard")

# The canvas: a small palette ("#fff" is the board itself, i.e. the eraser) and three widths.
PALETTE = ("#000", "#e4572e", "#f3a712", "#29bf12", "#2e86de", "#8e44ad", "#8b5a2b", "#fff")
WIDTHS = (2, 4, 8)
MAX_POINTS_PER_BATCH = 200
MAX_POINTS_PER_BOARD = 3000   # thousandth-grid points; the phone thins its strokes
SCALE = 1000                  # stored coordinates are integers in thousandths of the board

MAX_GUESS_CHARS = 80
MAX_WORD_CHARS = 40           # a custom word list entry longer than this is dropped
FEEDBACK = ("close", "far")
SHOWN_GUESSES = 50            # the newest guesses of a player its phone is sent...
SHOWN_PER_BOARD = 3           # ...of them the newest 3 on each board (what the phone shows)
SHOWN_ASKED = 8               # the newest guesses of this round on a drawer's boards
