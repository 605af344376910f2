"""The front end's strings are complete in en/uk/ru, no JS parses HTML, and the phone page is small."""
import gzip
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static"
COMMON = STATIC / "common"
TESTGAME_STATIC = ROOT / "tests" / "testgame" / "static"   # the test game's (registered by tests/conftest.py)
LANGS = ("en", "uk", "ru")
PLURAL_FORMS = {"en": {"one", "other"}, "uk": {"one", "few", "many", "other"}, "ru": {"one", "few", "many", "other"}}


PACKS = [COMMON, COMMON / "handover", COMMON / "photos", COMMON / "tv"] + sorted(p for p in (STATIC / "games").iterdir() if p.is_dir())


def pack(folder: Path) -> dict:
    """{lang: {key: value}} of one pack's data files, <folder>/i18n/<lang>.js: `export default`
    and a strict JSON object (a module the browser imports; no other JS in it)."""
    table = {}
    for lang in LANGS:
        text = (folder / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
        m = re.fullmatch(r"(?:(?://[^\n]*)?\n)*export default (\{.*\});\n", text, re.S)
        assert m, f"{folder.name}/i18n/{lang}.js is comment lines, then `export default {{...}};`"
        table[lang] = json.loads(m.group(1))
    return table


def strings() -> dict:
    return pack(COMMON)


def params(value) -> set:
    texts = [value] if isinstance(value, str) else list(value.values())
    return {p for s in texts for p in re.findall(r"\{(\w+)\}", s)}


@pytest.mark.parametrize("folder", PACKS, ids=lambda p: p.name)
def test_every_language_has_every_key(folder):
    table = pack(folder)
    keys = set().union(*map(set, table.values()))
    for lang in LANGS:
        assert set(table[lang]) == keys, f"{folder.name} {lang}: missing {sorted(keys - set(table[lang]))}"


@pytest.mark.parametrize("folder", PACKS, ids=lambda p: p.name)
def test_no_string_is_empty_plural_forms_are_complete_and_placeholders_match(folder):
    table = pack(folder)
    for key, en in table["en"].items():
        plural = isinstance(en, dict)
        for lang in LANGS:
            value = table[lang][key]
            assert isinstance(value, dict) == plural, f"{lang} {key}: plural in one language, not in another"
            if plural:
                assert PLURAL_FORMS[lang] <= set(value), f"{lang} {key}: plural forms {sorted(value)}"
                assert all(isinstance(v, str) and v.strip() for v in value.values()), f"{lang} {key}"
            else:
                assert isinstance(value, str) and value.strip(), f"{lang} {key} is empty"
            assert params(value) == params(en), f"{lang} {key}: placeholders differ from English"


def test_every_string_has_one_place_the_data_files():
    """No module keeps a dictionary of its own: strings live only in the i18n/<lang>.js files."""
    dictionary = re.compile(r"json-start|\b(STRINGS|extend)\s*[=(]|\ben\s*:\s*\{\s*['\"][a-z_]+\.")
    offenders = [str(p.relative_to(ROOT)) for p in STATIC.rglob("*.js")
                 if p.parent.name != "i18n" and dictionary.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"move these strings into the i18n/<lang>.js data files: {offenders}"


@pytest.mark.parametrize("folder", PACKS, ids=lambda p: p.name)
def test_every_literal_key_used_exists(folder):
    """A game's modules see the common strings and their own; the common modules only theirs."""
    keys = set(strings()["en"]) | set(pack(folder)["en"])
    used = set()
    for path in folder.glob("*.js"):
        used |= set(re.findall(r"\bt\('([a-z_]+(?:\.[a-z_]+)+)'", path.read_text(encoding="utf-8")))
    assert used, "no t('...') calls found"
    assert used <= keys, f"unknown keys: {sorted(used - keys)}"


def test_no_frontend_js_parses_html():
    bad = re.compile(r"\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write\(|createContextualFragment")
    offenders = [str(p.relative_to(ROOT)) for p in STATIC.rglob("*.js") if bad.search(p.read_text(encoding="utf-8"))]
    assert not offenders, f"set text with textContent, never HTML: {offenders}"


def test_template_catalogs_are_translated_and_compiled():
    for lang in ("uk", "ru"):
        po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
        mo = po.with_suffix(".mo")
        assert mo.exists(), f"compile {po} (msgfmt -o {mo} {po})"
        text = po.read_text(encoding="utf-8")
        pairs = re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', text, re.M)
        assert pairs and all(s for _, s in pairs), f"{lang}: untranslated entries"
        assert mo.stat().st_mtime >= po.stat().st_mtime - 1, f"{mo} is older than {po}"


def phone_modules() -> set:
    """The common modules a phone page loads before any game's own: app.js and what it imports
    statically, transitively (a dynamic `import()`, such as the TV's own modules in common/tv/ or its deck
    drawer, is not loaded by a phone)."""
    seen, todo = set(), [COMMON / "app.js"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r"^\s*import(?:\s+[^;'\"(]*?\s*from)?\s*['\"](\./[\w./-]+\.js)['\"]", text, re.M):
            todo.append((path.parent / name).resolve())
    return seen


def page_styles() -> list:
    """The stylesheets every page links (base.html), in their order."""
    base = (ROOT / "frontend" / "templates" / "partyhub" / "base.html").read_text(encoding="utf-8")
    return [STATIC / name for name in re.findall(r"<link rel=\"stylesheet\" href=\"{% static '([\w/.-]+\.css)' %}\"", base)]


def test_the_split_stylesheet_keeps_its_cascade():
    """common.css was one file: every page links common.css then phone.css, and results.js puts
    results.css (the results screen: not in the phone's first download) between them, where its
    rules stood, so the three read as the one file did."""
    assert page_styles() == [COMMON / "common.css", COMMON / "phone.css"]
    base = (ROOT / "frontend" / "templates" / "partyhub" / "base.html").read_text(encoding="utf-8")
    assert re.search(r"common/phone\.css' %}\" id=\"phone-css\"", base)
    results = (COMMON / "results.js").read_text(encoding="utf-8")
    assert "getElementById('phone-css')" in results and "sheet('./results.css', (l) => (next ? next.before(l)" in results
    assert (COMMON / "results.css").is_file()


def test_phone_page_fits_the_budget():
    """What a phone downloads before any game's own: app.js's static imports, the stylesheets
    every page links (common.css, phone.css) and the common strings of one language (the
    largest: Cyrillic takes two bytes a letter)."""
    styles = page_styles()
    assert COMMON / "common.css" in styles and all(p.is_file() for p in styles)
    files = sorted(phone_modules()) + styles
    assert COMMON / "socket.js" in files and not [p for p in files if p.name == "decks.js" or p.parent.name == "tv"]
    assert not [p for p in files if p.parent.name == "i18n"], "a page imports its one language dynamically"
    # only the VIP's phone draws the picker, and the results come at a game's end (lazy.js)
    assert not [p.name for p in files if p.name in ("picker.js", "results.js")], "load these on demand"
    # the host's hide button: only the TV's view offers `hide`; the TV imports it with its own modules
    assert not [p.name for p in files if p.name in ("hide.js", "results.css")], "the TV's, or a game's end's"
    sizes = {p.name: len(gzip.compress(p.read_bytes(), 9)) for p in files}
    langs = {lang: len(gzip.compress((COMMON / "i18n" / f"{lang}.js").read_bytes(), 9)) for lang in LANGS}
    lang = max(langs, key=langs.get)
    sizes[f"i18n/{lang}.js"] = langs[lang]
    total = sum(sizes.values())
    assert total <= 60 * 1024, f"the phone's common JS+CSS+strings are {total} bytes gzipped: {sizes}"


def registered_games() -> list:
    """The registered games (pytest-django has set Django up, so the game apps are ready)."""
    from partyhub.rooms.gateway import registry
    games = registry.listed()
    assert games, "no game is registered"
    return games


def game_strings(game) -> dict:
    """{lang: {key: value}} a game's lobby tile and options see: the common pack, then the game's
    own (games/<id>/i18n; the lobby picker loads every listed game's pack, coach.js: loadGames)."""
    common, own = strings(), pack(next(base / "games" / game.id for base in (STATIC, TESTGAME_STATIC)
                                       if (base / "games" / game.id / "i18n").is_dir()))
    return {lang: {**common[lang], **own[lang]} for lang in LANGS}


def option_keys(game, name) -> tuple:
    return f"opt.{game.id}.{name}", f"opt.{name}"


def choice_keys(game, name, value) -> tuple:
    return f"choice.{game.id}.{name}.{value}", f"choice.{name}.{value}", f"choice.{value}"


def test_every_option_of_every_game_has_a_label_in_every_language():
    # the picker's optionLabel: opt.<game>.<name> in the game's pack, else opt.<name>
    missing = []
    for game in registered_games():
        table = game_strings(game)
        missing += [f"{lang} opt.{game.id}.{name}" for name in game.options for lang in LANGS
                    if not any(k in table[lang] for k in option_keys(game, name))]
    assert not missing, f"add to frontend/static/games/<game>/i18n/<lang>.js: {missing}"


def test_every_choice_of_every_game_has_a_label_in_every_language():
    missing = []
    for game in registered_games():
        table = game_strings(game)
        for name, option in game.options.items():
            if option.deck:         # deck ids come from the platform's decks (partyhub/decks)
                continue
            for value in option.spec().get("choices") or ():
                keys = choice_keys(game, name, value)
                missing += [f"{lang} {keys[0]}" for lang in LANGS if not any(k in table[lang] for k in keys)]
    assert not missing, f"add to frontend/static/games/<game>/i18n/<lang>.js: {missing}"


def test_the_shell_holds_no_games_option_strings():
    """Adding a game never means editing the shell (issue 29, part 7): a game's option labels
    and choices are in its own pack. The common pack keeps the platform's deck option (`opt.deck`,
    the standard deck `choice.default`) and the picker's own words (`opt.seconds`, `opt.off`...)."""
    common = strings()["en"]
    found = []
    for game in registered_games():
        for name, option in game.options.items():
            if option.deck:
                continue
            keys = list(option_keys(game, name))
            keys += [k for value in option.spec().get("choices") or () for k in choice_keys(game, name, value)]
            found += [k for k in keys if k in common]
    assert not found, f"move to the game's own i18n/<lang>.js: {sorted(set(found))}"
    # and nothing else there is a game's: every opt.* / choice.* string is one the shell uses
    used = {k for p in COMMON.rglob("*.js")
            for k in re.findall(r"\bt\('((?:opt|choice)\.[a-z_.]+)'", p.read_text(encoding="utf-8"))}
    platform = {"opt.deck", "choice.default"}
    extra = sorted(k for k in common if k.split(".")[0] in ("opt", "choice") and k not in used | platform)
    assert not extra, f"a game's strings in the shell: {extra}"


@pytest.mark.parametrize("game", sorted(p.name for p in (STATIC / "games").iterdir() if p.is_dir()))
def test_every_refusal_of_a_game_has_a_phone_message_in_every_language(game):
    """A refusal the phone shows in the player's language, not the server's English: sketch's
    `already_guessed` (someone else got it) and `already_won` (you got it) had none."""
    codes = {c for f in (ROOT / "games" / game).rglob("*.py")
             for c in re.findall(r'Rejected\(\s*"([a-z_]+)"', f.read_text(encoding="utf-8"))}
    assert codes, "no refusals found"
    common, own = strings(), pack(STATIC / "games" / game)
    for lang in LANGS:
        keys = set(common[lang]) | set(own[lang])
        missing = sorted(c for c in codes if f"err.{game}.{c}" not in keys and f"err.{c}" not in keys)
        assert not missing, f"{game} {lang}: no err.{game}.<code> for {missing}"
    assert own["en"]["err.sketch.already_guessed"] != own["en"]["err.sketch.already_won"] if game == "sketch" else True


GENDERED = re.compile(r"(гравця|гравцю|гравцем|игрока|игроку|игроком|глядача|глядачу|зрителя|зрителю)\s+\{(name|seat|by)\}"
                      r"|\((глядач|зритель)\)")


@pytest.mark.parametrize("folder", PACKS, ids=lambda p: p.name)
def test_a_persons_name_is_never_given_a_gender(folder):
    """"місце гравця {name}" calls Olena a man ("гравця" is masculine) and a name cannot be
    declined to fit: a seat is named as it is shown («{seat}»), a person without a noun."""
    table = pack(folder)
    for lang in ("uk", "ru"):
        for key, value in table[lang].items():
            for text in [value] if isinstance(value, str) else value.values():
                assert not GENDERED.search(text), f"{folder.name} {lang} {key}: {text}"


@pytest.mark.parametrize("game", sorted(p.name for p in (STATIC / "games").iterdir() if p.is_dir()))
def test_a_game_calls_its_cards_one_way_in_ukrainian(game):
    """Association said "карта" on its cards and "Картка 3" in their names; jinx "картка" and
    "малюнки карт": one game, one word (either is Ukrainian)."""
    texts = [t for v in pack(STATIC / "games" / game)["uk"].values()
             for t in ([v] if isinstance(v, str) else v.values())]
    kartka = [t for t in texts if re.search(r"(?i)\bкартк", t)]
    karta = [t for t in texts if re.search(r"(?i)\bкарт(а|и|у|ою|і|ах|ам|ами)?\b", t)]
    assert not (kartka and karta), (kartka[:3], karta[:3])
