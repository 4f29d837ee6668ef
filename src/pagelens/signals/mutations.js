// pagelens signal-driven observation: a page-side change recorder (idempotent).
// Installed with context.add_init_script (every new document) and evaluated into the
// current document when missing. Records timestamped DOM mutations and input/change events
// into a bounded buffer the Python detector reads and clears; lists visible ARIA widgets.
(() => {
  if (window.__pagelensSDO) return;
  const MAX = 400;
  // the executor's own element tag (pagelens.actions.targets.ATTR) is never a page change
  const IGNORED_ATTRS = ['data-pagelens-target'];
  const WIDGETS = '[role=dialog],[role=alertdialog],dialog[open],[role=listbox],[role=menu],[aria-expanded=true]';
  const state = { doc: Math.random().toString(36).slice(2) + Date.now().toString(36), buf: [], dropped: 0, dropFirst: null, dropLast: null, nextWid: 1 };
  const describe = (n) => {
    const el = n && n.nodeType === 1 ? n : n && n.parentElement;
    if (!el) return '#document';
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const role = el.getAttribute('role');
    if (role) s += '[role=' + role + ']';
    return s;
  };
  // Events of the same millisecond and kind share one entry (a page load is a few bursts);
  // past MAX entries only the count and time range of what was dropped are kept.
  const push = (t, kind, target, extra) => {
    const last = state.buf[state.buf.length - 1];
    if (last && last.t === t && last.kind === kind) { last.n++; return; }
    if (state.buf.length >= MAX) {
      state.dropped++;
      state.dropFirst = state.dropFirst === null ? t : state.dropFirst;
      state.dropLast = t;
      return;
    }
    state.buf.push({ t, kind, n: 1, target: describe(target), extra: extra || '' });
  };
  const observer = new MutationObserver((records) => {
    const t = Date.now();
    for (const r of records) {
      if (r.type === 'attributes' && IGNORED_ATTRS.includes(r.attributeName)) continue;
      push(t, r.type, r.target, r.type === 'attributes' ? r.attributeName : '');
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  for (const type of ['input', 'change']) {
    document.addEventListener(type, (e) => push(Date.now(), type, e.target, ''), true);
  }
  const visible = (el) => {
    if (typeof el.checkVisibility === 'function') {
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  state.drain = () => {
    const out = { doc: state.doc, url: location.href, now: Date.now(), events: state.buf, dropped: state.dropped,
      dropFirst: state.dropFirst, dropLast: state.dropLast };
    state.buf = [];
    state.dropped = 0;
    state.dropFirst = state.dropLast = null;
    return out;
  };
  state.widgets = () => {
    const out = [];
    for (const el of document.querySelectorAll(WIDGETS)) {
      if (!visible(el)) continue;
      if (!el.__pagelensWid) el.__pagelensWid = state.nextWid++;  // an expando: no mutation
      const name = (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || '')
        .replace(/\s+/g, ' ').trim().slice(0, 60);
      const kind = el.getAttribute('role') || (el.tagName === 'DIALOG' ? 'dialog' : 'expanded ' + el.tagName.toLowerCase());
      out.push({ wid: el.__pagelensWid, kind, name, expanded: el.getAttribute('aria-expanded') === 'true' });
    }
    return out;
  };
  Object.defineProperty(window, '__pagelensSDO', { value: state, enumerable: false });
})();
