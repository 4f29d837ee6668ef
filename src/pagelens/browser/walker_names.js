// pagelens in-page walker, part 2 (spliced into walker.js at its @include line by walker.py):
// text helpers and the accessible name (accname 1.2 / html-aam, Chromium's spacing rules).
// Not a script of its own: it uses the walker's closure (attr, tag, roleOf, style, CONCEAL ...).
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
  // A ::before / ::after exists only with a `content` (not inherited, "normal" unless a rule on
  // the pseudo-element sets it), so only rules that declare `content` (or `all`) count: the
  // common `*, *::before, *::after { box-sizing: ... }` no longer sends every element through a
  // pseudo-style computation.
  const pseudoGate = new Map();
  const splitSel = (sel) => { const out = []; let depth = 0, cur = ""; for (const ch of sel) { if (ch === "(" || ch === "[") depth++; else if (ch === ")" || ch === "]") depth--; if (ch === "," && depth === 0) { out.push(cur); cur = ""; } else cur += ch; } out.push(cur); return out; };
  const PSEUDO_RE = /::?(before|after|first-letter)(?![\w-])/i;
  const setsContent = (r) => { const d = r.style; return !d || d.getPropertyValue("content") !== "" || d.getPropertyValue("all") !== ""; };
  const gateOf = (root) => {
    let g = pseudoGate.get(root);
    if (g) return g;
    const parts = { before: [], after: [], "first-letter": [] };
    let unknown = false;
    const visit = (rules) => {
      for (const r of rules) {
        const text = r.selectorText;
        // most rules name no pseudo-element: tested whole, split (one character at a time) only when one does
        if (text && PSEUDO_RE.test(text)) {
          for (const part of splitSel(text)) {
            const m = PSEUDO_RE.exec(part);
            if (!m) continue;
            const kind = m[1].toLowerCase();
            if (kind !== "first-letter" && !setsContent(r)) continue;
            const base = part.replace(new RegExp(PSEUDO_RE.source, "gi"), "").trim();
            parts[kind].push(base || "*");
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
    const sl = slotted(el);
    for (let c = firstKid(el, sl), k = 0; c; c = sl ? sl[++k] : c.nextSibling) {
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
  // hidden from everyone (display:none / visibility:hidden / aria-hidden on it or an ancestor)
  const hiddenForName = (el) => hardHidden(el) || (el.nodeType === ELEM && style(el).visibility !== "visible");
  // hidden for good (display:none or aria-hidden on it or an ancestor, across shadow hosts):
  // visibility:hidden content may have visible children. Memoised per element for the walk (a
  // name computed from content asks it of every descendant: a loop to the root each time was
  // quadratic in the depth)
  const hiddenMemo = new Map();
  const hardHidden = (el) => {
    if (!el || el.nodeType !== ELEM) return false;
    let h = hiddenMemo.get(el);
    if (h === undefined) {
      h = ariaHidden(el) || style(el).display === "none" || hardHidden(el.parentElement || (el.getRootNode && el.getRootNode().host));
      hiddenMemo.set(el, h);
    }
    return h;
  };
  const childrenOf = (el) => {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (tag(el) === "SLOT") { const a = el.assignedNodes({ flatten: false }); return a.length ? a : el.childNodes; }
    return el.childNodes;
  };
  // the same children without a live NodeList (iterating one is a call into Blink per step): a slot's
  // assigned nodes as an array (else null), and the first child to follow by nextSibling
  const slotted = (el) => {
    if (el.shadowRoot || tag(el) !== "SLOT") return null;
    const a = el.assignedNodes({ flatten: false });
    return a.length ? a : null;
  };
  const firstKid = (el, sl) => (sl ? sl[0] : el.shadowRoot ? el.shadowRoot.firstChild : el.firstChild);
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
    // (a <figure> is not named from its <figcaption>: Chromium 156 gives it no name, probed)
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
    const sl = isElem ? slotted(el) : null;
    for (let c = firstKid(el, sl), k = 0; c; c = sl ? sl[++k] : c.nextSibling) {
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
  // the ::first-letter text-transform of an element that differs from its own ("" mostly)
  const firstLetterTransform = (el) => {
    let tt = firstLetterMemo.get(el);
    if (tt === undefined) {
      tt = "";
      const cs = style(el);
      if ((!cs.display.startsWith("inline") || cs.display === "inline-block") && mayHave(el, "::first-letter")) {
        const ft = getComputedStyle(el, "::first-letter").textTransform;
        if (ft && ft !== cs.textTransform && ft !== "none") tt = ft;
      }
      firstLetterMemo.set(el, tt);
    }
    return tt;
  };
  const firstLetter = (el, d) => {
    const tt = firstLetterTransform(el);
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

