"""The front end's strings are complete in en/uk/ru, no JS parses HTML, and the phone page is small."""
import gzip
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static"
COMMON = STATIC / "common"
LANGS = ("en", "uk", "ru")
PLURAL_FORMS = {"en": {"one", "other"}, "uk": {"one", "few", "many", "other"}, "ru": {"one", "few", "many", "other"}}


PACKS = [COMMON] + sorted(p for p in (STATIC / "games").iterdir() if p.is_dir())


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
    statically, transitively (a dynamic `import()`, such as the TV's volume control or deck drawer, is not
    loaded by a phone)."""
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


def test_phone_page_fits_the_budget():
    """What a phone downloads before any game's own: app.js's static imports, common.css and the
    common strings of one language (the largest: Cyrillic takes two bytes a letter)."""
    files = sorted(phone_modules()) + [COMMON / "common.css"]
    assert COMMON / "socket.js" in files and not {COMMON / "volume.js", COMMON / "decks.js"} & set(files)
    assert not [p for p in files if p.parent.name == "i18n"], "a page imports its one language dynamically"
    sizes = {p.name: len(gzip.compress(p.read_bytes(), 9)) for p in files}
    langs = {lang: len(gzip.compress((COMMON / "i18n" / f"{lang}.js").read_bytes(), 9)) for lang in LANGS}
    lang = max(langs, key=langs.get)
    sizes[f"i18n/{lang}.js"] = langs[lang]
    total = sum(sizes.values())
    assert total <= 60 * 1024, f"the phone's common JS+CSS+strings are {total} bytes gzipped: {sizes}"


def registered_games() -> list:
    """The registered games (pytest-django has set Django up, so the game apps are ready)."""
    from partyhub.rooms import registry
    games = registry.listed()
    assert games, "no game is registered"
    return games


def test_every_option_of_every_game_has_a_label_in_every_language():
    # the lobby picker runs before any game module loads: option labels live in common i18n.js
    table = strings()
    missing = [f"{lang} opt.{name} ({game.id})" for game in registered_games() for name in game.options
               for lang in LANGS if f"opt.{name}" not in table[lang]]
    assert not missing, f"add to frontend/static/common/i18n/<lang>.js: {missing}"


def test_every_choice_of_every_game_has_a_label_in_every_language():
    table = strings()
    missing = []
    for game in registered_games():
        for name, option in game.options.items():
            if option.deck:         # deck ids come from the platform's decks (partyhub/decks)
                continue
            for value in option.spec().get("choices") or ():
                keys = (f"choice.{game.id}.{name}.{value}", f"choice.{name}.{value}", f"choice.{value}")
                missing += [f"{lang} {keys[1]} ({game.id})" for lang in LANGS
                            if not any(k in table[lang] for k in keys)]
    assert not missing, f"add to frontend/static/common/i18n/<lang>.js: {missing}"
