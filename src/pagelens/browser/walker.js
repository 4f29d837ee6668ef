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
  const P = [], R = [], N = [], V = [], D = [], F = [], B = [], G = [], Q = [], X = [], DOCS = [], LD = [];
  // FL: (start, end) node ranges emitted inside an out-of-flow box (absolute, at least OVERLAY_W x OVERLAY_H;
  // fixed or sticky, at least BAR_W x BAR_H), innermost first; FLS: the boxes being walked (see walk)
  const FL = [], FLS = [];
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

  // SVG-AAM: basic shapes are graphics-symbol, a <g> a group (as Chromium maps them)
  const SVG_ROLE = { path: "graphics-symbol", rect: "graphics-symbol", circle: "graphics-symbol", ellipse: "graphics-symbol",
    line: "graphics-symbol", polygon: "graphics-symbol", polyline: "graphics-symbol", g: "group", image: "image", a: "link" };
  // an element's upper-case local name (each distinct name upper-cased once per walk)
  const TAGS = new Map();
  const tag = (el) => {
    const l = el.localName;
    if (!l) return "";
    let t = TAGS.get(l);
    if (t === undefined) { t = l.toUpperCase(); TAGS.set(l, t); }
    return t;
  };
  const attr = (el, a) => el.getAttribute(a);
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
  // (attribute names, not el.attributes: that makes an Attr object per attribute, kept by the page)
  const hasGlobalAria = (el) => {
    const names = el.getAttributeNames();
    for (let k = 0; k < names.length; k++) {
      const n = names[k];
      if (n.startsWith("aria-") && n !== "aria-hidden" && n !== "aria-level" && el.getAttribute(n) !== "") return true;
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

  /* @include walker_names.js */
  // -- states --------------------------------------------------------------------------
  const isFocusable = (el, t) => {
    if (el.disabled) return false;
    if (el.hasAttribute("tabindex")) return true;
    if (t === "A") return el.hasAttribute("href");
    if (t === "BUTTON" || t === "SELECT" || t === "TEXTAREA" || t === "IFRAME" || t === "SUMMARY") return true;
    if (t === "INPUT") return (attr(el, "type") || "").toLowerCase() !== "hidden";
    return el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
  };
  const noAttr = () => null;
  const anyAria = (el) => {
    const names = el.getAttributeNames();
    for (let k = 0; k < names.length; k++) { const n = names[k]; if (n.startsWith("aria-") || n === "accesskey") return true; }
    return false;
  };
  const TRI = (v) => (v === "true" ? "true" : v === "mixed" ? "mixed" : "false");
  const states = (el, t, role, i, activeEl) => {
    const add = (k, v) => { Q.push(i, str(k), v); };
    // most elements carry no aria-* attribute (nor accesskey): their many reads below are skipped
    const A = anyAria(el) ? attr : noAttr;
    const focusable = isFocusable(el, t);
    if (focusable) add("focusable", true);
    if (el === activeEl) add("focused", true);
    const ty = t === "INPUT" ? (attr(el, "type") || "text").toLowerCase() : "";
    const disabled = el.disabled === true || A(el, "aria-disabled") === "true" ||
      ("disabled" in el && t !== "LEGEND" && el.closest("fieldset[disabled]") !== null && el.matches(":disabled"));
    if (disabled) add("disabled", true);
    if (role === "checkbox" || role === "radio" || role === "switch" || role === "menuitemcheckbox" || role === "menuitemradio") {
      if (t === "INPUT") add("checked", el.indeterminate && ty === "checkbox" ? "mixed" : el.checked ? "true" : "false");
      else add("checked", TRI(A(el, "aria-checked")));
    }
    if (role === "option" || role === "tab" || role === "treeitem" || role === "row" || role === "gridcell") {
      if (t === "OPTION") add("selected", el.selected);
      else if (A(el, "aria-selected") !== null) add("selected", A(el, "aria-selected") === "true");
      else if (role === "tab") add("selected", false);
    }
    const ex = A(el, "aria-expanded");
    if (ex === "true" || ex === "false") add("expanded", ex === "true");
    else if (t === "SELECT" && role === "combobox") add("expanded", false);
    else if (t === "SUMMARY" && el.parentElement && el.parentElement.localName === "details") add("expanded", el.parentElement.open);
    const pr = A(el, "aria-pressed");
    if (pr && role === "button") add("pressed", TRI(pr));
    const hp = A(el, "aria-haspopup");
    if (hp && hp !== "false") add("hasPopup", hp === "true" ? "menu" : hp);
    else if (t === "SELECT" && role === "combobox") add("hasPopup", "menu");
    if (el.required === true || A(el, "aria-required") === "true") add("required", true);
    const inv = A(el, "aria-invalid");
    if (inv && inv !== "false") add("invalid", inv === "grammar" || inv === "spelling" ? inv : "true");
    else if ((t === "INPUT" || t === "TEXTAREA" || t === "SELECT") && el.willValidate && !el.validity.valid &&
             el.matches(":user-invalid")) add("invalid", "true");
    if (role === "heading") {
      const lv = parseInt(A(el, "aria-level") || "", 10);
      add("level", lv > 0 ? lv : /^H[1-6]$/.test(t) ? parseInt(t[1], 10) : 2);
    }
    if (t === "A" && el.hasAttribute("href") || (t === "AREA" && el.hasAttribute("href"))) add("url", el.href);
    if (t === "IMG" && role === "image") add("url", el.currentSrc || el.src);
    if (A(el, "aria-modal") === "true") add("modal", true);
    else if (t === "DIALOG" && el.open && el.matches(":modal")) add("modal", true);
    const live = A(el, "aria-live") || (role === "alert" ? "assertive" : role === "status" || role === "log" ? "polite" : null);
    if (live && live !== "off") { add("live", live); add("atomic", A(el, "aria-atomic") === "true" || role === "alert" || role === "status"); add("relevant", A(el, "aria-relevant") || "additions text"); }
    if (A(el, "aria-busy") === "true") add("busy", true);
    const ks = A(el, "aria-keyshortcuts") || A(el, "accesskey");
    if (ks) add("keyshortcuts", ks);
    if (role === "progressbar" || role === "slider" || role === "spinbutton" || role === "meter" || role === "scrollbar") {
      const mn = A(el, "aria-valuemin") ?? attr(el, "min"), mx = A(el, "aria-valuemax") ?? attr(el, "max");
      if (mn !== null && mn !== "") add("valuemin", parseFloat(mn));
      if (mx !== null && mx !== "") add("valuemax", parseFloat(mx));
      const vt = A(el, "aria-valuetext"); if (vt) add("valuetext", vt);
    }
    const ac = A(el, "aria-autocomplete"); if (ac && ac !== "none") add("autocomplete", ac);
    if (el.multiple === true && t === "SELECT" || A(el, "aria-multiselectable") === "true") add("multiselectable", true);
    const ori = A(el, "aria-orientation"); if (ori) add("orientation", ori);
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
  const colourMemo = new Map(); // a page has few distinct computed colours: parse each once
  const colour = (raw) => {
    let c = colourMemo.get(raw);
    if (c !== undefined) return c;
    const m = RGBA.exec(raw || "");
    c = null;
    if (m) {
      const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
      c = [parseFloat(m[1]), parseFloat(m[2]), parseFloat(m[3]), a];
    }
    colourMemo.set(raw, c);
    return c;
  };
  const WHITE = [255, 255, 255, 1];

  // -- the walk ------------------------------------------------------------------------
  const flagsOf = (box, hidden) => (box[2] > 0 && box[3] > 0 && !hidden ? 1 : 0);
  // ELS[i]: the element a node belongs to (a text's parent); DI[i]: its document's number
  // BX: every node's box, four numbers a node (flat: no array kept per node)
  const ELS = [], DI = [], BX = [];
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
    const b0 = box[0], b1 = box[1], b2 = box[2], b3 = box[3], q = 4 * parent;
    if (parent >= 0 && BX[q] === b0 && BX[q + 1] === b1 && BX[q + 2] === b2 && BX[q + 3] === b3) flags |= 16;
    else B.push(b0, b1, b2, b3);
    BX.push(b0, b1, b2, b3);
    G.push(flags);
    return i;
  };
  str("");
  const walkDoc = (doc, parent, frameParentRef) => {
    const outerDoc = curDoc;
    curDoc = nDocs++;
    curEl = null;
    const overlays = [], ovCands = [];
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
    const walkNode = (node, pIdx, inh) => {
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
      const display = cs.display; // each computed-style read is a call into Blink: every property is read once
      if (display === "none") return;
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
      const pos = cs.position;
      if (bgc && bgc[3] > 0.9 && box[2] >= OVERLAY_W && box[3] >= OVERLAY_H && pos !== "static") {
        overlays.push([el, box, parseInt(cs.zIndex, 10) || 0, P.length, pos === "fixed"]);
      }
      // a box fixed or stuck to the viewport may be a thin bar (a cookie bar, a toast, a notice strip): a lower bar
      const sized = pos === "fixed" || pos === "sticky" ? box[2] >= BAR_W && box[3] >= BAR_H
        : box[2] >= OVERLAY_W && box[3] >= OVERLAY_H;
      if ((pos === "fixed" || pos === "absolute") && sized) ovCands.push([el, box, cs, bgc, P.length]);
      if ((pos === "fixed" || pos === "absolute" || pos === "sticky") && sized) FLS.push(el);
      const bg = bgc && bgc[3] > 0.5 ? bgc : inh.bg;
      const hid = textHidden(cs, box, pos);
      const tiny = inh.tiny || ((box[2] <= 2 || box[3] <= 2) && cs.overflowX !== "visible" && cs.overflowX !== "") || hid === "tiny";
      let conceal = "";
      if (((box[0] + box[2] <= 0 || box[1] + box[3] <= 0) && (box[2] > 0 || box[3] > 0)) || hid === "offscreen") conceal = "offscreen";
      else if (tiny || hid === "small") conceal = "tiny";
      else if (op < 0.05) conceal = "transparent";
      else {
        const fg = colour(cs.color);
        if (fg) {
          if (fg[3] < 0.05) conceal = "transparent";
          else if (Math.max(Math.abs(fg[0] - bg[0]), Math.abs(fg[1] - bg[1]), Math.abs(fg[2] - bg[2])) <= 40 && faint(fg, bg)) conceal = "same-colour";
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
                    (!INLINE_TAGS.has(t) && !/flex|grid/.test(display) && hasInlineContent(el)));
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
        const authorNamed = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") || el.hasAttribute("aria-labeledby");
        // not computed by Chromium: a generic, a layout row, a native row, unless the author names it
        const unnamed = (role === "generic" || role === "LayoutTableRow" || (role === "row" && t === "TR" && !el.hasAttribute("role"))) &&
            !authorNamed;
        let name = unnamed ? "" : trimName(nameOf(el, role, { visited: VISITED, labelledby: false, recursion: false, hiddenOk: false, self: el, shown: true }));
        if (name.length > maxName) name = name.slice(0, maxName);
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
        // a document still loading (or still the initial about:blank of an iframe navigating to
        // its src) is walked as it is, and listed in LD so the observer says it may be incomplete
        const src = el.getAttribute("src");
        if (cd && (cd.readyState === "loading" ||
            (cd.URL === "about:blank" && !!src && !/^\s*about:blank/i.test(src) && !el.hasAttribute("srcdoc")))) LD.push(childParent);
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
      if (t === "SVG" && role === "image") {
        // svg internals are not walked, except the shapes a script listens to (a clickable map):
        // each becomes a clickable node of its own, named by its aria-label or <title>
        for (const e of el.querySelectorAll("*")) {
          if (!((clickSet && clickSet.has(e)) || e.hasAttribute("onclick"))) continue;
          const es = style(e);
          if (es.display === "none" || es.visibility !== "visible") continue;
          const r2 = e.getBoundingClientRect();
          const b2 = [Math.round(r2.left + sx), Math.round(r2.top + sy), Math.round(r2.width), Math.round(r2.height)];
          const ti = Array.from(e.children).find((c) => c.localName === "title");
          curEl = e;
          emit(childParent, explicitRole(e) || SVG_ROLE[e.localName] || "generic", trimName(attr(e, "aria-label") || (ti ? ti.textContent : "") || ""),
               null, "", refOf(st, e), b2, (b2[2] > 0 && b2[3] > 0 ? 1 : 0) | 2);
        }
        return;
      }
      if (t === "INPUT" || t === "TEXTAREA" || t === "IMG") return;
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
      if (t === "LI" && display === "list-item" && !ignored) {
        const mk = marker(el, cs);
        if (mk) emit(childParent, "ListMarker", mk, null, "", 0, box, 1);
      }
      // (siblings by nextSibling: iterating a live NodeList is a call into Blink per step; a slot returned above)
      for (let c = el.shadowRoot ? el.shadowRoot.firstChild : el.firstChild; c; c = c.nextSibling) walk(c, childParent, childInh);
      curEl = el;
      if (!visHidden) {
        const a = pseudoText(el, "::after");
        if (a && a.trim()) emit(childParent, "StaticText", a, null, "", 0, box, 1);
        else if (pseudoImage(el, "::after")) emit(childParent, "image", "", null, "", 0, box, 1);
      }
    };
    // every node emitted while an out-of-flow box is walked (its shadow root and same-origin iframe included)
    // is recorded as one FL range: the walker reports the fact, provenance judges whether it is an overlay
    const walk = (node, pIdx, inh) => {
      const s = P.length, k = FLS.length;
      walkNode(node, pIdx, inh);
      if (FLS.length > k) { FLS.length = k; if (P.length > s) FL.push(s, P.length); }
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
    if (ovCands.length) markOverlays(win, ovCands, rootIdx, sx, sy);
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
  const OVERLAY_W = 150, OVERLAY_H = 60, BAR_W = 120, BAR_H = 24, MAX_OVERLAYS = 16, MAX_HITS = 3000;
  const coverPass = (doc, win, from, overlays, sx, sy) => {
    const ovs = overlays.sort((a, b) => (b[2] - a[2]) || (b[3] - a[3])).slice(0, MAX_OVERLAYS);
    const vw = win.innerWidth, vh = win.innerHeight;
    let hits = 0;
    const hitMemo = new Map();
    for (let i = from + 1; i < P.length; i++) {
      const g = G[i];
      if (!(g & 1) || ((g >> 8) & 7)) continue;
      const x = BX[4 * i], y = BX[4 * i + 1], w = BX[4 * i + 2], h = BX[4 * i + 3];
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
  // -- text whose colour barely differs from its background: a contrast ratio (WCAG) under FAINT, blended
  // by the text colour's alpha (mirrors pagelens.browser.concealed.faint)
  const FAINT = 1.15;
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const faint = (fg, bg) => {
    const a = fg[3];
    const mix = [0, 1, 2].map((k) => a * fg[k] + (1 - a) * bg[k]);
    const l1 = lum(mix), l2 = lum(bg);
    return (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05) < FAINT;
  };
  // -- text hidden by CSS that the box and colour tests miss: a font too small to read, a clip or clip-path
  // that leaves nothing, a text-indent pushing the text out of its box, a transform scaling it to nothing.
  // "tiny" (clipped or scaled away: inherited by the subtree), "small" (this element's own text: its children
  // compute their own font size, as in the inline-block "font-size:0" layout trick) or "offscreen"
  // (mirrors pagelens.browser.concealed.text_hidden)
  const CLIP_NONE = /^(?:inset\(\s*(?:[5-9]\d|100)%|circle\(\s*0(?:px|%)?[\s)]|ellipse\(\s*0(?:px|%)?[\s)]|polygon\(\s*0(?:px|%)?\s+0(?:px|%)?\s*\)$)/;
  const textHidden = (cs, box, pos) => {
    const fs = parseFloat(cs.fontSize);
    if (fs < 3) return "small";
    const cp = cs.clipPath;
    if (cp && cp !== "none" && CLIP_NONE.test(cp)) return "tiny";
    if (pos === "absolute" || pos === "fixed") {
      const c = cs.clip;
      if (c && c.startsWith("rect(")) {
        const v = c.slice(5, -1).split(/[\s,]+/).map(parseFloat);
        if (v.length === 4 && (v[2] - v[0] <= 2 || v[1] - v[3] <= 2)) return "tiny";
      }
    }
    const ti = cs.textIndent;
    if (ti && ti !== "0px") {
      const n = parseFloat(ti);
      if (n < 0 && box[0] + n + box[2] <= 0) return "offscreen";
      if (n > 0 && n >= box[2] && cs.overflowX !== "visible") return "offscreen";
    }
    if ((box[2] === 0 || box[3] === 0) && /^matrix\((?:0,|(?:[^,]+, ){3}0,)/.test(cs.transform)) return "tiny";
    return "";
  };
  // -- overlays the page laid over its content (a pop-up, a cookie layer, a chat box), however they are
  // marked up: a position:fixed box, or an absolutely positioned opaque one with a z-index, at least
  // OVERLAY_W x OVERLAY_H, mostly in view, that is not the page's own chrome (a landmark, a menu) and does
  // not hold most of the page (an app shell). Every node inside gets flag OVERLAY (walker.py: Node.overlay).
  const OVERLAY = 2048, OV_SHARE = 0.5, OV_SMALL = 60;
  // chrome: the box is a landmark or a menu, or holds navigation or the main content (a modal's own
  // <header>/<footer> are no landmarks there)
  const OV_SELF = "header,nav,footer,main,[role=banner],[role=navigation],[role=contentinfo],[role=main]," +
    "[role=menubar],[role=menu],[role=listbox],[role=tooltip],[role=search]";
  const OV_INNER = "nav,main,[role=banner],[role=navigation],[role=main],[role=menubar],[role=search]";
  const markOverlays = (win, cands, from, sx, sy) => {
    const vw = win.innerWidth, vh = win.innerHeight, total = P.length - from;
    for (const [el, box, cs, bg, start] of cands) {
      if (start >= P.length || (G[start] & OVERLAY)) continue; // nothing emitted, or inside an overlay already
      if (cs.position === "absolute" && !((parseInt(cs.zIndex, 10) || 0) > 0 && bg && bg[3] > 0.5)) continue;
      const x = box[0] - sx, y = box[1] - sy, w = box[2], h = box[3];
      const ix = Math.min(x + w, vw) - Math.max(x, 0), iy = Math.min(y + h, vh) - Math.max(y, 0);
      if (ix <= 0 || iy <= 0 || ix * iy < 0.5 * w * h) continue;
      if (el.matches(OV_SELF) || el.querySelector(OV_INNER)) continue;
      let end = start;
      while (end < P.length && ELS[end] && (ELS[end] === el || el.contains(ELS[end]))) end++;
      if (end - start > OV_SMALL && end - start > OV_SHARE * total) continue;
      for (let k = start; k < end; k++) G[k] |= OVERLAY;
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
        const x = BX[4 * i], y = BX[4 * i + 1], w = BX[4 * i + 2], h = BX[4 * i + 3];
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
    if (opts.sink) opts.sink.wanted = els; // the observer's (see walker.py _CALL)
  }
  const vp = [window.innerWidth, window.innerHeight];
  // what only the walk needed goes before the JSON string is built (a 100k-element page's memos hold
  // a computed style, a name and a role per element): the renderer's peak is the columns and the string
  for (const m of [styleCache, pseudoMemo, contentMemo, labelMaps, firstLetterMemo, roleMemo, tableKind, hiddenMemo]) m.clear();
  ELS.length = 0; BX.length = 0; DI.length = 0;
  smap.clear();
  return JSON.stringify({ S, P, R, N, V, D, F, B, G, Q, X, DOCS, W, LD, FL, vp, ms: performance.now() - t0 });
}
