"""Event-driven settling: wait until an action's effects are visible, then fingerprint the page.

After a page action the executor must not read the page too early (a request the action
started has not answered, a navigation has not committed) nor wait a fixed time (most actions
take effect synchronously, in the event handlers the action ran). One bounded page script,
:data:`SETTLE_JS`, resolves as soon as

* no navigation is under way (``beforeunload`` seen in this document: the script answers
  ``leaving`` at once, the caller waits for the page's next ``DOMContentLoaded`` event and runs
  it again in the new document), and the document is parsed (its own event, awaited in the page);
* no ``fetch`` / ``XMLHttpRequest`` started since the action began is in flight, and no timer of
  at most :data:`SOON_MS` set since then (a handler's "navigate in 40 ms", "show the result on
  the next tick") has yet to run (the page-side counter of :data:`NET_JS`, installed in every
  document before the page's scripts);
* no DOM mutation (child lists, text, attributes other than ``style``: a per-frame animation
  is not an effect) for one animation frame, measured by a ``MutationObserver``;

or, at the latest, after ``max_ms`` (a page that never stops changing: the signal detector
then reports what happened later as the page's own change). An action the script runs itself
(a fill or a selection in the main document: ``act``) is watched from before it runs: when, once
the tasks already queued have run, it caused no DOM mutation and the page scheduled nothing that
could change it later (no request, timer, frame callback, posted message, form submission or
history entry: the ``busy`` count of :data:`NET_JS`) and did not start to leave, nothing is left
to wait for and the frame is not awaited (``quick``). It then returns the page's
fingerprint (:mod:`pagelens.actions.fingerprint`), so settling and reading the state after
the action are one round trip; the same call can read the page for the signal detector, read
the element acted on (a field's value) and remove the element's marker. The call is bounded
from outside the page (:meth:`~pagelens.browser.page.Tab.evaluate` with ``timeout_ms``): a main
thread that never answers is a :class:`~pagelens.errors.PageTimeout`, not a hung call.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pagelens.actions.fingerprint import FINGERPRINT_FN, HASH_LIMIT, Fingerprint, from_page, take
from pagelens.actions.targets import MARKED_FN, OPTIONS_JS, PROBE_JS, USABLE_JS
from pagelens.errors import ActionError, PageError, PageTimeout

if TYPE_CHECKING:
    from pagelens.browser.page import Frame, Tab

__all__ = ["BEFORE_JS", "BEFORE_OPTIONS_JS", "BEFORE_PROBE_JS", "NET_JS", "SETTLE_JS", "Settled", "settled"]

#: A timer set with at most this delay counts as work in flight until it ran (or was cleared).
SOON_MS = 100

#: Page side, idempotent: work in flight (by start time, page clock) and whether this document is
#: being left. A request counts until a task after it answered, and so does a read of a response's
#: body (``json()``, ``text()``…: the body may arrive in a later task than the headers, and the
#: page's handler that updates the DOM runs after the read, before the count ends); a ``setTimeout``
#: of at most :data:`SOON_MS` counts until its callback returned (a chain of them, or a page's short
#: polling loop, keeps the page unsettled: the settling's ``max_ms`` bounds that).
NET_JS = """(() => {
  if (window.__pagelensNet) return;
  const later = window.setTimeout, cancel = window.clearTimeout;
  // (later, frame, post: the settling's own timers, frames and task hop are not the page's)
  const net = {open: new Map(), next: 1, leaving: 0, later, busy: 0, frame: window.requestAnimationFrame,
               post: window.MessagePort && MessagePort.prototype.postMessage};
  Object.defineProperty(window, '__pagelensNet', {value: net, enumerable: false});
  // busy: work the page scheduled that could change it after the current task (a frame callback,
  // a posted message or task, a form submission, a timer, a request, a history entry), counted when
  // scheduled; the settling's quick exit after an action needs it unchanged
  const counted = (owner, name) => {
    const f = owner && owner[name];
    if (typeof f !== 'function') return;
    owner[name] = function (...args) { net.busy++; return f.apply(this, args); };
  };
  for (const name of ['requestAnimationFrame', 'requestIdleCallback', 'setInterval', 'postMessage'])
    counted(window, name);
  for (const owner of ['MessagePort', 'Worker', 'BroadcastChannel'])
    counted(window[owner] && window[owner].prototype, 'postMessage');
  counted(window.WebSocket && WebSocket.prototype, 'send');
  counted(window.Scheduler && Scheduler.prototype, 'postTask');
  counted(window.HTMLFormElement && HTMLFormElement.prototype, 'submit');
  counted(window.History && History.prototype, 'pushState');
  counted(window.History && History.prototype, 'replaceState');
  addEventListener('submit', () => { net.busy++; }, true);
  // what an action caused, watched from before it runs: effect mutations, the busy count, the address
  const effect = (records) => records.some((r) => !(r.type === 'attributes'
    && (r.attributeName === 'style' || r.attributeName === 'data-pagelens-target')));
  net.effect = effect;
  net.watch = () => {
    if (net.armed) net.armed.mo.disconnect();
    const w = {moved: false, busy: net.busy, url: location.href};
    w.mo = new MutationObserver((records) => { w.moved = w.moved || effect(records); });
    w.mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    later(() => w.mo.disconnect(), 10000);  // (a watch nobody reads does not outlive its action)
    return (net.armed = w);
  };
  const start = () => { const id = net.next++; net.busy++; net.open.set(id, Date.now()); return id; };
  const end = (id) => later(() => net.open.delete(id), 0);
  const timers = new Map();  // the page's timer handle -> our id
  if (typeof later === 'function') {
    window.setTimeout = function (fn, ms, ...args) {
      const delay = ms === undefined ? 0 : Number(ms);
      if (typeof fn !== 'function' || !(delay <= """ + str(SOON_MS) + """)) { net.busy++; return later.call(window, fn, ms, ...args); }
      const id = start();
      const h = later.call(window, function (...a) {
        timers.delete(h); net.open.delete(id);
        return fn.apply(this, a);
      }, ms, ...args);
      timers.set(h, id);
      return h;
    };
    window.clearTimeout = function (h) {
      const id = timers.get(h);
      if (id !== undefined) { timers.delete(h); net.open.delete(id); }
      return cancel.call(window, h);
    };
  }
  const f = window.fetch;
  if (typeof f === 'function') {
    window.fetch = function (...args) {
      const id = start();
      let p;
      try { p = f.apply(this, args); } catch (e) { net.open.delete(id); throw e; }
      Promise.resolve(p).then(() => end(id), () => end(id));
      return p;
    };
  }
  // reading a response's body is part of the request: a page's handler runs after the read
  const R = window.Response && window.Response.prototype;
  if (R) for (const m of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
    const read = R[m];
    if (typeof read !== 'function') continue;
    R[m] = function (...args) {
      const id = start();
      let p;
      try { p = read.apply(this, args); } catch (e) { net.open.delete(id); throw e; }
      Promise.resolve(p).then(() => end(id), () => end(id));
      return p;
    };
  }
  const X = window.XMLHttpRequest;
  if (X && X.prototype && X.prototype.send) {
    const send = X.prototype.send;
    X.prototype.send = function (...args) {
      const id = start();
      this.addEventListener('loadend', () => end(id), {once: true});
      try { return send.apply(this, args); } catch (e) { net.open.delete(id); throw e; }
    };
  }
  addEventListener('beforeunload', () => { net.leaving = Date.now(); }, true);
  addEventListener('pageshow', (e) => { if (e.persisted) net.leaving = 0; }, true);  // back from the cache
})();"""

#: The fingerprint before an action, installing the request counter in the current document
#: first (documents opened later have it from the executor's init script).
BEFORE_JS = "(limit) => {" + NET_JS + FINGERPRINT_FN + " return __pagelensFingerprint(limit); }"

#: Run on the target element (main frame): the fingerprint before the action, then the element
#: probe (:data:`~pagelens.actions.targets.PROBE_JS`, which may scroll it into view), in one call;
#: it arms the watch of what the action will cause (the settling's ``watched``).
BEFORE_PROBE_JS = ("(el, limit) => {" + NET_JS + FINGERPRINT_FN + " const fp = __pagelensFingerprint(limit); "
                   "window.__pagelensNet.watch(); "
                   "return {fp, probe: (" + PROBE_JS + ")(el)}; }")

#: Run on a ``<select>`` (main frame): the fingerprint before the action, the element's options
#: (:data:`~pagelens.actions.targets.OPTIONS_JS`) and whether it can be used (:data:`~pagelens.actions.targets.USABLE_JS`)
#: in one call.
BEFORE_OPTIONS_JS = ("(el, limit) => {" + NET_JS + FINGERPRINT_FN + " const fp = __pagelensFingerprint(limit); "
                     "return {fp, probe: Object.assign({options: (" + OPTIONS_JS + ")(el)}, (" + USABLE_JS + ")(el))}; }")

#: ``([limit, since, maxMs, mark, act, watched]) => fingerprint | {leaving: ms}``: ``leaving`` while a navigation is
#: under way (the caller waits for it to end, event-driven, and asks again in the new document).
#: ``mark`` (``[attr, nonce]`` or null): the element acted on, read (``element``) and unmarked after the fingerprint.
#: ``act`` (null, or the argument of the ``/*ACT*/`` function of the marked element): the action itself,
#: run first in this call (its result: ``acted``). When it caused nothing the page could still be working
#: on — no DOM mutation, no request, timer, frame callback, posted message, form submission or history
#: entry scheduled, no navigation, the same address, once the tasks already queued ran — the page is
#: settled at once (``quick``); otherwise the settling below runs as after any action. ``watched``: the
#: same check for an action made since :data:`BEFORE_PROBE_JS` armed the watch (a click, a hover).
SETTLE_JS = "async ([limit, since, maxMs, mark, act, watched]) => {" + NET_JS + FINGERPRINT_FN + MARKED_FN + """
  const net = window.__pagelensNet, later = net.later || setTimeout;
  // a navigation started less than 3 s ago and not ended yet (a 204 or a download never commits)
  const leaving = () => {
    const age = net.leaving ? Date.now() - net.leaving : 3000;
    return age < 3000 ? 3000 - age : 0;
  };
  const pending = () => { let n = 0; for (const t of net.open.values()) if (t >= since) n++; return n; };
  const effect = net.effect;
  const el = mark ? __pagelensMarked(mark[0], mark[1]) : null;
  let acted = null, quick = false;
  // the action run here (act), or the one the watch armed before the action was made for (watched)
  const w = act ? net.watch() : (watched ? net.armed : null);
  if (net.armed && net.armed !== w) net.armed.mo.disconnect();
  net.armed = null;
  if (act)
    try { acted = el ? {value: (/*ACT*/ null)} : {gone: true}; } catch (e) { acted = {error: String(e && e.message || e)}; }
  if (w) {
    // the tasks already queued run first (a form submission, a hashchange, a posted message), then the check
    await new Promise((r) => {
      if (typeof net.post !== 'function') return later(r, 0);
      const c = new MessageChannel(); c.port1.onmessage = () => r(); net.post.call(c.port2, 0); later(r, 50);
    });
    const moved = w.moved || effect(w.mo.takeRecords());
    w.mo.disconnect();
    quick = !moved && net.busy === w.busy && !pending() && !leaving() && location.href === w.url
      && document.readyState !== 'loading';
  }
  if (!quick) {
    if (leaving()) return {leaving: leaving(), acted};
    const t0 = performance.now();
    if (document.readyState === 'loading')  // a new document: until it is parsed (the event, not a poll)
      await new Promise((r) => { document.addEventListener('DOMContentLoaded', r, {once: true}); later(r, maxMs); });
    let last = t0;
    const mo = new MutationObserver((records) => { if (effect(records)) last = performance.now(); });
    mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    const raf = net.frame || requestAnimationFrame;
    const frame = () => new Promise((r) => { raf.call(window, () => r()); later(r, 50); });
    try {
      let quietSince = t0;  // the last moment a request of the action was still in flight
      for (;;) {
        await frame();  // (the first: the action's own frame is rendered)
        const away = leaving();
        if (away) return {leaving: away, acted};
        const now = performance.now();
        if (now - t0 >= maxMs) break;
        if (pending()) quietSince = now;
        else if (now - Math.max(last, quietSince) >= 12) break;  // a frame without mutations
      }
    } finally { mo.disconnect(); }
  }
  const fp = __pagelensFingerprint(limit);
  let extra = null;
  try { extra = (/*AFTER*/ null); } catch (e) { extra = null; }
  let element = null;
  if (el && el.isConnected) {
    try { element = {value: (/*ELEMENT*/ null)}; } catch (e) { element = null; }
  }
  if (el) el.removeAttribute(mark[0]);
  return Object.assign(fp, {extra, element, acted, quick, unmarked: !!mark});
}"""


@dataclass(frozen=True, slots=True)
class Settled:
    """The page once an action settled: its fingerprint and what the same call read."""

    fingerprint: Fingerprint
    #: ``after_js``'s result (None: not run, or it failed)
    page_state: Any = None
    #: ``element_js``'s result on the marked element, as ``{"value": ...}`` (None: not asked, or the
    #: element is gone)
    element: Any = None
    #: the marker was removed (or its document is gone): the element needs no release call
    unmarked: bool = False
    #: what ``act`` answered: ``{"value": ...}``, ``{"gone": True}`` (the element had left the page),
    #: ``{"error": ...}``; None: no act asked, or the call that ran it did not answer
    acted: Any = None
    #: the act caused nothing to wait for: settled without a frame
    quick: bool = False


def settled(tab: Tab, frame: Frame | None, *, since_ms: float, timeout_ms: float, max_ms: float = 500.0,
            after_js: str = "", mark: tuple[str, str] | None = None, element_js: str = "",
            act: tuple[str, Any] | None = None, watched: bool = False) -> Settled:
    """The page's fingerprint once the action that started at ``since_ms`` (page clock) has
    settled (see the module docstring), bounded by ``timeout_ms`` even on a stuck page (then
    :class:`~pagelens.errors.PageTimeout`); the result of ``after_js`` (a function expression run
    in the page right after the fingerprint, e.g. the signal detector's read); with ``mark``
    (the marker of an element of the main document), ``element_js`` (a function of that element)
    and the marker's removal, in the same call. ``act`` (``(js, arg)``, with ``mark``): the action
    itself, ``js(element, arg)`` run first in the same call, once (a call that did not answer is not
    repeated with it: :attr:`Settled.acted` is then None). ``watched``: the action was made since
    :data:`BEFORE_PROBE_JS` ran (its watch of what the action causes is read).

    A navigation the action started (``beforeunload`` seen in the page) is waited for until its
    next document is parsed (:meth:`~pagelens.browser.driving.Driver.wait_navigation_end`: the
    page's event, no polling), at most the 3 s the page script allows it, then settled there."""
    script = SETTLE_JS.replace("/*AFTER*/ null", f"({after_js})()") if after_js else SETTLE_JS
    if element_js:
        script = script.replace("/*ELEMENT*/ null", f"({element_js})(el)")
    if act is not None and mark is not None:
        script = script.replace("/*ACT*/ null", f"({act[0]})(el, act.arg)")
        act_arg: Any = {"arg": act[1]}  # (an object: a falsy argument must not read as "no act")
    else:
        act_arg = None
    acted: Any = None
    deadline = time.monotonic() + timeout_ms / 1000
    held = False
    for _ in range(4):
        left = max(1.0, (deadline - time.monotonic()) * 1000)
        ended = tab.navigations_ended()  # (before the script: a document parsed after it saw "leaving" counts)
        args = [HASH_LIMIT, since_ms, max_ms, list(mark) if mark else None, act_arg, watched]
        act_arg, watched = None, False  # (once: a retry settles, it does not act again)
        try:
            raw = tab.evaluate(script, args, timeout_ms=left)
        except PageTimeout:
            # Chromium holds a page call sent while a main-frame navigation is under way until the new
            # document commits (a slow server): once more, with the whole bound; a stuck page again times out
            if held:
                raise PageTimeout(f"the page did not answer within {timeout_ms / 1000:g} s after the action, "
                                  "twice (its main thread is busy: a script that never yields?)") from None
            held = True
            deadline = time.monotonic() + timeout_ms / 1000
            continue
        except (PageError, ActionError):  # the context was replaced by a navigation: wait for the new document
            tab.wait_for_load("domcontentloaded", timeout_ms=left)
            continue
        if isinstance(raw, dict) and raw.get("acted") is not None:
            acted = raw["acted"]
        if isinstance(raw, dict) and "leaving" in raw:  # (its own bound: the page's 3 s, not what is left)
            tab.wait_navigation_end(ended, timeout_ms=float(raw["leaving"]))
            deadline = max(deadline, time.monotonic() + max_ms / 1000)  # the new document gets its settle
            continue
        return Settled(from_page(raw, frame, timeout_s=timeout_ms / 1000), raw.get("extra"), raw.get("element"),
                       bool(raw.get("unmarked")), acted, bool(raw.get("quick")))
    return Settled(take(tab, frame, timeout_s=timeout_ms / 1000), acted=acted)
