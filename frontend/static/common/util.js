// Small shared helpers: localStorage that never throws, room action names, names.

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
};

export const ROOM_ACTIONS = new Set([
  'start', 'kick', 'pause', 'resume', 'end', 'again', 'lock', 'unlock', 'settings', 'add_bot', 'take_seat',
  'approve_claim', 'deny_claim', 'unban', 'hide', 'advance',
]);

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
