"""The curated OpenMoji objects a default-deck card is composed from.

Each object is a Unicode name (its OpenMoji SVG is found by code point) with the roles it
can play in a scene:
    G  giant: huge on the horizon or filling a room
    S  sky: floats in the air (or in the water, underwater)
    F  foreground: small, standing near the viewer (gets a shadow)
    D  dwelling: a giant object lived in (gets a little door and a lit window)
    W  floats on water
    T  tethered: hangs on a string (balloon, kite)
Flags, symbols, letters, digits, hand gestures and faces are left out on purpose.
"""

OBJECTS = {
    # creatures
    "SNAIL": "GF", "RABBIT": "GF", "SPOUTING WHALE": "GSW", "WHALE": "GSW", "FISH": "SF",
    "TROPICAL FISH": "S", "OWL": "GF", "CAT": "GF", "ELEPHANT": "GSF", "TURTLE": "GSFW",
    "OCTOPUS": "GSW", "BUTTERFLY": "S", "SNAKE": "GF", "BIRD": "SF", "DEER": "GF",
    "HORSE": "GF", "DROMEDARY CAMEL": "GF", "SLOTH": "GF", "SWAN": "FW", "FLAMINGO": "GF",
    "PEACOCK": "GF", "PARROT": "SF", "PENGUIN": "F", "DOVE OF PEACE": "S", "EAGLE": "S",
    "DUCK": "FW", "BAT": "S", "HEDGEHOG": "GF", "CHIPMUNK": "F", "BADGER": "F",
    "RACCOON": "F", "MOUSE": "GF", "DOG": "GF", "POODLE": "F", "KOALA": "F", "TIGER": "GF",
    "LEOPARD": "F", "CROCODILE": "GF", "LIZARD": "F", "DRAGON": "GS", "SAUROPOD": "G",
    "T-REX": "G", "SEAL": "FW", "SHARK": "SW", "DOLPHIN": "SW", "CRAB": "GF", "LOBSTER": "F",
    "SQUID": "S", "SPIRAL SHELL": "GDF", "LADY BEETLE": "GF", "ANT": "F", "HONEYBEE": "S",
    "SNOWMAN WITHOUT SNOW": "GF", "MAMMOTH": "G", "BISON": "F", "BEAVER": "F", "OTTER": "FW",
    "KANGAROO": "F", "GOAT": "F", "RAM": "GF", "SHEEP": "F", "COW": "F", "PIG": "F",
    "HIPPOPOTAMUS": "GW", "RHINOCEROS": "G", "GORILLA": "G", "ORANGUTAN": "F", "MONKEY": "F",
    "ROOSTER": "F", "HATCHING CHICK": "F", "WORM": "F", "CRICKET": "F", "SPIDER": "F",
    # buildings and places
    "HOUSE BUILDING": "SFW", "HOUSE WITH GARDEN": "SF", "EUROPEAN CASTLE": "GS",
    "JAPANESE CASTLE": "GS", "CHURCH": "GS", "HUT": "SF", "TENT": "F",
    "CLASSICAL BUILDING": "GS", "TOKYO TOWER": "G", "MOYAI": "G", "FERRIS WHEEL": "G",
    "CAROUSEL HORSE": "GF", "CIRCUS TENT": "GS", "FOUNTAIN": "GF",
    "DERELICT HOUSE BUILDING": "GS", "STATUE OF LIBERTY": "G",
    # vessels and vehicles
    "SAILBOAT": "SW", "ROWBOAT": "SFW", "CANOE": "SFW", "SHIP": "GSW", "FERRY": "W",
    "ANCHOR": "SF", "ROCKET": "S", "FLYING SAUCER": "S", "AIRPLANE": "S", "PARACHUTE": "S",
    "STEAM LOCOMOTIVE": "GF", "BICYCLE": "F", "AUTOMOBILE": "F", "SLED": "F",
    "SKATEBOARD": "F", "ROLLER SKATE": "F", "TRACTOR": "F",
    # things
    "KEY": "GSF", "OLD KEY": "GSF", "LOCK": "GF", "MANTELPIECE CLOCK": "GDF", "ALARM CLOCK": "GDSF",
    "HOURGLASS WITH FLOWING SAND": "GSF", "WATCH": "S", "ELECTRIC LIGHT BULB": "GSF",
    "CANDLE": "GF", "DIYA LAMP": "F", "IZAKAYA LANTERN": "ST", "BOOKS": "GF", "OPEN BOOK": "GSF",
    "CLOSED BOOK": "SF", "SCROLL": "SF", "PERFORMING ARTS": "S", "VIOLIN": "GSF",
    "TRUMPET": "SF", "GUITAR": "GF", "DRUM WITH DRUMSTICKS": "GF", "ACCORDION": "GF",
    "SAXOPHONE": "SF", "BANJO": "F", "LONG DRUM": "F", "BELL": "GS", "TELESCOPE": "GF",
    "COMPASS": "SF", "CRYSTAL BALL": "GF", "MAGIC WAND": "SF", "MIRROR": "GF", "DOOR": "GF",
    "WINDOW": "GS", "CHAIR": "GF", "BED": "GF", "COUCH AND LAMP": "F", "BATHTUB": "GFW",
    "LADDER": "F", "UMBRELLA": "SF", "CLOSED UMBRELLA": "F", "TOP HAT": "GDSF", "CROWN": "GSF",
    "RING": "S", "GEM STONE": "GSF", "WRAPPED PRESENT": "GDF", "BALLOON": "ST", "KITE": "ST",
    "TEAPOT": "GDF", "HOT BEVERAGE": "GDF", "TEACUP WITHOUT HANDLE": "GDF", "AMPHORA": "GF",
    "MAGNET": "S", "TEDDY BEAR": "GF", "NESTING DOLLS": "GF", "YO-YO": "ST", "SPOOL OF THREAD": "F",
    "BALL OF YARN": "GF", "SEWING NEEDLE": "S", "KNOT": "F", "BLACK SCISSORS": "S",
    "FEATHER": "S", "BASKET": "F", "TROPHY": "G", "GAME DIE": "GSF",
    "POSTBOX": "F", "BOOMERANG": "S", "BLACK TELEPHONE": "GF", "RADIO": "GF", "CAMERA": "F",
    "FILM PROJECTOR": "F", "SPOON": "S", "BOTTLE WITH POPPING CORK": "SF", "WINE GLASS": "F",
    "NAZAR AMULET": "S", "BROOM": "SF", "COIN": "S", "HAMMER": "F", "AXE": "F", "SHIELD": "F",
    "GEAR": "GS", "CHAINS": "F", "WHEEL": "GF", "ROCK": "GF", "WOOD": "F",
    "BUCKET": "F", "NEST WITH EGGS": "F", "EMPTY NEST": "F",
    "MOUSE TRAP": "F",
    # plants
    "EVERGREEN TREE": "GF", "DECIDUOUS TREE": "GF", "PALM TREE": "GF", "CACTUS": "GF",
    "MUSHROOM": "GDF", "ROSE": "GF", "TULIP": "GF", "SUNFLOWER": "GF", "HERB": "F",
    "CHERRY BLOSSOM": "GS", "FALLEN LEAF": "S", "MAPLE LEAF": "S", "FOUR LEAF CLOVER": "S",
    "HIBISCUS": "GF", "LOTUS": "FW", "POTTED PLANT": "GF", "SEEDLING": "GF", "EAR OF RICE": "F",
    "TANABATA TREE": "G", "WILTED FLOWER": "F", "BOUQUET": "F", "LEAF FLUTTERING IN WIND": "S",
    "CORAL": "GF",
    # food
    "RED APPLE": "GDF", "PEAR": "GDF", "CHERRIES": "SF", "EGG": "GDF", "CHEESE WEDGE": "GD",
    "PINEAPPLE": "GD", "WATERMELON": "GF", "LEMON": "GDF", "BANANA": "SF", "GRAPES": "F",
    "STRAWBERRY": "GDF", "PEACH": "GF", "CARROT": "GF", "JACK-O-LANTERN": "GDF",
    "SHORTCAKE": "GF", "BIRTHDAY CAKE": "GDF", "CROISSANT": "GS", "FORTUNE COOKIE": "GF",
    "DOUGHNUT": "GS", "LOLLIPOP": "SF", "SOFT ICE CREAM": "GF", "HONEY POT": "GDF", "BREAD": "GD",
    "PRETZEL": "S",
    # sky things
    "RINGED PLANET": "S", "COMET": "S", "CLOUD": "S", "RAINBOW": "S", "DROPLET": "S",
    "SNOWFLAKE": "S", "SHOOTING STAR": "S", "VOLCANO": "G",
}


def roles(name: str) -> str:
    return OBJECTS[name]


def with_role(role: str) -> list[str]:
    return sorted(n for n, r in OBJECTS.items() if role in r)
