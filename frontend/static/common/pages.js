// The TV cannot scroll (issue 27): a list with more than its box shows pages through it by
// itself. A page is as many whole items as the box shows (whatever its layout: a row, a
// wrapping grid, a column); every `ms` the next page comes, after the last the first again.
// "2 / 3" in `counter` (when given) says where it is. Items are hidden with `hidden`, so a
// screen reader hears only the page on show; the list itself keeps its own role and name.

const MS = 7000;

/** Page through box's children when they do not all fit; a new call replaces the last one. */
export function pageThrough(box, { ms = MS, counter = null } = {}) {
  if (box._pages) box._pages.stop();
  const items = [...box.children];
  let start = 0;
  let timer = null;
  const overflows = () => box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  /** Show the page that begins at item `from`; returns the index after its last item. */
  const show = (from) => {
    items.forEach((el) => { el.hidden = true; el.style.zoom = ''; });
    let end = from;
    while (end < items.length) {
      items[end].hidden = false;
      if (overflows() && end > from) { items[end].hidden = true; break; }
      end += 1;
    }
    // one item larger than the whole box: it is shown smaller, whole, rather than cut
    for (let z = 0.9; end === from + 1 && overflows() && z >= 0.5; z -= 0.1) items[from].style.zoom = String(z);
    return end;
  };
  /** Where each page begins at the box's size (pages differ in size: a wide first item). */
  const starts = () => {
    const at = [0];
    for (let e = show(0); e < items.length; e = show(e)) at.push(e);
    return at;
  };
  const draw = () => {
    if (!box.isConnected) { stop(); return; }
    const at = counter ? starts() : null;
    const end = show(start);
    const paged = start > 0 || end < items.length;
    box.classList.toggle('paged', paged);
    if (counter) {
      counter.hidden = !paged;
      if (paged) counter.textContent = `${at.filter((s) => s <= start).length} / ${at.length}`;
    }
    if (paged) box.animate?.([{ opacity: 0 }, { opacity: 1 }], { duration: 400 });
    return end;
  };
  function stop() { clearTimeout(timer); timer = null; window.removeEventListener('resize', again); }
  function tick() {
    const end = draw();
    if (end === undefined) return;
    const paged = start > 0 || end < items.length;
    if (!paged) return;
    timer = setTimeout(() => { start = end >= items.length ? 0 : end; tick(); }, ms);
  }
  function again() { clearTimeout(timer); tick(); }
  window.addEventListener('resize', again);
  box._pages = { stop };
  // measured once the box has its size (the screen was just mounted)
  requestAnimationFrame(() => requestAnimationFrame(tick));
  return box._pages;
}
