// pagelens: which elements a page script listens to for clicks (installed before any page
// script runs, with the walker extraction). Chromium's DOM snapshot knows this natively
// (isClickable: click / mousedown / mouseup listeners); in-page code can only learn it by
// watching addEventListener. A WeakSet on a non-enumerable window property; nothing else changes.
(() => {
  const KEY = "__pagelensClickTargets";
  if (Object.prototype.hasOwnProperty.call(window, KEY)) return;
  const set = new WeakSet();
  Object.defineProperty(window, KEY, { value: set, enumerable: false, configurable: true });
  const TYPES = new Set(["click", "mousedown", "mouseup"]);
  const proto = EventTarget.prototype;
  const orig = proto.addEventListener;
  const hooked = {
    addEventListener(type, listener, options) {
      try { if (listener && TYPES.has(type) && this instanceof Element) set.add(this); } catch (e) { /* never break the page */ }
      return orig.call(this, type, listener, options);
    },
  }.addEventListener;
  Object.defineProperty(hooked, "toString", { value: () => orig.toString(), enumerable: false });
  Object.defineProperty(proto, "addEventListener", { value: hooked, writable: true, enumerable: true, configurable: true });
})();
