"""Who acts on a story card, how they feel, and the curated things each scene family uses.

A name is either the Unicode name of an OpenMoji drawing (emoji.file_for finds it) or a
"CLIP ..." name of a curated Openclipart drawing (clipart.POOL). Full-body people and
animals only: faces, hand gestures, flags, letters, digits, UI symbols and pop-culture
characters are left out on purpose.
"""
from . import clipart

# the actors: Unicode name -> the word a card's title and object names use
HEROES = {
    "PEDESTRIAN": "wanderer", "RUNNER": "runner", "PERSON CLIMBING": "climber",
    "STANDING PERSON": "stranger", "KNEELING PERSON": "kneeling figure",
    "PERSON IN LOTUS POSITION": "dreamer", "MAGE": "old mage", "FAIRY": "fairy", "ELF": "elf",
    "DANCER": "dancer", "JUGGLING": "juggler", "GHOST": "ghost", "SNOWMAN": "snowman",
    "MAN IN BUSINESS SUIT LEVITATING": "floating man",
    "CAT": "cat", "DOG": "dog", "RABBIT": "rabbit", "MOUSE": "mouse", "SNAIL": "snail",
    "TURTLE": "turtle", "HEDGEHOG": "hedgehog", "OWL": "owl", "PENGUIN": "penguin",
    "DEER": "deer", "HORSE": "horse", "BADGER": "badger", "RACCOON": "raccoon",
    "OTTER": "otter", "SLOTH": "sloth", "KANGAROO": "kangaroo", "GOAT": "goat",
    "SHEEP": "sheep", "DUCK": "duck", "SWAN": "swan", "FLAMINGO": "flamingo", "LLAMA": "llama",
    "DODO": "dodo", "ELEPHANT": "elephant", "CHIPMUNK": "chipmunk", "BEAVER": "beaver",
    "CRAB": "crab", "RAT": "rat", "TIGER": "tiger", "DROMEDARY CAMEL": "camel", "BAT": "bat",
}
# Openclipart actors drawn with a face or a gesture of their own: each plays only the moods
# its drawing can carry (a shouting frog is never asleep)
FEELS = {
    "CLIP OLD MAN": ("afraid", "sad", "lonely", "curious"),
    "CLIP OLD SAILOR": ("sad", "lonely", "brave", "curious"),
    "CLIP OLD WOMAN": ("curious", "hopeful", "lonely", "sad"),
    "CLIP GIRL WITH A BALL": ("joyful", "brave", "curious"),
    "CLIP GRANDFATHER RUNNING": ("joyful", "brave", "hopeful"),
    "CLIP BALLERINA": ("joyful", "hopeful", "lonely", "sad"),
    "CLIP SKATER": ("afraid", "joyful", "brave"),
    "CLIP HIKER": ("brave", "lonely", "curious", "hopeful"),
    "CLIP TRAVELLER": ("lonely", "sad", "hopeful", "curious"),
    "CLIP READER": ("curious", "hopeful", "asleep"),
    "CLIP BLACKSMITH": ("brave", "sad", "lonely"),
    "CLIP FROG": ("sad", "lonely", "curious", "asleep"),
    "CLIP SHOUTING FROG": ("afraid", "joyful"),
    "CLIP PENGUIN AND CHICK": ("hopeful", "lonely", "afraid", "curious"),
    "CLIP WIZARD DOG": ("hopeful", "joyful", "curious", "brave"),
    "CLIP BEAR": ("lonely", "curious", "brave", "sad"),
    "CLIP RESTING LION": ("asleep", "sad", "lonely"),
    "CLIP COW": ("curious", "joyful", "afraid"),
    "CLIP PIG": ("joyful", "curious", "asleep"),
    "CLIP BLACK CAT": ("curious", "lonely", "afraid", "brave"),
    "CLIP CAT ON A CUSHION": ("asleep",),
    "CLIP SQUIRREL": ("curious", "hopeful", "asleep"),
    "CLIP BARN OWL": ("curious", "afraid", "lonely"),
    "CLIP PUFFIN": ("curious", "lonely", "brave", "sad"),
    "CLIP LADYBIRD": ("brave", "curious"),
    "CLIP LITTLE DRAGON": ("joyful", "brave", "afraid", "curious"),
}
HEROES.update({name: clipart.label(name) for name in FEELS})
# too wide to sit in a cup, a hat or a shell
WIDE = {"ELEPHANT", "HORSE", "DROMEDARY CAMEL", "LLAMA", "TIGER", "DEER", "KANGAROO", "CLIP COW",
        "CLIP BEAR", "CLIP RESTING LION", "CLIP PIG", "CLIP BLACKSMITH", "CLIP CAT ON A CUSHION"}
FLYERS = {"FAIRY", "GHOST", "MAN IN BUSINESS SUIT LEVITATING", "OWL", "BAT"}

# mood -> (the title's words, what the picture shows for it)
MOODS = {
    "asleep": ("fast asleep", "rising sleep bubbles, a head bowed low"),
    "afraid": ("trembling with fear", "shaking lines, leaning away"),
    "joyful": ("jumping for joy", "off the ground, sparkles and a bounce"),
    "curious": ("peering, curious", "leaning in, a trail of footprints"),
    "sad": ("sad under a rain cloud", "a small rain cloud of their own"),
    "hopeful": ("hopeful in a warm glow", "a warm glow around them"),
    "lonely": ("alone", "small, with a long shadow"),
    "brave": ("bracing against the wind", "leaning into wind streaks"),
}

# things a hero holds or tows (a balloon or kite flies above on a string)
CARRY = ["CANDLE", "DIYA LAMP", "IZAKAYA LANTERN", "OLD KEY", "KEY", "BALLOON", "KITE", "UMBRELLA",
         "OPEN BOOK", "TULIP", "ROSE", "WRAPPED PRESENT", "ELECTRIC LIGHT BULB", "VIOLIN", "TRUMPET",
         "FISH", "FEATHER", "MAGIC WAND", "CRYSTAL BALL", "TELESCOPE", "COMPASS", "BELL", "SCROLL",
         "EGG", "RED APPLE", "HONEY POT", "BALL OF YARN", "SPOOL OF THREAD", "GEM STONE",
         "HOURGLASS WITH FLOWING SAND", "MAPLE LEAF", "SUNFLOWER", "TROPICAL FISH", "BOUQUET",
         "BOOKS", "ALARM CLOCK", "CROWN", "ACCORDION", "GUITAR", "MUSHROOM"]
TETHERED = {"BALLOON", "KITE", "FISH", "TROPICAL FISH"}     # flown on a string

CONTAINERS = ["TEACUP WITHOUT HANDLE", "HOT BEVERAGE", "TOP HAT", "SPIRAL SHELL", "BATHTUB",
              "BASKET", "BUCKET", "EMPTY NEST", "WINE GLASS", "AMPHORA", "CUP WITH STRAW"]
BOATS = ["ROWBOAT", "SAILBOAT", "CANOE"]
CLOCKS = ["ALARM CLOCK", "MANTELPIECE CLOCK", "WATCH", "HOURGLASS WITH FLOWING SAND", "HOURGLASS",
          "STOPWATCH"]
BUILDINGS = ["HOUSE BUILDING", "HUT", "CHURCH", "EUROPEAN CASTLE", "JAPANESE CASTLE",
             "CLASSICAL BUILDING", "HOUSE WITH GARDEN", "DERELICT HOUSE BUILDING", "TENT",
             "CIRCUS TENT", "CLIP CROOKED HOUSE", "CLIP LIGHTHOUSE", "CLIP CHALET", "CLIP TOWN HOUSES",
             "CLIP IGLOO", "CLIP LOG CABIN", "CLIP TIMBER HOUSE", "CLIP STILT HOUSE", "CLIP STONE COTTAGE",
             "CLIP BUBBLE HOUSE"]
BEARERS = ["WHALE", "SPOUTING WHALE", "TURTLE", "ELEPHANT", "SNAIL", "MAMMOTH", "SAUROPOD",
           "HIPPOPOTAMUS", "DROMEDARY CAMEL", "CLIP ORCA", "CLIP COW", "CLIP BEAR"]
FARE = ["BIRTHDAY CAKE", "TEAPOT", "HOT BEVERAGE", "RED APPLE", "PEAR", "BREAD", "CHEESE WEDGE",
        "SHORTCAKE", "HONEY POT", "WINE GLASS", "PINEAPPLE", "CROISSANT", "EGG", "WATERMELON",
        "CHERRIES", "GRAPES", "LEMON", "FORTUNE COOKIE", "DOUGHNUT", "BOTTLE WITH POPPING CORK"]
GUESTS = ["CAT", "DOG", "RABBIT", "OWL", "PENGUIN", "HEDGEHOG", "RACCOON", "SLOTH", "GOAT",
          "SHEEP", "DUCK", "FLAMINGO", "LLAMA", "DODO", "CHIPMUNK", "BEAVER", "CRAB", "RAT",
          "SNAIL", "TURTLE", "MOUSE", "BADGER", "ROOSTER", "PARROT", "PEACOCK", "MONKEY",
          "ORANGUTAN", "KOALA", "GHOST", "SNOWMAN", "CLIP PIG", "CLIP COW", "CLIP FROG", "CLIP BEAR",
          "CLIP PUFFIN", "CLIP WIZARD DOG", "CLIP OLD WOMAN", "CLIP SQUIRREL", "CLIP LITTLE DRAGON",
          "CLIP BARN OWL", "CLIP OLD SAILOR", "CLIP BALLERINA"]
FURNITURE = ["CHAIR", "COUCH AND LAMP", "BED", "POTTED PLANT", "RADIO", "BLACK TELEPHONE",
             "GUITAR", "BOOKS", "MANTELPIECE CLOCK", "BATHTUB", "TEDDY BEAR", "NESTING DOLLS"]
SHADOWS = ["DRAGON", "T-REX", "ELEPHANT", "GORILLA", "OWL", "CAT", "RABBIT", "SNAIL", "OCTOPUS",
           "SPIDER", "BAT", "DEER", "TIGER", "SAUROPOD", "CROCODILE", "HORSE", "KANGAROO", "WHALE",
           "CLIP LION", "CLIP SCORPION", "CLIP MANTIS", "CLIP LITTLE DRAGON", "CLIP BEAR", "CLIP SWAN"]
SWIMMERS = ["FISH", "TROPICAL FISH", "OCTOPUS", "SQUID", "DOLPHIN", "SHARK", "WHALE", "SEAL",
            "TURTLE", "CRAB", "LOBSTER", "SPIRAL SHELL", "CORAL", "BLOWFISH", "CLIP ORCA",
            "CLIP SWAN", "CLIP PUFFIN"]
WONDERS = ["RINGED PLANET", "COMET", "CLOUD", "RAINBOW", "SHOOTING STAR",
           "PARACHUTE", "KITE", "BUTTERFLY", "DOVE OF PEACE", "EAGLE", "FLYING SAUCER", "FEATHER",
           "LEAF FLUTTERING IN WIND", "CHERRY BLOSSOM", "SNOWFLAKE", "DRAGON", "SPOUTING WHALE",
           "UMBRELLA", "AIRPLANE", "ROCKET", "BAT", "SAILBOAT", "HOUSE BUILDING", "KEY"]
GIANTS = ["SNAIL", "RABBIT", "SPOUTING WHALE", "OWL", "CAT", "ELEPHANT", "TURTLE", "OCTOPUS",
          "MOYAI", "FERRIS WHEEL", "EUROPEAN CASTLE", "VOLCANO", "TEAPOT",
          "ALARM CLOCK", "HOURGLASS WITH FLOWING SAND", "CRYSTAL BALL", "TOP HAT", "MUSHROOM",
          "RED APPLE", "PEAR", "BIRTHDAY CAKE", "ELECTRIC LIGHT BULB", "KEY", "BELL", "CHAIR",
          "TEDDY BEAR", "PINEAPPLE", "DECIDUOUS TREE", "CACTUS", "SUNFLOWER", "GEAR", "CANDLE",
          "VIOLIN", "TELESCOPE", "MAMMOTH", "SAUROPOD", "CAROUSEL HORSE", "JACK-O-LANTERN",
          "CLIP LIGHTHOUSE", "CLIP CROOKED HOUSE", "CLIP LION", "CLIP BARN OWL", "CLIP ORANGE TREE",
          "CLIP BUBBLE HOUSE"]
DWELLINGS = ["SPIRAL SHELL", "MANTELPIECE CLOCK", "ALARM CLOCK", "TOP HAT", "WRAPPED PRESENT",
             "TEAPOT", "HOT BEVERAGE", "MUSHROOM", "RED APPLE", "PEAR", "EGG", "PINEAPPLE",
             "BIRTHDAY CAKE", "JACK-O-LANTERN", "HONEY POT", "LEMON", "STRAWBERRY", "BREAD",
             "CHEESE WEDGE", "WATERMELON", "BOOKS", "AMPHORA", "TEACUP WITHOUT HANDLE"]
GROUNDED = ["ROCK", "WOOD", "POTTED PLANT", "MUSHROOM", "CACTUS", "SEEDLING", "TULIP", "ROSE",
            "FOUNTAIN", "POSTBOX", "BICYCLE", "LADDER", "BASKET", "BUCKET", "UMBRELLA", "CHAIR",
            "TENT", "HUT", "SUNFLOWER", "EVERGREEN TREE", "DECIDUOUS TREE", "PALM TREE",
            "NEST WITH EGGS", "ANCHOR", "LOCK", "BELL", "WRAPPED PRESENT", "BOOKS", "CANDLE",
            "TELESCOPE", "RADIO", "CLIP ORANGE TREE"]

NAMES = {"HOURGLASS WITH FLOWING SAND": "hourglass", "TEACUP WITHOUT HANDLE": "teacup",
         "SNOWMAN WITHOUT SNOW": "snowman", "SPOUTING WHALE": "whale", "DROMEDARY CAMEL": "camel",
         "COUCH AND LAMP": "couch", "BLACK TELEPHONE": "telephone", "HOT BEVERAGE": "cup of tea",
         "BOTTLE WITH POPPING CORK": "bottle", "CUP WITH STRAW": "cup", "MOYAI": "stone head",
         "LEAF FLUTTERING IN WIND": "leaf", "DOVE OF PEACE": "dove", "EUROPEAN CASTLE": "castle",
         "JAPANESE CASTLE": "pagoda castle", "HOUSE BUILDING": "house", "T-REX": "dinosaur",
         "SAUROPOD": "long-necked dinosaur", "MAN IN BUSINESS SUIT LEVITATING": "floating man",
         "ELECTRIC LIGHT BULB": "light bulb", "MANTELPIECE CLOCK": "clock",
         "DERELICT HOUSE BUILDING": "ruined house", "CLASSICAL BUILDING": "temple"}


def label(name: str) -> str:
    """The English word for a drawing, as the cards' object names and titles use it."""
    if name in HEROES:
        return HEROES[name]
    if clipart.is_clip(name):
        return clipart.label(name)
    return NAMES.get(name, name.lower())


def every_name() -> set[str]:
    """Every drawing the story deck may use (their boxes are measured into boxes.json)."""
    out = set(HEROES) | set(CARRY) | set(GUESTS) | set(SHADOWS) | set(SWIMMERS)
    for pool in (CONTAINERS, BOATS, CLOCKS, BUILDINGS, BEARERS, FARE, FURNITURE, WONDERS,
                 GIANTS, DWELLINGS, GROUNDED):
        out |= set(pool)
    return out
