"""What a browser test measures on a screen that must fit (issue 27): text cut by its box, boxes
outside the viewport or on top of each other, a page that scrolls, and the largest text.
Each is a JavaScript function for page.evaluate; they answer with what is wrong (an empty list
when nothing is)."""

# Elements with text whose content is cut by their own box (overflow not visible and the
# content larger than the box), or that reach outside the viewport. A one-line name that ends
# in an ellipsis (text-overflow) is shortened on purpose and not counted; sel: where to look.
CUT = """(sel) => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) || el.closest('[aria-hidden=true]')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const st = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;     // a screen reader's line (clip-path 1 px)
    const what = `${el.className || el.tagName} "${el.textContent.trim().slice(0, 40)}"`;
    if (r.right > vw + 1 || r.bottom > vh + 1 || r.left < -1 || r.top < -1) {
      out.push(`${what} outside the screen: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
      continue;
    }
    if (st.textOverflow === 'ellipsis') continue;
    // an ancestor that clips: the text's box must lie inside it
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.bottom > b.bottom + 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.left < b.left - 1) {
        out.push(`${what} cut by ${a.className || a.tagName}`);
        break;
      }
    }
    if (st.overflowX !== 'visible' || st.overflowY !== 'visible') {
      // a few pixels of a glyph's ink past its line box is no cut line (a clamped line is a whole one)
      if (el.scrollWidth > el.clientWidth + 4 || el.scrollHeight > el.clientHeight + 4) out.push(`${what} overflows its box`);
    }
  }
  return out;
}"""

# The page scrolls (a TV cannot): the document larger than the viewport either way.
SCROLLS = """() => {
  const d = document.scrollingElement;
  return d.scrollWidth > d.clientWidth + 1 || d.scrollHeight > d.clientHeight + 1
    ? [`the page scrolls: ${d.scrollWidth}x${d.scrollHeight} in ${d.clientWidth}x${d.clientHeight}`] : [];
}"""

# Pairs of the elements matched by sel whose boxes overlap (by more than a pixel each way).
OVERLAPS = """(sel) => {
  const els = [...document.querySelectorAll(sel)].filter((el) => el.getClientRects().length);
  const out = [];
  for (let i = 0; i < els.length; i += 1) {
    const a = els[i].getBoundingClientRect();
    for (let j = i + 1; j < els.length; j += 1) {
      if (els[i].contains(els[j]) || els[j].contains(els[i])) continue;
      const b = els[j].getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) out.push(`"${els[i].textContent.trim().slice(0, 30)}" on "${els[j].textContent.trim().slice(0, 30)}"`);
    }
  }
  return out;
}"""

# The largest font size of visible text outside `sel`, and the smallest inside it:
# {others: [px, text], inside: [px, text]}.
SIZES = """(sel) => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const others = [0, ''], inside = [1e9, ''];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
        || el.closest('[aria-hidden=true], script, style')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;     // a screen reader's line (clip-path 1 px)
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (el.closest(sel)) { if (px < inside[0]) inside.splice(0, 2, px, n.textContent.trim()); }
    else if (px > others[0]) others.splice(0, 2, px, n.textContent.trim());
  }
  return { others, inside };
}"""
