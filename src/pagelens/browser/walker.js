// pagelens in-page walker: one pass over a document (shadow roots and same-origin iframes
// included) computing what Chromium's accessibility tree would say: role, accessible name
// (accname 1.2 / html-aam), value, states, box, visibility and concealment. Returns ONE JSON
// string of column arrays (see walker.py for the format). No attribute is written to the page:
// element numbers live in a WeakMap on a non-enumerable window property.
(opts) => {
  "use strict";
  const KEY = "__pagelensWalker";
  const maxName = (opts && opts.maxName) || 4000;
  const TEXT = 3, ELEM = 1;
  const stateOf = (win) => {
    let st = win[KEY];
    if (!st) {
      st = { ids: new WeakMap(), next: 1, token: Math.random().toString(36).slice(2, 10) + Date.now().toString(36) };
      // element number -> element: a walk over the document (and open shadow roots) when an
      // action needs it, instead of one WeakRef per element kept from every walk (GC cost)
      st.find = (n) => {
        const search = (root) => {
          const it = win.document.createTreeWalker(root, 1);
          for (let e = it.nextNode(); e; e = it.nextNode()) {
            if (st.ids.get(e) === n) return e;
            if (e.shadowRoot) { const f = search(e.shadowRoot); if (f) return f; }
          }
          return null;
        };
        return search(win.document);
      };
      Object.defineProperty(win, KEY, { value: st, enumerable: false, configurable: true });
    }
    return st;
  };
  const refOf = (st, el) => {
    let n = st.ids.get(el);
    if (n === undefined) { n = st.next++; st.ids.set(el, n); }
    return n;
  };

  // -- output columns ------------------------------------------------------------------
  const S = [], smap = new Map();
  const str = (s) => { let i = smap.get(s); if (i === undefined) { i = S.length; S.push(s); smap.set(s, i); } return i; };
  const P = [], R = [], N = [], V = [], D = [], F = [], B = [], G = [], Q = [], X = [], DOCS = [];
  const CONCEAL = { "": 0, offscreen: 1, tiny: 2, transparent: 3, "same-colour": 4, covered: 5 };

  // -- roles ---------------------------------------------------------------------------
  const ARIA = { img: "image", presentation: "none", directory: "list", image: "image" };
  const VALID = new Set(("alert alertdialog application article banner blockquote button caption cell checkbox code " +
    "columnheader combobox comment complementary contentinfo definition deletion dialog directory document emphasis " +
    "feed figure form generic grid gridcell group heading img image insertion link list listbox listitem log main mark " +
    "marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph " +
    "presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox separator " +
    "slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term textbox time timer " +
    "toolbar tooltip tree treegrid treeitem").split(" "));
  const NAME_FROM_CONTENT = new Set(("button cell checkbox columnheader gridcell heading link menuitem menuitemcheckbox " +
    "menuitemradio option radio rowheader switch tab tooltip treeitem DisclosureTriangle " +
    "term comment LayoutTableCell").split(" "));
  const NO_TITLE = new Set(("generic listitem list paragraph LayoutTable LayoutTableRow LayoutTableCell row rowgroup " +
    "caption DescriptionList definition term strong emphasis code time superscript subscript mark deletion " +
    "insertion blockquote LabelText Figcaption Legend LineBreak none").split(" "));
  const CELLS = new Set(["cell", "gridcell", "columnheader", "rowheader", "LayoutTableCell"]);
  const LANDMARK_SCOPE = new Set(["ARTICLE", "ASIDE", "MAIN", "NAV", "SECTION"]);
  const SIMPLE = { P: "paragraph", UL: "list", OL: "list", MENU: "list", LI: "listitem", DL: "DescriptionList",
    DT: "term", DD: "definition", DFN: "term", NAV: "navigation", MAIN: "main", ARTICLE: "article",
    STRONG: "strong", EM: "emphasis", CODE: "code", TIME: "time", ABBR: "Abbr", SUP: "superscript",
    SUB: "subscript", MARK: "mark", DEL: "deletion", S: "deletion", INS: "insertion", BLOCKQUOTE: "blockquote",
    FIGURE: "figure", FIGCAPTION: "Figcaption", FIELDSET: "group", LEGEND: "Legend", DETAILS: "group",
    HR: "separator", BR: "LineBreak", CAPTION: "caption", LABEL: "LabelText", IFRAME: "Iframe", FRAME: "Iframe",
    CANVAS: "Canvas", VIDEO: "Video", AUDIO: "Audio", PROGRESS: "progressbar", METER: "meter", OUTPUT: "status",
    DIALOG: "dialog", HGROUP: "group", TEXTAREA: "textbox", OPTION: "option", OPTGROUP: "group", SEARCH: "search",
    MATH: "math", H1: "heading", H2: "heading", H3: "heading", H4: "heading", H5: "heading", H6: "heading",
    PRE: "generic", DIV: "generic", SPAN: "generic", B: "generic", CENTER: "generic", PICTURE: "generic",
    U: "generic", SMALL: "generic", BIG: "generic", FONT: "generic", KBD: "generic", SAMP: "generic", VAR: "generic",
    CITE: "generic", BDI: "generic", BDO: "generic", DATA: "generic", TT: "generic", ADDRESS: "generic",
    NOBR: "generic", SLOT: "none", I: "generic", Q: "generic", RUBY: "generic", LEGACY: "generic" };
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "TITLE", "META", "LINK", "BASE", "PARAM",
    "SOURCE", "TRACK", "DATALIST", "WBR", "AREA", "MAP"]);
  const INPUT_ROLE = { button: "button", submit: "button", reset: "button", image: "button", file: "button",
    checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox",
    color: "ColorWell", date: "date", "datetime-local": "DateTime", month: "DateTime", week: "DateTime",
    time: "InputTime", hidden: "" };

  const tag = (el) => (el.localName || "").toUpperCase();
  const attr = (el, a) => { const v = el.getAttribute(a); return v === null ? null : v; };
  const explicitRole = (el) => {
    const r = attr(el, "role");
    if (!r) return null;
    for (const tok of r.trim().toLowerCase().split(/\s+/)) {
      if (VALID.has(tok)) return ARIA[tok] || tok;
    }
    return null;
  };
  const inScope = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (LANDMARK_SCOPE.has(tag(p))) return true;
      const r = attr(p, "role");
      if (r && /\b(article|complementary|main|navigation|region)\b/.test(r)) return true;
    }
    return false;
  };
  const hasGlobalAria = (el) => {
    for (const a of el.attributes) {
      const n = a.name;
      if (n.startsWith("aria-") && n !== "aria-hidden" && n !== "aria-level" && a.value !== "") return true;
    }
    return false;
  };

  // data table heuristics (Chromium's AXObject::IsDataTable, abridged)
  const tableKind = new Map();
  const isDataTable = (t) => {
    if (tableKind.has(t)) return tableKind.get(t);
    let res = false;
    const r = explicitRole(t);
    if (r === "table" || r === "grid" || r === "treegrid") res = true;
    else if (t.isContentEditable) res = true;
    else if (t.caption || t.tHead || t.tFoot || attr(t, "summary") || attr(t, "rules") ||
             t.querySelector(":scope > col, :scope > colgroup")) res = true;
    else {
      const rows = t.rows;
      const tcs = getComputedStyle(t);
      const tbg = tcs.backgroundColor;
      const spaced = tcs.borderCollapse !== "collapse" && parseFloat(tcs.borderSpacing) > 0;
      let valid = 0, full = 0, top = 0, bottom = 0, left = 0, right = 0, bgDiff = 0, decided = false;
      if (rows.length >= 20) { res = true; decided = true; }
      for (const row of rows) {
        if (decided) break;
        for (const c of row.cells) {
          if (c.localName === "th" || c.hasAttribute("headers") || c.hasAttribute("abbr") || c.hasAttribute("axis") ||
              c.hasAttribute("scope")) { res = true; decided = true; break; }
          if (c.offsetWidth < 1 || c.offsetHeight < 1 || !c.firstChild) continue;
          valid++;
          const cs = getComputedStyle(c);
          const bt = parseFloat(cs.borderTopWidth) > 0, bb = parseFloat(cs.borderBottomWidth) > 0;
          const bl = parseFloat(cs.borderLeftWidth) > 0, br = parseFloat(cs.borderRightWidth) > 0;
          if ((bt && bb) || (bl && br)) full++;
          top += bt; bottom += bb; left += bl; right += br;
          const cbg = colour(cs.backgroundColor);
          if (spaced && cbg && cbg[3] > 0 && cs.backgroundColor !== tbg) bgDiff++;
          if (full >= 10 || bgDiff >= 10) { res = true; decided = true; break; }
        }
      }
      if (!decided && valid > 1) {
        const need = Math.floor(valid / 2);
        res = full >= need || top >= need || bottom >= need || left >= need || right >= need || bgDiff >= need;
        if (need === 0) res = false;
      }
    }
    tableKind.set(t, res);
    return res;
  };
  const tableOf = (el) => { const t = el.closest("table"); return t; };

  const implicitRole = (el, t, cs) => {
    const simple = SIMPLE[t];
    if (t === "TR" || t === "TD" || t === "TH" || t === "THEAD" || t === "TBODY" || t === "TFOOT") {
      const tb = tableOf(el);
      if (tb && explicitRole(tb) === "none") return "none"; // a presentational table's parts are presentational
    }
    switch (t) {
      // an anchor without href is a link when it listens for clicks (Chromium's NativeRoleIgnoringAria)
      case "A": case "AREA": return el.hasAttribute("href") || listensForClick(el) ? "link" : "generic";
      case "BUTTON": return "button";
      case "INPUT": {
        const ty = (attr(el, "type") || "text").toLowerCase();
        if (ty in INPUT_ROLE) return INPUT_ROLE[ty];
        if (el.hasAttribute("list")) return "combobox";
        return ty === "email" || ty === "tel" || ty === "url" || ty === "text" || ty === "password" ? "textbox" : "textbox";
      }
      case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "IMG": return attr(el, "alt") === "" && !el.hasAttribute("title") && !hasGlobalAria(el) ? "none" : "image";
      case "SVG": return "image";
      case "HEADER": return inScope(el) ? "sectionheader" : "banner";
      case "FOOTER": return inScope(el) ? "sectionfooter" : "contentinfo";
      case "ASIDE": return "complementary";
      case "SECTION": return (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") || el.hasAttribute("title")) ? "region" : "generic";
      case "FORM": return "form";
      case "SUMMARY": return "DisclosureTriangle";
      case "TABLE": return isDataTable(el) ? "table" : "LayoutTable";
      case "THEAD": case "TFOOT": { const tb = tableOf(el); return tb && isDataTable(tb) ? "rowgroup" : "none"; }
      case "TBODY": { if (!hasGlobalAria(el)) return "none"; const tb = tableOf(el); return tb && isDataTable(tb) ? "rowgroup" : "none"; }
      case "TR": { const tb = tableOf(el); return tb && isDataTable(tb) ? "row" : "LayoutTableRow"; }
      case "TD": { const tb = tableOf(el); return tb && isDataTable(tb) ? (explicitRoleOf(tb) === "grid" || explicitRoleOf(tb) === "treegrid" ? "gridcell" : "cell") : "LayoutTableCell"; }
      case "TH": {
        const tb = tableOf(el);
        if (!tb || !isDataTable(tb)) return "LayoutTableCell";
        const scope = (attr(el, "scope") || "").toLowerCase();
        if (scope === "row" || scope === "rowgroup") return "rowheader";
        if (scope === "col" || scope === "colgroup") return "columnheader";
        const row = el.parentElement;
        if (row && row.parentElement && row.parentElement.localName === "thead") return "columnheader";
        if (row && Array.from(row.cells).every((c) => c.localName === "th")) return "columnheader";
        return el.cellIndex === 0 ? "rowheader" : "columnheader";
      }
    }
    if (simple) return simple;
    if (t.includes("-")) return "generic";
    return "generic";
  };
  const explicitRoleOf = (el) => explicitRole(el);
  const listensForClick = (el) => {
    if (typeof el.onclick === "function" || el.hasAttribute("onclick") || el.hasAttribute("onmousedown") || el.hasAttribute("onmouseup")) return true;
    const set = el.ownerDocument.defaultView && el.ownerDocument.defaultView.__pagelensClickTargets;
    return !!(set && set.has(el));
  };

  // -- text helpers --------------------------------------------------------------------
  const WS = /[\t\n\f\r ]+/g;
  const transform = (s, tt) => tt === "uppercase" ? s.toUpperCase() : tt === "lowercase" ? s.toLowerCase()
    : tt === "capitalize" ? s.replace(/(^|\s)(\S)/g, (m, a, b) => a + b.toUpperCase()) : s;
  const trimName = (s) => s.replace(WS, " ").trim();
  const styleCache = new Map();
  const style = (el) => { let s = styleCache.get(el); if (!s) { s = getComputedStyle(el); styleCache.set(el, s); } return s; };
  // Which elements can have a ::before / ::after / ::first-letter at all: the document's style
  // sheets are read once and their pseudo-element selectors, stripped of the pseudo part, are
  // matched against an element before its pseudo style is computed (computing it for every
  // element was the walker's largest cost). Unreadable sheets or shadow trees: always compute.
  const pseudoGate = new Map();
  const splitSel = (sel) => { const out = []; let depth = 0, cur = ""; for (const ch of sel) { if (ch === "(" || ch === "[") depth++; else if (ch === ")" || ch === "]") depth--; if (ch === "," && depth === 0) { out.push(cur); cur = ""; } else cur += ch; } out.push(cur); return out; };
  const PSEUDO_RE = /::?(before|after|first-letter)(?![\w-])/i;
  const gateOf = (root) => {
    let g = pseudoGate.get(root);
    if (g) return g;
    const parts = { before: [], after: [], "first-letter": [] };
    let unknown = false;
    const visit = (rules) => {
      for (const r of rules) {
        if (r.selectorText) {
          for (const part of splitSel(r.selectorText)) {
            const m = PSEUDO_RE.exec(part);
            if (m) { const base = part.replace(new RegExp(PSEUDO_RE.source, "gi"), "").trim(); parts[m[1].toLowerCase()].push(base || "*"); }
          }
        }
        if (r.cssRules) visit(r.cssRules);
        if (r.styleSheet) { try { visit(r.styleSheet.cssRules); } catch (e) { unknown = true; } } // @import
      }
    };
    const sheets = [...(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
    for (const sh of sheets) { try { visit(sh.cssRules); } catch (e) { unknown = true; } }
    const frag = document.createDocumentFragment();
    g = {};
    for (const k of Object.keys(parts)) {
      if (unknown) { g[k] = null; continue; }
      const ok = parts[k].filter((p) => { try { frag.querySelector(p); return true; } catch (e) { return false; } });
      g[k] = ok.length < parts[k].length ? null : ok.length ? ok.join(",") : "";
    }
    pseudoGate.set(root, g);
    return g;
  };
  const PSEUDO_KEY = { "::before": "before", "::after": "after", "::first-letter": "first-letter" };
  const mayHave = (el, which) => {
    const root = el.getRootNode();
    const sel = gateOf(root)[PSEUDO_KEY[which]];
    if (sel === null || sel === undefined) return true;
    if (sel === "") return false;
    try { return el.matches(sel); } catch (e) { return true; }
  };
  const pseudoMemo = new Map();
  const pseudoStyle = (el, which) => {
    if (!mayHave(el, which)) return null;
    const key = which === "::before" ? 0 : which === "::after" ? 1 : 2;
    let m = pseudoMemo.get(el);
    if (!m) { m = [undefined, undefined, undefined]; pseudoMemo.set(el, m); }
    if (m[key] === undefined) m[key] = getComputedStyle(el, which);
    return m[key];
  };
  const pseudoText = (el, which) => {
    const ps = pseudoStyle(el, which);
    if (!ps) return "";
    const c = ps.content;
    if (!c || c === "none" || c === "normal" || ps.display === "none" || ps.visibility !== "visible") return "";
    if (c[0] !== '"') return "";
    const m = c.match(/^"((?:[^"\\]|\\.)*)"/);
    return m ? m[1].replace(/\\(.)/g, "$1") : "";
  };
  const pseudoImage = (el, which) => { const ps = pseudoStyle(el, which); const c = ps && ps.content; return !!c && c.startsWith("url("); };
  const isInline = (el) => { const d = style(el).display; return d.startsWith("inline") || d === "contents"; };
  const INLINE_TAGS = new Set(["SPAN", "B", "I", "U", "SMALL", "BIG", "FONT", "KBD", "SAMP", "VAR", "CITE", "BDI", "BDO",
    "DATA", "TT", "NOBR", "Q", "RUBY", "A", "S", "LABEL"]);
  const hasInlineContent = (el) => {
    for (const c of childrenOf(el)) {
      if (c.nodeType === TEXT) { if (/\S/.test(c.data)) return true; }
      else if (c.nodeType === ELEM && !SKIP.has(tag(c))) {
        const d = style(c).display;
        if (d !== "none" && (d.startsWith("inline") || d === "contents")) return true;
      }
    }
    return false;
  };
  const rendered = (el) => {
    if (el.nodeType !== ELEM) return true;
    const cs = style(el);
    return cs.display !== "none";
  };
  const ariaHidden = (el) => attr(el, "aria-hidden") === "true";
  const hiddenForName = (el) => {
    // hidden from everyone (display:none / visibility:hidden / aria-hidden on it or an ancestor)
    for (let e = el; e && e.nodeType === ELEM; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      if (ariaHidden(e)) return true;
      const cs = style(e);
      if (cs.display === "none") return true;
    }
    const cs = style(el);
    return cs.visibility !== "visible";
  };
  // hidden for good (display:none or aria-hidden): visibility:hidden content may have visible children
  const hardHidden = (el) => {
    for (let e = el; e && e.nodeType === ELEM; e = e.parentElement || (e.getRootNode && e.getRootNode().host)) {
      if (ariaHidden(e) || style(e).display === "none") return true;
    }
    return false;
  };
  const childrenOf = (el) => {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (tag(el) === "SLOT") { const a = el.assignedNodes({ flatten: false }); return a.length ? a : el.childNodes; }
    return el.childNodes;
  };
  const idref = (el, ids) => {
    const root = el.getRootNode();
    const out = [];
    for (const id of ids.trim().split(/\s+/)) {
      if (!id) continue;
      const t = (root.getElementById ? root.getElementById(id) : null) || el.ownerDocument.getElementById(id);
      if (t) out.push(t);
    }
    return out;
  };
  const selectedText = (sel) => {
    const o = sel.selectedOptions && sel.selectedOptions[0];
    return o ? trimName(o.label || o.textContent || "") : "";
  };

  // value of an embedded control, as its text alternative inside another name (accname 2E)
  const controlValue = (el, role) => {
    const t = tag(el);
    if (role === "textbox" || role === "searchbox") return t === "INPUT" || t === "TEXTAREA" ? el.value : el.textContent;
    if (role === "combobox" || role === "listbox") {
      if (t === "SELECT") return selectedText(el);
      if (t === "INPUT") return el.value;
      const opt = el.querySelector('[role=option][aria-selected=true]');
      return opt ? opt.textContent : "";
    }
    if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "scrollbar") {
      return attr(el, "aria-valuetext") || attr(el, "aria-valuenow") || (el.value !== undefined ? String(el.value) : "");
    }
    return null;
  };

  // -- accessible name (accname 1.2) ---------------------------------------------------
  const contentMemo = new Map();
  // where the last name returned by nameOf came from: "content" (its text) or "attr" (aria-label,
  // alt, a label, title, a value ...). Chromium separates a child named from an attribute from its
  // neighbours with a space (AXNodeObject::ShouldInsertSpaceBetweenObjectsIfNeeded).
  // edgeF/edgeL: the kind at the start / end of the last content text (an ignored generic
  // wrapper does not hide that its first or last part came from an attribute, e.g. an image's alt)
  let lastFrom = "content", edgeF = "content", edgeL = "content", edgeFI = true, edgeLI = true;
  const from = (kind, s) => { lastFrom = kind; if (kind !== "content") { edgeF = kind; edgeL = kind; } return s; };
  const nameOf = (el, role, ctx) => {
    // ctx: {visited:Set, labelledby:bool, recursion:bool, hiddenOk:bool}
    if (ctx.visited.has(el)) return from("content", "");
    ctx.visited.add(el);
    try {
      // (ctx.shown: the walk itself reached this element, so it is not hidden)
      if (!ctx.hiddenOk && !(ctx.shown && el === ctx.self) &&
          (ctx.recursion && el !== ctx.self ? hardHidden(el) : hiddenForName(el))) return from("content", "");
      const t = tag(el);
      // 2B aria-labelledby
      if (!ctx.labelledby && !ctx.recursion) {
        const lb = attr(el, "aria-labelledby") ?? attr(el, "aria-labeledby");
        if (lb) {
          const refs = idref(el, lb);
          if (refs.length) {
            // each referenced node from scratch (the element itself then yields its aria-label);
            // hidden content counts only when the referenced node itself is hidden
            const parts = refs.map((r) => trimName(nameOf(r, roleOf(r), { visited: new Set(), labelledby: true, recursion: true,
                                                                          hiddenOk: hiddenForName(r), self: r })));
            const s = parts.filter(Boolean).join(" ");
            if (s.trim()) return from("attr", s);
          }
        }
      }
      // 2C embedded control inside a name
      if (ctx.recursion && el !== ctx.self) {
        const v = controlValue(el, role);
        if (v !== null && !(role === "textbox" && t !== "INPUT" && t !== "TEXTAREA")) return from("attr", v);
      }
      // 2D aria-label
      const al = attr(el, "aria-label");
      if (al && al.trim()) return from("attr", al);
      // 2E native text alternative. Chromium stops here with '' when the control has a <label>
      // that gives nothing (hidden or empty) and when a button input's value attribute is empty.
      if (LABELABLE.has(t) && labelsOf(el).length && !labelsText(el, ctx)) {
        const ty = t === "INPUT" ? (attr(el, "type") || "text").toLowerCase() : "";
        if (ty !== "image") return from("content", "");
      }
      if (t === "INPUT" && /^(submit|reset|button)$/i.test(attr(el, "type") || "") && attr(el, "value") !== null &&
          !/\S/.test(attr(el, "value"))) return from("content", "");
      if (role !== "none" || ctx.recursion) {
        const nat = nativeName(el, t, role, ctx);
        if (nat) return from("attr", nat);
      }
      // 2F name from content (inside another name, whitespace-only content counts: it separates words)
      if (NAME_FROM_CONTENT.has(role) || ctx.recursion || ctx.fromContent) {
        if (!(t === "SELECT" || t === "TEXTAREA" || t === "INPUT")) {
          const s = contentText(el, ctx);
          if (s.trim() || (ctx.recursion && el !== ctx.self && s)) { lastFrom = "content"; return s; } // edges: set by contentText
        }
      }
      // 2I tooltip (Chromium does not name structural roles from it)
      const title = attr(el, "title");
      // Chromium does not name an element from a title that repeats its own (hidden) text
      if (title && title.trim() && !NO_TITLE.has(role) && trimName(title) !== trimName(el.textContent || "")) return from("attr", title);
      if (t === "INPUT" || t === "TEXTAREA") {
        const ph = attr(el, "placeholder") || attr(el, "aria-placeholder");
        if (ph && ph.trim()) return from("attr", ph);
      }
      return from("content", "");
    } finally {
      ctx.visited.delete(el);
    }
  };
  // label elements per control, built once per tree (el.labels scans the whole tree on each use)
  const labelMaps = new Map();
  const labelsOf = (el) => {
    const root = el.getRootNode();
    let m = labelMaps.get(root);
    if (!m) {
      m = new Map();
      if (root.querySelectorAll) {
        for (const l of root.querySelectorAll("label")) {
          const c = l.control;
          if (c) { const a = m.get(c); if (a) a.push(l); else m.set(c, [l]); }
        }
      }
      labelMaps.set(root, m);
    }
    return m.get(el) || [];
  };
  const LABELABLE = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "METER", "PROGRESS", "OUTPUT"]);
  const labelsText = (el, ctx) => {
    const labels = labelsOf(el);
    if (!labels || !labels.length) return "";
    const parts = [];
    for (const l of labels) {
      if (!ctx.hiddenOk && hiddenForName(l)) continue;
      const s = trimName(contentText(l, { visited: ctx.visited, labelledby: ctx.labelledby, recursion: true, hiddenOk: ctx.hiddenOk, self: el, inLabel: el }));
      if (s) parts.push(s);
    }
    return parts.join(" ");
  };
  const nativeName = (el, t, role, ctx) => {
    if (t === "INPUT") {
      const ty = (attr(el, "type") || "text").toLowerCase();
      if (ty === "button" || ty === "submit" || ty === "reset") {
        const lt = labelsText(el, ctx); if (lt) return lt;
        const v = attr(el, "value");
        if (v !== null && (v.trim() || ty === "button")) return v;
        return ty === "submit" ? "Submit" : ty === "reset" ? "Reset" : "";
      }
      if (ty === "image") {
        const lt = labelsText(el, ctx); if (lt) return lt;
        return attr(el, "alt") || attr(el, "value") || attr(el, "title") || "Submit";
      }
      const lt = labelsText(el, ctx); if (lt) return lt;
      if (ty === "file") return "";
      return "";
    }
    if (t === "TEXTAREA" || t === "SELECT" || t === "METER" || t === "PROGRESS" || t === "OUTPUT") return labelsText(el, ctx);
    if (t === "BUTTON") { const lt = labelsText(el, ctx); if (lt) return lt; return ""; }
    if (t === "IMG" || t === "AREA") { const a = attr(el, "alt"); return a || ""; }
    if (t === "FIELDSET") { const lg = Array.from(el.children).find((c) => c.localName === "legend"); return lg ? contentText(lg, ctx) : ""; }
    if (t === "FIGURE") { const fc = Array.from(el.children).find((c) => c.localName === "figcaption"); return fc ? contentText(fc, ctx) : ""; }
    if (t === "TABLE") { const c = el.caption; if (c) return contentText(c, ctx); return attr(el, "summary") || ""; }
    if (t === "SVG") { const ti = Array.from(el.children).find((c) => c.localName === "title"); return ti ? ti.textContent : ""; }
    if (t === "IFRAME" || t === "FRAME") return attr(el, "title") || "";
    if (t === "DETAILS") { const s = Array.from(el.children).find((c) => c.localName === "summary"); return ""; }
    if (t === "OPTION") return el.label || "";
    return "";
  };
  // Chromium's layout inline-ness of a child, for spacing in names from content: an inline-level
  // box (inline, inline-block, an image) joins its neighbours; a block, a float, an absolutely
  // positioned box (all blockified) or display:contents (no layout object) is separated by a space.
  // (measured on Chromium: inline-block, inline-flex and replaced elements are separated too)
  const REPLACED = new Set(["IMG", "SVG", "VIDEO", "AUDIO", "CANVAS", "IFRAME", "EMBED", "OBJECT", "INPUT", "SELECT",
    "TEXTAREA", "BUTTON", "METER", "PROGRESS"]);
  const inlineLevel = (el) => style(el).display === "inline" && !REPLACED.has(tag(el));
  const contentText = (el, ctx) => {
    const memoable = !ctx.hiddenOk && !ctx.inLabel;
    if (memoable && contentMemo.has(el)) { const m = contentMemo.get(el); edgeF = m[1]; edgeL = m[2]; edgeFI = m[3]; edgeLI = m[4]; return m[0]; }
    let out = "";
    let prev = false, prevInline = true, prevFrom = "content", first = "", firstInl = true, lastInl = true;
    // inl / inlL: inline on its first / last side, as compared here; xF / xL: as exported to the
    // parent's comparison (an image is separated from its siblings, not through its wrapper)
    const add = (s, inl, kind, kindL, inlL, xF, xL) => {
      if (!s) return;
      if (prev && out && !/\s$/.test(out) && !/^\s/.test(s) && (!prevInline || !inl || prevFrom !== "content" || kind !== "content")) out += " ";
      if (!first && /\S/.test(s)) { first = kind; firstInl = xF === undefined ? inl : xF; }
      out += s; prev = true; prevInline = inlL === undefined ? inl : inlL; prevFrom = kindL || kind;
      lastInl = xL === undefined ? prevInline : xL;
    };
    const isElem = el.nodeType === ELEM;
    if (isElem) { const b = pseudoText(el, "::before"); if (b) add(b, pseudoInline(el, "::before"), "content"); }
    let firstText = isElem;
    for (const c of childrenOf(el)) {
      if (c.nodeType === TEXT) {
        const p = c.parentElement;
        const ps = p ? style(p) : null;
        if (!ctx.hiddenOk && ps && ps.visibility !== "visible") continue;
        let d = c.data;
        if (!/\S/.test(d)) {
          if (!d || !(ps && preWs(ps)) && !wsRelevant(c)) continue;
        }
        d = transform(d, ps ? ps.textTransform : "none");
        if (firstText && p === el && /\S/.test(d)) { d = firstLetter(el, d); firstText = false; }
        add(d, true, "content");
      } else if (c.nodeType === ELEM) {
        const ct = tag(c);
        if (ct === "BR" || ct === "WBR") { add("\n", true, "content"); continue; }
        if (SKIP.has(ct) && ct !== "AREA") continue;
        if (!ctx.hiddenOk && (ariaHidden(c) || style(c).display === "none")) continue;
        if (ctx.inLabel && c === ctx.inLabel) continue; // the labelled control itself: its own value is not part of its name
        firstText = false;
        const r = roleOf(c);
        const sub = { visited: ctx.visited, labelledby: ctx.labelledby, recursion: true, hiddenOk: ctx.hiddenOk, self: ctx.self, inLabel: ctx.inLabel };
        let s, kind;
        let kindL;
        // an inline child whose own content starts or ends with a block (block-in-inline) is
        // separated on that side like the block itself
        edgeF = edgeL = "content"; edgeFI = edgeLI = true;
        if (r === "none" && ct !== "SLOT") { s = contentText(c, sub); kind = "content"; } // presentational: its content only (an alt is not read)
        else {
          s = nameOf(c, r, sub); kind = lastFrom;
          if (kind === "content" && r === "generic") { kind = edgeF; kindL = edgeL; }
        }
        const inl = inlineLevel(c), inlF = inl && (kind !== "content" || edgeFI), inlL = inl && ((kindL || kind) !== "content" || edgeLI);
        const disp = style(c).display === "inline", xF = disp && (kind !== "content" || edgeFI), xL = disp && ((kindL || kind) !== "content" || edgeLI);
        if (!s && ct === "IMG" && r !== "none") { if (out) { prev = true; prevInline = false; } continue; } // an unnamed image still separates
        add(s, inlF, kind, kindL, inlL, xF, xL);
      }
      if (out.length > maxName * 2) break;
    }
    if (isElem) { const a = pseudoText(el, "::after"); if (a) add(a, pseudoInline(el, "::after"), "content"); }
    edgeF = first || "content"; edgeL = prev ? prevFrom : "content"; edgeFI = firstInl; edgeLI = prev ? lastInl : true;
    if (memoable) contentMemo.set(el, [out, edgeF, edgeL, edgeFI, edgeLI]);
    return out;
  };
  const isFirstText = (n) => { for (let x = n.previousSibling; x; x = x.previousSibling) { if (x.nodeType === ELEM || x.nodeType === TEXT && /\S/.test(x.data)) return false; } return true; };
  const preWs = (cs) => cs.whiteSpace.startsWith("pre") || cs.whiteSpace === "break-spaces";
  // ::first-letter with its own text-transform (e.g. lowercase text with an uppercase first letter)
  const firstLetterMemo = new Map();
  const firstLetter = (el, d) => {
    let tt = firstLetterMemo.get(el);
    if (tt === undefined) {
      tt = "";
      const cs = style(el);
      if (!cs.display.startsWith("inline") || cs.display === "inline-block") {
        const fs = mayHave(el, "::first-letter") ? getComputedStyle(el, "::first-letter") : null;
        const ft = fs ? fs.textTransform : "";
        if (ft && ft !== cs.textTransform && ft !== "none") tt = ft;
      }
      firstLetterMemo.set(el, tt);
    }
    if (!tt) return d;
    const m = /^(\s*)(\S)/.exec(d);
    if (!m) return d;
    const ch = tt === "lowercase" ? m[2].toLowerCase() : m[2].toUpperCase();
    return m[1] + ch + d.slice(m[0].length);
  };
  // Chromium drops a whitespace-only text node when a neighbour needs no separation anyway
  // (blink's CanIgnoreSpaceNextTo / CanIgnoreSpace): a block, an empty inline next to more
  // whitespace, a <br>, a cell; it keeps it next to text that does not end in a space, or an image.
  const prevAbs = (n) => { for (let x = n; x; x = x.parentNode) { if (x.nodeType !== ELEM && x !== n) break; if (x.previousSibling) return x.previousSibling; } return null; };
  const nextAbs = (n) => { for (let x = n; x; x = x.parentNode) { if (x.nodeType !== ELEM && x !== n) break; if (x.nextSibling) return x.nextSibling; } return null; };
  const laidOut = (n) => {
    if (!n) return false;
    if (n.nodeType === TEXT) return true;
    if (n.nodeType !== ELEM || SKIP.has(tag(n)) && tag(n) !== "WBR") return false;
    const d = style(n).display;
    return d !== "none" && d !== "contents";
  };
  const canIgnoreSpaceNextTo = (n, after, counter) => {
    if (!n || !laidOut(n)) return true;
    if (counter > 3) return false;
    if (n.nodeType === TEXT) {
      const d = n.data;
      if (!d) return false;
      if (!/\S/.test(d)) return true;
      const ch = after ? d[0] : d[d.length - 1];
      return /\s/.test(ch);
    }
    const t = tag(n);
    if (t === "BR") return !after || !n.hasAttribute("role");
    if (t === "IMG" || t === "INPUT" && (attr(n, "type") || "").toLowerCase() === "image") return false;
    if (style(n).display !== "inline" || REPLACED.has(t)) return true;
    const ar = attr(n, "role");
    if (ar && /^(cell|gridcell|columnheader|rowheader)$/.test(ar.trim())) return true;
    const ps = pseudoText(n, after ? "::before" : "::after");
    if (ps) return /\s/.test(after ? ps[0] : ps[ps.length - 1]);
    let child = after ? n.firstChild : n.lastChild;
    while (child && !laidOut(child)) child = after ? child.nextSibling : child.previousSibling;
    if (!child) return canIgnoreSpaceNextTo(after ? nextAbs(n) : prevAbs(n), after, counter + 1);
    return canIgnoreSpaceNextTo(child, after, counter + 1);
  };
  const enclosingBox = (n) => { for (let e = n.parentElement; e; e = e.parentElement) { if (style(e).display !== "inline") return e; } return null; };
  const wsRelevant = (c) => {
    const pv = prevAbs(c), nx = nextAbs(c);
    if (!pv || !nx) return false;
    if (canIgnoreSpaceNextTo(pv, false, 0) || canIgnoreSpaceNextTo(nx, true, 0)) return false;
    const box = enclosingBox(c);
    if (pv.nodeType === TEXT && enclosingBox(pv) !== box) return false;
    if (nx.nodeType === TEXT && enclosingBox(nx) !== box) return false;
    return true;
  };
  const pseudoInline = (el, which) => { const ps = pseudoStyle(el, which); return !ps || ps.display === "inline"; };

  const roleMemo = new Map();
  const roleOf = (el) => {
    let r = roleMemo.get(el);
    if (r !== undefined) return r;
    const t = tag(el);
    r = explicitRole(el);
    if (r === "none" && (el.tabIndex >= 0 && el.hasAttribute("tabindex") || hasGlobalAria(el))) r = null;
    if (!r) r = implicitRole(el, t, null);
    if (t === "SVG" && !r) r = "image";
    roleMemo.set(el, r);
    return r;
  };

  // -- states --------------------------------------------------------------------------
  const isFocusable = (el, t) => {
    if (el.disabled) return false;
    if (el.hasAttribute("tabindex")) return true;
    if (t === "A") return el.hasAttribute("href");
    if (t === "BUTTON" || t === "SELECT" || t === "TEXTAREA" || t === "IFRAME" || t === "SUMMARY") return true;
    if (t === "INPUT") return (attr(el, "type") || "").toLowerCase() !== "hidden";
    return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  };
  const TRI = (v) => (v === "true" ? "true" : v === "mixed" ? "mixed" : "false");
  const states = (el, t, role, i, activeEl) => {
    const add = (k, v) => { Q.push(i, str(k), v); };
    const focusable = isFocusable(el, t);
    if (focusable) add("focusable", true);
    if (el === activeEl) add("focused", true);
    const ty = t === "INPUT" ? (attr(el, "type") || "text").toLowerCase() : "";
    const disabled = el.disabled === true || attr(el, "aria-disabled") === "true" ||
      ("disabled" in el && t !== "LEGEND" && el.closest("fieldset[disabled]") !== null && el.matches(":disabled"));
    if (disabled) add("disabled", true);
    if (role === "checkbox" || role === "radio" || role === "switch" || role === "menuitemcheckbox" || role === "menuitemradio") {
      if (t === "INPUT") add("checked", el.indeterminate && ty === "checkbox" ? "mixed" : el.checked ? "true" : "false");
      else add("checked", TRI(attr(el, "aria-checked")));
    }
    if (role === "option" || role === "tab" || role === "treeitem" || role === "row" || role === "gridcell") {
      if (t === "OPTION") add("selected", el.selected);
      else if (el.hasAttribute("aria-selected")) add("selected", attr(el, "aria-selected") === "true");
      else if (role === "tab") add("selected", false);
    }
    const ex = attr(el, "aria-expanded");
    if (ex === "true" || ex === "false") add("expanded", ex === "true");
    else if (t === "SELECT" && role === "combobox") add("expanded", false);
    else if (t === "SUMMARY" && el.parentElement && el.parentElement.localName === "details") add("expanded", el.parentElement.open);
    const pr = attr(el, "aria-pressed");
    if (pr && role === "button") add("pressed", TRI(pr));
    const hp = attr(el, "aria-haspopup");
    if (hp && hp !== "false") add("hasPopup", hp === "true" ? "menu" : hp);
    else if (t === "SELECT" && role === "combobox") add("hasPopup", "menu");
    if (el.required === true || attr(el, "aria-required") === "true") add("required", true);
    const inv = attr(el, "aria-invalid");
    if (inv && inv !== "false") add("invalid", inv === "grammar" || inv === "spelling" ? inv : "true");
    else if ((t === "INPUT" || t === "TEXTAREA" || t === "SELECT") && el.willValidate && !el.validity.valid &&
             el.matches(":user-invalid")) add("invalid", "true");
    if (role === "heading") {
      const lv = parseInt(attr(el, "aria-level") || "", 10);
      add("level", lv > 0 ? lv : /^H[1-6]$/.test(t) ? parseInt(t[1], 10) : 2);
    }
    if (t === "A" && el.hasAttribute("href") || (t === "AREA" && el.hasAttribute("href"))) add("url", el.href);
    if (t === "IMG" && role === "image") add("url", el.currentSrc || el.src);
    if (el.hasAttribute("aria-modal") && attr(el, "aria-modal") === "true") add("modal", true);
    else if (t === "DIALOG" && el.open && el.matches(":modal")) add("modal", true);
    const live = attr(el, "aria-live") || (role === "alert" ? "assertive" : role === "status" || role === "log" ? "polite" : null);
    if (live && live !== "off") { add("live", live); add("atomic", attr(el, "aria-atomic") === "true" || role === "alert" || role === "status"); add("relevant", attr(el, "aria-relevant") || "additions text"); }
    if (attr(el, "aria-busy") === "true") add("busy", true);
    const ks = attr(el, "aria-keyshortcuts") || attr(el, "accesskey");
    if (ks) add("keyshortcuts", ks);
    if (role === "progressbar" || role === "slider" || role === "spinbutton" || role === "meter" || role === "scrollbar") {
      const mn = attr(el, "aria-valuemin") ?? attr(el, "min"), mx = attr(el, "aria-valuemax") ?? attr(el, "max");
      if (mn !== null && mn !== "") add("valuemin", parseFloat(mn));
      if (mx !== null && mx !== "") add("valuemax", parseFloat(mx));
      const vt = attr(el, "aria-valuetext"); if (vt) add("valuetext", vt);
    }
    const ac = attr(el, "aria-autocomplete"); if (ac && ac !== "none") add("autocomplete", ac);
    if (el.multiple === true && t === "SELECT" || attr(el, "aria-multiselectable") === "true") add("multiselectable", true);
    const ori = attr(el, "aria-orientation"); if (ori) add("orientation", ori);
    return focusable;
  };
  const valueOf = (el, t, role) => {
    if (t === "INPUT") {
      const ty = (attr(el, "type") || "text").toLowerCase();
      if (["button", "submit", "reset", "image", "checkbox", "radio", "hidden"].includes(ty)) return null;
      if (ty === "password") return el.value ? "•".repeat(el.value.length) : null;
      return el.value || null;
    }
    if (t === "TEXTAREA") return el.value || null;
    if (t === "SELECT" && role === "combobox") return selectedText(el);
    if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter" || role === "scrollbar") {
      const v = attr(el, "aria-valuetext") || attr(el, "aria-valuenow");
      if (v !== null) return v;
    }
    if (role === "textbox" || role === "searchbox" || role === "combobox") {
      if (el.isContentEditable) return el.innerText;
      return attr(el, "aria-valuenow");
    }
    return null;
  };
  const describe = (el, name) => {
    const db = attr(el, "aria-describedby");
    let s = "";
    if (db) s = idref(el, db).map((r) => trimName(contentText(r, { visited: new Set(), labelledby: true, recursion: true, hiddenOk: true }))).join(" ");
    else if (attr(el, "aria-description")) s = attr(el, "aria-description");
    else { const ti = attr(el, "title"); if (ti && trimName(ti) !== trimName(name)) s = ti; }
    return trimName(s);
  };

  // -- clickability (what Chromium's DOMSnapshot calls isClickable, abridged) ------------
  const listened = (win) => (win.__pagelensClickTargets || null);
  const clickable = (el, t, role, clickSet) => {
    if (clickSet && clickSet.has(el)) return true;
    if (typeof el.onclick === "function" || el.hasAttribute("onclick") || el.hasAttribute("onmousedown") || el.hasAttribute("onmouseup")) return true;
    if (t === "A" && el.hasAttribute("href")) return true;
    if (t === "INPUT") return !el.disabled && (attr(el, "type") || "").toLowerCase() !== "hidden";
    if (t === "TEXTAREA" || t === "SUMMARY") return !el.disabled;
    if (t === "LABEL") { const c = el.control; return !!c && c.localName !== "select" && clickable(c, tag(c), null, clickSet); }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    return false;
  };

  // -- colours / concealment -----------------------------------------------------------
  const RGBA = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)/;
  const colour = (raw) => {
    const m = RGBA.exec(raw || ""); if (!m) return null;
    const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [parseFloat(m[1]), parseFloat(m[2]), parseFloat(m[3]), a];
  };
  const WHITE = [255, 255, 255, 1];

  // -- the walk ------------------------------------------------------------------------
  const flagsOf = (box, hidden) => (box[2] > 0 && box[3] > 0 && !hidden ? 1 : 0);
  // ELS[i]: the element a node belongs to (a text's parent); DI[i]: its document's number
  const ELS = [], DI = [], BOX = [];
  const VISITED = new Set(); // shared by the walk's name computations (each leaves it empty)
  let curEl = null, curDoc = 0, nDocs = 0;
  const emit = (parent, role, name, value, desc, ref, box, flags) => {
    const i = P.length;
    ELS.push(curEl); DI.push(curDoc);
    // compact columns (the payload's size is most of a big page's transport cost): P holds the
    // distance to the parent (0: none), V / D are (node, string) pairs of the nodes that have one,
    // B holds a box only when it is not the parent's (flag 16 otherwise)
    P.push(parent < 0 ? 0 : i - parent); R.push(str(role)); N.push(name === "" ? 0 : str(name));
    if (value !== null && value !== undefined) V.push(i, str(String(value)));
    if (desc) D.push(i, str(desc));
    F.push(ref);
    BOX.push(box);
    if (parent >= 0 && BOX[parent] === box) flags |= 16;
    else B.push(box[0], box[1], box[2], box[3]);
    G.push(flags);
    return i;
  };
  str("");
  const walkDoc = (doc, parent, frameParentRef) => {
    const outerDoc = curDoc;
    curDoc = nDocs++;
    curEl = null;
    const overlays = [];
    const win = doc.defaultView;
    const st = stateOf(win);
    const clickSet = listened(win);
    const sx = win.scrollX, sy = win.scrollY;
    const activeEl = (() => { let a = doc.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; })();
    const rootIdx = emit(parent, "RootWebArea", trimName(doc.title || ""), null, "", 0, [0, 0, 0, 0], 1);
    DOCS.push(rootIdx, str(st.token), str(doc.URL), sx, sy);
    Q.push(rootIdx, str("focusable"), true);
    if (doc.hasFocus() && (!activeEl || activeEl === doc.body || activeEl === doc.documentElement)) Q.push(rootIdx, str("focused"), true);
    Q.push(rootIdx, str("url"), doc.URL);
    const vw = win.innerWidth;
    // stack of [node, parentIndex, ctx] ; ctx = {op, bg, tiny, hidden(visibility), ariaHidden}
    const top = doc.body || doc.documentElement;
    if (!top) return;
    const walk = (node, pIdx, inh) => {
      if (node.nodeType === TEXT) {
        const raw = node.data;
        if (!raw || !/\S/.test(raw) && !(inh.pre)) return;
        if (inh.hidden || inh.ariaHidden || inh.textless) return;
        curEl = node.parentElement;
        let txt = transform(raw, inh.tt);
        const pe = node.parentElement;
        if (pe && isFirstText(node)) txt = firstLetter(pe, txt);
        txt = inh.pre ? txt : txt.replace(WS, " ").trim();
        if (!txt.trim()) return;
        emit(pIdx, "StaticText", txt.length > maxName ? txt.slice(0, maxName) : txt, null, "", 0, inh.box, 1 | (CONCEAL[inh.conceal] << 8));
        return;
      }
      if (node.nodeType !== ELEM) return;
      const el = node;
      const t = tag(el);
      if (SKIP.has(t)) return;
      if (el.namespaceURI === "http://www.w3.org/2000/svg" && t !== "SVG") {
        return; // svg internals (title/desc/path): the svg root carries the name
      }
      const cs = style(el);
      if (cs.display === "none") return;
      if (t === "SLOT") { for (const c of childrenOf(el)) walk(c, pIdx, inh); return; }
      const aHidden = inh.ariaHidden || ariaHidden(el);
      if (aHidden) return; // aria-hidden subtrees are ignored whole
      const visHidden = cs.visibility !== "visible";
      const r = el.getBoundingClientRect();
      const box = [Math.round(r.left + sx), Math.round(r.top + sy), Math.round(r.width), Math.round(r.height)];
      // concealment (mirrors pagelens.browser.concealed)
      const op = inh.op * (parseFloat(cs.opacity) || (cs.opacity === "0" ? 0 : 1));
      const bgc = colour(cs.backgroundColor);
      curEl = el;
      // an opaque positioned box of some size may paint over other content (see coverPass)
      if (bgc && bgc[3] > 0.9 && box[2] >= OVERLAY_W && box[3] >= OVERLAY_H && cs.position !== "static") {
        overlays.push([el, box, parseInt(cs.zIndex, 10) || 0, P.length, cs.position === "fixed"]);
      }
      const bg = bgc && bgc[3] > 0.5 ? bgc : inh.bg;
      const ox = cs.overflowX;
      const tiny = inh.tiny || ((box[2] <= 2 || box[3] <= 2) && ox !== "visible" && ox !== "");
      let conceal = "";
      if ((box[0] + box[2] <= 0 || box[1] + box[3] <= 0) && (box[2] > 0 || box[3] > 0)) conceal = "offscreen";
      else if (tiny) conceal = "tiny";
      else if (op < 0.05) conceal = "transparent";
      else {
        const fg = colour(cs.color);
        if (fg) {
          if (fg[3] < 0.05) conceal = "transparent";
          else if (Math.max(Math.abs(fg[0] - bg[0]), Math.abs(fg[1] - bg[1]), Math.abs(fg[2] - bg[2])) <= 8) conceal = "same-colour";
        }
      }
      let role = roleOf(el);
      const inputHidden = t === "INPUT" && role === "";
      if (inputHidden) return;
      const pre = cs.whiteSpace.startsWith("pre") || cs.whiteSpace === "break-spaces";
      const childInh = { op, bg, tiny, hidden: visHidden, ariaHidden: false, tt: cs.textTransform, pre, box,
                         conceal: conceal || (inh.conceal === "offscreen" ? "" : ""), textless: false };
      childInh.conceal = conceal;
      // ignored: visibility hidden, presentational, generic without anything to say
      let ignored = visHidden;
      const focusable = isFocusable(el, t);
      const isClick = clickable(el, t, role, clickSet);
      if (role === "none") ignored = true;
      if (role === "paragraph" && !el.firstElementChild && !/\S/.test(el.textContent || "")) ignored = true; // empty
      if (t === "HTML" || t === "BODY") ignored = !isClick && !focusable;
      if (role === "generic" && !ignored) {
        // Chromium keeps a generic with an id, a title, ARIA, focus or a click handler, and a
        // block-level container (not an inline HTML element, not flex/grid) with inline content
        ignored = !(focusable || isClick || hasGlobalAria(el) || el.id || el.hasAttribute("title") || el.hasAttribute("role") ||
                    (!INLINE_TAGS.has(t) && !/flex|grid/.test(cs.display) && hasInlineContent(el)));
      }
      if (t === "LABEL" && !ignored && role === "LabelText") {
        // a label whose text names a checkbox or radio button is redundant (Chromium drops it and its text)
        const c = el.control;
        if (c && (c.type === "checkbox" || c.type === "radio") && !c.hasAttribute("aria-label") &&
            !c.hasAttribute("aria-labelledby") && trimName(el.textContent || "")) { ignored = true; childInh.textless = true; }
      }
      let idx = pIdx;
      let childParent = pIdx;
      if (!ignored) {
        let name = trimName(nameOf(el, role, { visited: VISITED, labelledby: false, recursion: false, hiddenOk: false, self: el, shown: true }));
        if (name.length > maxName) name = name.slice(0, maxName);
        const authorNamed = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") || el.hasAttribute("aria-labeledby");
        if ((role === "generic" || role === "LayoutTableRow" || (role === "row" && t === "TR" && !el.hasAttribute("role"))) &&
            !authorNamed) name = ""; // not computed by Chromium
        if (role === "image" && t === "IMG" && !name && attr(el, "alt") === null && !hasGlobalAria(el)) name = "";
        const value = valueOf(el, t, role);
        const desc = describe(el, name);
        const ref = refOf(st, el);
        let flags = (box[2] > 0 && box[3] > 0 && !visHidden ? 1 : 0) | (isClick ? 2 : 0) | (visHidden ? 4 : 0) | (CONCEAL[conceal] << 8);
        if (!(box[2] > 0 && box[3] > 0) && (role === "LineBreak")) flags |= 1;
        idx = emit(pIdx, role, name, value, desc, ref, box, flags);
        states(el, t, role, idx, activeEl);
        childParent = idx;
      }
      // children
      if (t === "IFRAME" || t === "FRAME") {
        let cd = null;
        try { cd = el.contentDocument; } catch (e) { cd = null; }
        // Chromium's own error page (a blocked or unreachable frame) is not page content
        if (cd && (cd.URL.startsWith("chrome-error:") || crossOriginSrc(el, doc))) return;
        if (cd && cd.defaultView && (cd.body || cd.documentElement)) walkDoc(cd, childParent, refOf(st, el));
        else X.push(childParent, refOf(st, el));
        return;
      }
      if (t === "SELECT") {
        if (role === "combobox") {
          const pop = emit(childParent, "MenuListPopup", "", null, "", 0, [0, 0, 0, 0], 0);
          for (const o of el.querySelectorAll("option")) {
            curEl = o;
            const oi = emit(pop, "option", trimName(attr(o, "aria-label") || o.label || o.textContent || ""), null, "", refOf(st, o), [0, 0, 0, 0], 0);
            if (!o.disabled) Q.push(oi, str("focusable"), true);
            Q.push(oi, str("selected"), o.selected);
            if (o.disabled) Q.push(oi, str("disabled"), true);
          }
          return;
        }
        for (const o of el.querySelectorAll("option")) {
            curEl = o;
          const ob = o.getBoundingClientRect();
          const oi = emit(childParent, "option", trimName(o.label || o.textContent || ""), null, "", refOf(st, o),
                          [Math.round(ob.left + sx), Math.round(ob.top + sy), Math.round(ob.width), Math.round(ob.height)], 1);
          Q.push(oi, str("selected"), o.selected);
        }
        return;
      }
      if (t === "INPUT" && role === "button") {
        const ty = (attr(el, "type") || "").toLowerCase();
        const v = attr(el, "value");
        const label = v !== null ? v : ty === "submit" ? "Submit" : ty === "reset" ? "Reset" : "";
        if (ty === "image") emit(childParent, "image", "", null, "", 0, box, flagsOf(box, visHidden));
        if (label.trim() && ty !== "image" && ty !== "file") emit(childParent, "StaticText", label, null, "", 0, box, flagsOf(box, visHidden));
        return;
      }
      if ((t === "INPUT" || t === "TEXTAREA") && !visHidden) {
        // Chromium exposes a text field's shown text as a StaticText inside it
        const v = valueOf(el, t, role);
        if (v && (role === "textbox" || role === "searchbox" || role === "combobox" || role === "spinbutton")) {
          emit(childParent, "StaticText", v.length > maxName ? v.slice(0, maxName) : v, null, "", 0, box, flagsOf(box, false));
        }
        return;
      }
      if (t === "INPUT" || t === "TEXTAREA" || t === "IMG" || role === "image" && t === "SVG") return;
      if (t === "DETAILS" && !el.open) {
        const s = Array.from(el.children).find((c) => c.localName === "summary");
        if (s) walk(s, childParent, childInh);
        return;
      }
      if (!visHidden || true) {
        const b = pseudoText(el, "::before");
        if (b && b.trim() && !visHidden) emit(childParent, "StaticText", b, null, "", 0, box, 1);
        else if (!visHidden && pseudoImage(el, "::before")) emit(childParent, "image", "", null, "", 0, box, 1);
      }
      if (t === "LI" && cs.display === "list-item" && !ignored) {
        const mk = marker(el, cs);
        if (mk) emit(childParent, "ListMarker", mk, null, "", 0, box, 1);
      }
      for (const c of childrenOf(el)) walk(c, childParent, childInh);
      curEl = el;
      if (!visHidden) {
        const a = pseudoText(el, "::after");
        if (a && a.trim()) emit(childParent, "StaticText", a, null, "", 0, box, 1);
        else if (pseudoImage(el, "::after")) emit(childParent, "image", "", null, "", 0, box, 1);
      }
    };
    const marker = (li, cs) => {
      const ty = cs.listStyleType;
      if (!ty || ty === "none") return "";
      const mcontent = getComputedStyle(li, "::marker").content;
      if (mcontent && mcontent[0] === '"') { const m = mcontent.match(/^"((?:[^"\\]|\\.)*)"/); return m ? m[1] : ""; }
      if (ty === "disc") return "• ";
      if (ty === "circle") return "◦ ";
      if (ty === "square") return "■ ";
      if (ty.startsWith('"')) return ty.slice(1, -1);
      let n = 1;
      const list = li.parentElement;
      if (list && list.localName === "ol") {
        const start = list.hasAttribute("start") ? parseInt(list.getAttribute("start"), 10) : 1;
        n = start;
        for (const s of list.children) { if (s === li) break; if (s.localName === "li") n = s.hasAttribute("value") ? parseInt(s.getAttribute("value"), 10) + 1 : n + 1; }
        if (li.hasAttribute("value")) n = parseInt(li.getAttribute("value"), 10);
      } else if (list) {
        for (const s of list.children) { if (s === li) break; if (s.localName === "li") n++; }
      }
      if (ty === "decimal") return n + ". ";
      if (ty === "lower-alpha" || ty === "lower-latin") return String.fromCharCode(96 + ((n - 1) % 26) + 1) + ". ";
      if (ty === "upper-alpha" || ty === "upper-latin") return String.fromCharCode(64 + ((n - 1) % 26) + 1) + ". ";
      if (ty === "lower-roman" || ty === "upper-roman") {
        const rom = roman(n); return (ty === "upper-roman" ? rom.toUpperCase() : rom) + ". ";
      }
      return n + ". ";
    };
    const roman = (n) => {
      const v = [[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"], [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]];
      let s = ""; for (const [k, r] of v) while (n >= k) { s += r; n -= k; } return s;
    };
    const rootInh = { op: 1, bg: WHITE, tiny: false, hidden: false, ariaHidden: false, tt: "none", pre: false,
                      box: [0, 0, 0, 0], conceal: "", textless: false };
    walk(doc.documentElement, rootIdx, rootInh);
    if (overlays.length) coverPass(doc, win, rootIdx, overlays, sx, sy);
    curDoc = outerDoc;
  };
  const crossOriginSrc = (el, doc) => {
    const src = el.getAttribute("src");
    if (!src) return false;
    try { const u = new URL(src, doc.baseURI); return /^https?:$/.test(u.protocol) && u.origin !== new URL(doc.URL).origin; }
    catch (e) { return false; }
  };
  const inPageTargets = new Map();
  const inPageTarget = (el, doc) => {
    let set = inPageTargets.get(doc);
    if (!set) {
      set = new Set();
      for (const a of doc.querySelectorAll('a[href^="#"]')) { const h = a.getAttribute("href").slice(1); if (h) set.add(h); }
      inPageTargets.set(doc, set);
    }
    return set.has(el.id);
  };
  // -- covered: an opaque positioned box painted over a node's whole box (mirrors the CDP
  // path's paint-order rule, pagelens.browser.concealed): in view, a hit test at the node's
  // centre decides; out of view, the later / higher-z overlay is taken to be on top
  const OVERLAY_W = 150, OVERLAY_H = 60, MAX_OVERLAYS = 16, MAX_HITS = 3000;
  const coverPass = (doc, win, from, overlays, sx, sy) => {
    const ovs = overlays.sort((a, b) => (b[2] - a[2]) || (b[3] - a[3])).slice(0, MAX_OVERLAYS);
    const vw = win.innerWidth, vh = win.innerHeight;
    let hits = 0;
    const hitMemo = new Map();
    for (let i = from + 1; i < P.length; i++) {
      const g = G[i];
      if (!(g & 1) || ((g >> 8) & 7)) continue;
      const [x, y, w, h] = BOX[i];
      const e = ELS[i];
      if (w <= 0 || h <= 0 || !e) continue;
      for (const ov of ovs) {
        const ob = ov[1], oe = ov[0];
        if (!(ob[0] <= x && ob[1] <= y && x + w <= ob[0] + ob[2] && y + h <= ob[1] + ob[3])) continue;
        if (oe === e || oe.contains(e) || e.contains(oe)) continue;
        const cx = x + w / 2 - sx, cy = y + h / 2 - sy;
        let covered;
        if (cx >= 0 && cy >= 0 && cx < vw && cy < vh && hits < MAX_HITS) {
          const key = e;
          let hit = hitMemo.get(key);
          if (hit === undefined) { hit = doc.elementFromPoint(cx, cy); hitMemo.set(key, hit); hits++; }
          covered = !!hit && (hit === oe || oe.contains(hit));
        } else covered = !ov[4] && (ov[3] > i || ov[2] > 0);
        if (covered) { G[i] = (g & ~(7 << 8)) | (CONCEAL.covered << 8); break; }
      }
    }
  };
  // -- the nodes an observer wants CDP backend ids for (the vision path's boxes): interactive
  // or clickable, rendered, in view in the top document, at most opts.wantMax, document order
  const wanted = (roles, max) => {
    const W = [], els = [];
    const vw = window.innerWidth, vh = window.innerHeight, sx0 = window.scrollX, sy0 = window.scrollY;
    for (let i = 0; i < P.length && W.length < max; i++) {
      if (!F[i] || !(G[i] & 1) || !ELS[i]) continue;
      if (!((G[i] & 2) || roles.has(S[R[i]]))) continue;
      if (DI[i] === 0) {
        const [x, y, w, h] = BOX[i];
        const ix = Math.max(0, Math.min(x + w, sx0 + vw) - Math.max(x, sx0));
        const iy = Math.max(0, Math.min(y + h, sy0 + vh) - Math.max(y, sy0));
        if (ix * iy < 0.5 * w * h) continue;
      }
      W.push(i); els.push(ELS[i]);
    }
    return [W, els];
  };
  const t0 = performance.now();
  walkDoc(document, -1, 0);
  let W = [];
  if (opts && opts.want) {
    const [w, els] = wanted(new Set(opts.want), opts.wantMax || 200);
    W = w;
    stateOf(window).wanted = els;
  }
  const vp = [window.innerWidth, window.innerHeight];
  return JSON.stringify({ S, P, R, N, V, D, F, B, G, Q, X, DOCS, W, vp, ms: performance.now() - t0 });
}
