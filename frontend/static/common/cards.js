// A card's picture address, the one place the browser builds it (the server's twin is
// partyhub/rooms/deckpass.py). An uploaded deck's card "<deck>-<nnn>" is served only to the
// people of a room that uses the deck, through the room's pass (the view's room.deck_pass):
// /r/<code>/cards/<card>.webp?p=<pass>, the same address for the room's whole life, so the
// phone's cache keeps it. Any other card is a static file of a shipped deck: its manifest's
// relative `template` (association's view carries it), else the default deck's. The room's
// table photos are cards of its own photo deck (room.photos.deck), opened by room.photos.pass.
const UPLOADED = /^u[0-9a-f]{10}-\d{3}$/;
const SHIPPED = 'games/association/cards/{id}.webp';

export function cardUrl(view, code, staticRoot, id, template) {
  const card = encodeURIComponent(id);
  if (UPLOADED.test(id)) {
    const room = (view && view.room) || {};
    const photo = room.photos && id.startsWith(`${room.photos.deck}-`);
    const pass = (photo ? room.photos.pass : room.deck_pass) || '';
    return `/r/${encodeURIComponent(code)}/cards/${card}.webp?p=${encodeURIComponent(pass)}`;
  }
  const tpl = template && !template.startsWith('/') ? template : SHIPPED;
  return staticRoot + tpl.replace('{id}', card);
}
