// The phone's language control: a small select of the languages the front end speaks, each
// named in itself. The player's choice (app.js) is kept by their seat.
import { h } from './dom.js';
import { t, getLang, LANGS } from './i18n.js';

const NATIVE = { en: 'English', uk: 'Українська', ru: 'Русский' };

/** A <select> that calls onPick(lang) when the player picks another language. */
export function langPicker(onPick) {
  const sel = h('select', { class: 'lang-pick', 'aria-label': t('lang.choose'), onchange: () => onPick(sel.value) },
    LANGS.map((l) => h('option', { value: l, lang: l, selected: l === getLang() }, NATIVE[l])));
  return sel;
}
