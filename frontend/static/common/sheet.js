// A game's stylesheet, linked once, and a promise that it applies (or failed to load: the
// screen draws anyway). A game module exports it as `ready`, and the shell draws the game only
// once it has resolved (gamescreen.js): drawn before, the TV showed the game unstyled for a
// moment at its start (jinx's square, piles and scores stacked down the screen: CI, issue 27).
const sheets = new Map();

/** The stylesheet at `href` (an absolute URL: new URL('./x.css', import.meta.url).href). */
export function sheet(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((done) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = done;
      link.onerror = done;
      document.head.append(link);
    }));
  }
  return sheets.get(href);
}
