// The partyhub WebSocket client: reconnect with backoff + jitter, resync by whole views,
// unique action ids, ping/pong clock offset and heartbeat, stream frames, connection status.

// The heartbeat: ping, dead-socket and coming-back timings, as docs/protocol.md ("Heartbeat")
// explains them.
export const PING_MS = 5000;
export const PONG_TIMEOUT_MS = 4000;
export const OPEN_TIMEOUT_MS = 5000;
export const TIMEOUT_RETRY_MS = 2000;
export const STALE_MS = PING_MS + PONG_TIMEOUT_MS;
export const CONNECT_GRACE_MS = 1000;

// Views name big values {$blob: hash}; a "blobs" frame brings new ones first (docs/protocol.md)
function resolve(o, have, used) {
  if (Array.isArray(o)) return o.map((x) => resolve(x, have, used));
  if (!o || typeof o !== 'object') return o;
  const h = o.$blob;
  if (typeof h === 'string') return (used[h] = have[h] || []);
  for (const k in o) o[k] = resolve(o[k], have, used);
  return o;
}

const REFUSING_CODES = new Set(['bad_token', 'unknown_token', 'forbidden', 'room_not_found', 'room_closed', 'kicked', 'unauthorized']);

export class Socket {
  /**
   * opts: {code, token, pid() -> stored player id, onView(view, v), onFrame(frame), onError(d),
   *        onStatus(status), onRefused(reason), onToken(d), onClaim(d), onHanded(d), onReplaced(),
   *        onAudience(kind, d): the audience's `tally` and `mine` frames (else onFrame)}
   * status: 'connecting' | 'open' | 'reconnecting' | 'offline' | 'closed' | 'replaced'
   * Close codes: 4003 refused or kicked (or handed: a "handed" frame came first), 4000
   * replaced by a newer connection with the same token (no reconnect), 4005 moved (a "token" frame came first: a request for a
   * seat was approved), 4008 flood,
   * 4010 the room has ended (an error frame with room_closed or room_not_found came first),
   * 4029 a limit of the server's doors (an error frame with rate_limited, too_many_sockets or
   * room_crowded came first, shown by onError): try again later, backing off harder.
   */
  constructor(opts) {
    this.o = opts;
    this.code = opts.code;
    this.token = opts.token || null;
    this.v = -1;
    this.ws = null;
    this.attempt = 0;
    this.failedBeforeOpen = 0;
    this.stopped = false;
    this.samples = [];           // [{rtt, offset}]
    this.offset = 0;             // server clock - client clock, ms
    this.rtt = null;
    this.seq = 0;
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.pingTimer = null;
    this.retryTimer = null;
    this.deadTimer = null;
    this.pingAt = 0;             // when the last ping went out (performance.now())
    this.heardAt = 0;            // when the socket last received a frame, or was made
    this.heard = 0;              // frames received by this client (the watch counts them)
    this.fresh = true;           // the current socket has received no frame yet
    this.status = null;
    const back = () => this.comeBack();
    window.addEventListener('online', back);
    window.addEventListener('pageshow', (e) => { if (e.persisted) back(); });   // back-forward cache
    document.addEventListener('resume', back);            // a frozen page thawed (Chromium)
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') back();
    });
  }

  /** The network or the page is back: replace a missing or stale socket, probe a fresh one. */
  comeBack() {
    if (this.stopped) return;
    const quiet = performance.now() - this.heardAt;
    if (!this.ws || quiet > (this.fresh ? CONNECT_GRACE_MS : STALE_MS)) { this.reconnectNow(); return; }
    if (this.ws.readyState === 1 && performance.now() - this.pingAt > 1000) this.ping();
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    return `${proto}//${location.host}/ws/rooms/${encodeURIComponent(this.code)}${q}`;
  }

  setStatus(s) {
    if (s === this.status) return;
    this.status = s;
    this.o.onStatus && this.o.onStatus(s);
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempt ? 'reconnecting' : 'connecting');
    let opened = false;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.blobs = {};
    this.heardAt = performance.now();
    this.fresh = true;
    this.watch(OPEN_TIMEOUT_MS);
    ws.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.failedBeforeOpen = 0;
      this.setStatus('open');
      this.ping();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_MS);
    };
    ws.onmessage = (ev) => {
      this.heardAt = performance.now();
      this.heard += 1;
      this.fresh = false;
      this.receive(ev.data);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;          // a replaced socket
      this.ws = null;
      clearInterval(this.pingTimer);
      clearTimeout(this.deadTimer);
      if (this.stopped) { this.setStatus('closed'); return; }
      if (ev.code === 4003) { this.refused('bad_token'); return; }       // refused / kicked
      if (ev.code === 4010) { this.refused('room_closed'); return; }     // ended (frame came first)
      if (ev.code === 4000) {                                            // another tab took this seat
        this.stop();
        this.setStatus('replaced');
        this.o.onReplaced && this.o.onReplaced();
        return;
      }
      if (ev.code === 4008) this.attempt = Math.max(this.attempt, 4);   // flood: back off harder
      if (ev.code === 4029) this.attempt = Math.max(this.attempt, 5);   // a door's limit: 6-13 s
      if (!opened) {
        this.failedBeforeOpen += 1;
        if (this.token) { this.checkRefusal(); return; }
      }
      this.scheduleRetry();
    };
  }

  /** Give the current socket up after ms unless it receives a frame meanwhile. */
  watch(ms) {
    const ws = this.ws;
    const heard = this.heard;
    clearTimeout(this.deadTimer);
    this.deadTimer = setTimeout(() => {
      if (!ws || this.ws !== ws || this.heard !== heard) return;
      const unanswered = this.fresh;       // never heard from: the network, not the server
      this.drop();
      this.scheduleRetry(unanswered ? TIMEOUT_RETRY_MS : undefined);
    }, ms);
  }

  /** Let the current socket go without waiting for its closing handshake (which a dead
   * network never completes: a browser waits up to a minute for it). */
  drop() {
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.deadTimer);
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try { ws.close(); } catch (e) { /* ignore */ }
    }
  }

  /** The socket died before opening while holding a token: find out whether it is refused. */
  async checkRefusal() {
    try {
      const quick = typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(OPEN_TIMEOUT_MS) : undefined;
      const r = await fetch(`/api/rooms/${encodeURIComponent(this.code)}`, { cache: 'no-store', signal: quick });
      if (r.status === 404) { this.refused('room_not_found'); return; }
      if (r.status === 410) { this.refused('room_closed'); return; }
      const pid = this.o.pid && this.o.pid();
      if (r.ok && pid) {
        const room = await r.json();
        if (!(room.players || []).some((p) => p.id === pid)) { this.refused('bad_token'); return; }
      } else if (r.ok && this.failedBeforeOpen >= 2) {
        // The server answers HTTP but keeps refusing this token: kicked or stale.
        this.refused('bad_token');
        return;
      }
    } catch (e) { /* offline: keep trying */ }
    this.scheduleRetry();
  }

  refused(reason) {
    this.stop();
    this.setStatus('closed');
    this.o.onRefused && this.o.onRefused(reason);
  }

  scheduleRetry(cap = 15000) {
    if (this.stopped) return;
    this.attempt += 1;
    this.setStatus(navigator.onLine === false ? 'offline' : 'reconnecting');
    const base = Math.min(cap, 400 * 2 ** Math.min(this.attempt - 1, 6));
    const delay = base / 2 + Math.random() * base / 2;   // "equal jitter"
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.drop();
    this.connect();
  }

  /** Reconnect with another token (seat takeover) or none. */
  switchToken(token) {
    this.token = token || null;
    this.v = -1;
    this.drop();
    this.attempt = 0;
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.drop();
  }

  receive(data) {
    let f;
    try { f = JSON.parse(data); } catch (e) { return; }
    if (!f || typeof f !== 'object') return;
    switch (f.t) {
      case 'view': {
        if (typeof f.v === 'number' && f.v < this.v) return;   // stale; views are whole, gaps are fine
        this.v = typeof f.v === 'number' ? f.v : this.v;
        const used = {};
        f.d = resolve(f.d, this.blobs, used);
        this.blobs = used;
        this.o.onView && this.o.onView(f.d, f.v);
        return;
      }
      case 'blobs':
        Object.assign(this.blobs, f.d);
        return;
      case 'pong':
        this.pong(f.d || {});
        return;
      case 'error': {
        const d = f.d || {};
        if (!d.ref && REFUSING_CODES.has(d.code)) { this.refused(d.code); return; }
        this.o.onError && this.o.onError(d);
        return;
      }
      case 'token':
        this.o.onToken && this.o.onToken(f.d || {});
        return;
      case 'claim':                  // a request for a seat was denied, expired or dropped
        this.o.onClaim && this.o.onClaim(f.d || {});
        return;
      case 'kicked':
        this.refused('kicked');
        return;
      case 'handed':                 // this seat was handed to another phone (then close 4003)
        if (!this.o.onHanded) { this.refused('bad_token'); return; }
        this.stop();
        this.setStatus('closed');
        this.o.onHanded(f.d || {});
        return;
      case 'tally':                  // the audience's live tally (TV), a voter's own votes
      case 'mine':
        if (this.o.onAudience) { this.o.onAudience(f.t, f.d || {}); return; }
        this.o.onFrame && this.o.onFrame(f);
        return;
      default:
        this.o.onFrame && this.o.onFrame(f);
    }
  }

  send(frame) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Send an action; returns its id (or null when not connected). */
  act(d) {
    const id = `${this.prefix}-${Date.now().toString(36)}-${(++this.seq).toString(36)}`;
    return this.send({ t: 'act', id, d }) ? id : null;
  }

  ping() {
    if (!this.send({ t: 'ping', d: { c: Date.now() } })) return;
    this.pingAt = performance.now();
    // before its first frame a socket has OPEN_TIMEOUT_MS (a busy server delays the first view)
    if (!this.fresh) this.watch(PONG_TIMEOUT_MS);
  }

  pong(d) {
    const now = Date.now();
    if (typeof d.c !== 'number' || typeof d.s !== 'number') return;
    const rtt = now - d.c;
    if (rtt < 0 || rtt > 30000) return;
    this.samples.push({ rtt, offset: d.s - (d.c + rtt / 2) });
    if (this.samples.length > 8) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.offset = best.offset;
    this.rtt = rtt;
  }

  /** Server time now, in epoch ms. */
  now() {
    return Date.now() + this.offset;
  }
}
