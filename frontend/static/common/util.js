// Small shared helpers: localStorage that never throws, the room actions' names (served), names.

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
};

/** The room's own action types (partyhub/rooms/core/schema.py), served in the page as
 * <script id="room-actions" type="application/json">: every other action is the game's. */
export const ROOM_ACTIONS = new Set(served('room-actions') || []);

function served(id) {
  const el = globalThis.document && globalThis.document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

export function playerName(view, id) {
  const p = view && view.room.players.find((x) => x.id === id);
  return p ? p.name : '';
}

/** "round_seconds" -> "Round seconds" */
export function humanise(name) {
  const s = String(name).replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** JSON POST helper: resolves {status, body}. */
export async function postJSON(url, data) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(data || {}),
  });
  let body = null;
  try { body = await r.json(); } catch (e) { /* not JSON */ }
  return { status: r.status, body };
}
