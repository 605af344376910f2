// The front end's strings: one data file per language and pack, loaded only for the language in
// use. The common pack is common/i18n/<lang>.js; a game's own strings are games/<id>/i18n/<lang>.js,
// loaded with the game's module (app.js). Each file is `export default {key: value}` (strict JSON;
// tests/frontend/test_i18n_complete.py checks that every key is in en, uk and ru).
// A value is a string with {param} slots, or plural forms {one, few, many, other} chosen by {n}.
// A game's option labels live in its own pack (the lobby picker loads every listed game's pack,
// coach.js: loadGames): opt.<game>.<name> and choice.<game>.<name>.<value>; the common pack keeps
// the platform's (opt.deck, choice.default). Refusals: err.<code> there, err.<game>.<code> in a game.

export const LANGS = ['en', 'uk', 'ru'];
const COMMON = new URL('./i18n/', import.meta.url).href;
const packs = [COMMON];       // the folders whose strings are in use: common, then each game loaded
const loads = new Map();      // folder + lang -> the promise of its strings
const tables = {};            // lang -> {key: value}, every pack loaded for that language
const plurals = {};
let current = 'en';
let wanted = 'en';            // the language last asked for: one asked earlier that loads later yields

/** `lang` if the front end speaks it, else English. */
export function pick(lang) {
  return LANGS.includes(lang) ? lang : 'en';
}

function load(folder, lang) {
  const id = folder + lang;
  if (!loads.has(id)) {
    loads.set(id, import(`${folder}${lang}.js`).then((m) => {
      Object.assign(tables[lang] || (tables[lang] = {}), m.default);
    }, (e) => { loads.delete(id); console.warn(e); }));   // a game with no strings (the generic one)
  }
  return loads.get(id);
}

/** Load `lang`'s strings of every pack in use, then make `lang` the language t() speaks
 * (unless another was asked for meanwhile). Resolves to the language spoken. */
export async function useLang(lang) {
  lang = pick(lang);
  wanted = lang;
  await Promise.all(packs.map((f) => load(f, lang)));
  if (wanted === lang) {
    current = lang;
    document.documentElement.lang = lang;
  }
  return current;
}

/** A game's strings (`folder`, see gamePack) join the packs in use, loaded for the language
 * spoken and the one asked for. */
export function addPack(folder) {
  if (!packs.includes(folder)) packs.push(folder);
  return Promise.all([load(folder, current), load(folder, wanted)]);
}

/** A pack's folder URL: games/<id>/i18n/ under the static root. */
export function gamePack(staticRoot, id) {
  return new URL(`${staticRoot}games/${id}/i18n/`, location.href).href;
}

export function getLang() {
  return current;
}

export function has(key) {
  return key in (tables[current] || {});
}

function form(value, n) {
  if (typeof value === 'string') return value;
  if (!plurals[current]) plurals[current] = new Intl.PluralRules(current);
  const cat = plurals[current].select(Number(n) || 0);
  return value[cat] ?? value.other ?? Object.values(value)[0];
}

/** t('lobby.players', {n: 3}) -> "3 players"; unknown keys give `fallback` or the key. */
export function t(key, params, fallback) {
  let s = (tables[current] || {})[key];
  if (s == null) return fallback != null ? String(fallback) : key;
  s = form(s, params && params.n);
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return s;
}
