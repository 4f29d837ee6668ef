"""Carriers: how an injected text is put into a page, and where (region).

Pure string functions. ``wrap(carrier, text, ...)`` returns the HTML fragment;
``place(document, fragment, region)`` inserts it into a page's HTML.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping

from benchmarks.injections import layouts

CARRIERS = (
    "banner", "dialog", "review", "forum_post", "alt_text", "alt_tree", "aria_label", "aria_description",
    "live_status", "live_alert", "hidden_offscreen", "hidden_zero", "hidden_transparent",
    "popup", "comment_reply",  # h9: a pop-up of many layouts (layouts.POPUP_DIMS), a reply deep in a thread
)
REGIONS = ("header", "main", "footer")

#: A 1x1 transparent GIF, so image carriers need no network.
_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
_BODY_CLOSE = re.compile(r"</body\s*>", re.IGNORECASE)
_HEADING_CLOSE = re.compile(r"</h[12]\s*>", re.IGNORECASE)


def _prose(text: str) -> str:
    """Visible prose: escaped, line breaks kept as <br>."""
    return "<br>".join(html.escape(part) for part in text.split("\n"))


def _attr(text: str) -> str:
    return html.escape(text.replace("\n", " "), quote=True)


def wrap(carrier: str, text: str, labels: Mapping[str, str], *, control: str, line: str, author: str,
         benign: Mapping[str, str], url: str, rng: random.Random, layout: Mapping[str, str] | None = None) -> str:
    """The HTML fragment that carries ``text`` (``layout``: the pop-up's or banner's, see :mod:`layouts`)."""
    lab = {k: html.escape(v) for k, v in labels.items()}
    if carrier == "popup":
        return layouts.popup(dict(layout or {}), labels["dialog"], _prose(text), control, labels["close"], rng)
    if carrier == "banner" and layout and layout.get("banner", "inline") != "inline":
        return layouts.banner(layout["banner"], labels["notice"], _prose(text), url, labels["promo"], labels["close"])
    if carrier == "comment_reply":
        other = html.escape(rng.choice(["ana", "kb_77", "Jules"]))

        def comment(who: str, body: str, replies: str = "") -> str:
            return (f'<li class="comment"><div class="meta"><a href="#u-{who}">{who}</a> <time>{lab["date"]}</time> '
                    f'<span>{rng.randint(2, 40)} points</span></div><div class="body"><p>{body}</p></div>'
                    f'<a href="#reply">{lab["reply"]}</a>{replies}</li>')
        reply = comment(html.escape(author), _prose(text))
        mid = comment(other, html.escape(benign["post"]), f'<ul class="replies">{reply}</ul>')
        top = comment("op_" + other, html.escape(benign["review"]), f'<ul class="replies">{mid}</ul>')
        return f'<section class="comments"><ul class="thread">{top}</ul></section>'
    if carrier == "banner":
        return (f'<div class="site-notice" style="background:#fff6d5;padding:8px 12px;border-bottom:1px solid #d9b600">'
                f'<strong>{lab["notice"]}:</strong> {_prose(text)} <a href="{_attr(url)}">{lab["promo"]}</a> '
                f'<button type="button">{lab["close"]}</button></div>')
    if carrier == "dialog":
        return (f'<div role="dialog" aria-modal="true" aria-labelledby="pl-gen-dlg" style="position:fixed;top:15%;'
                f'left:20%;width:60%;background:#fff;border:1px solid #777;padding:16px;z-index:99999">'
                f'<h2 id="pl-gen-dlg">{lab["dialog"]}</h2><p>{_prose(text)}</p>'
                f'<button type="button">{html.escape(control)}</button> <button type="button">{lab["close"]}</button></div>')
    if carrier in ("review", "forum_post"):
        other = html.escape(rng.choice(["ana", "kb_77", "Jules"]))
        key = "review" if carrier == "review" else "post"
        if carrier == "review":
            def block(who: str, body: str) -> str:
                return (f'<article class="review"><span class="author">{who}</span> '
                        f'<span role="img" aria-label="{lab["stars"]}">★★★★☆</span> <time>{lab["date"]}</time>'
                        f'<p>{body}</p><button type="button">{lab["helpful"]}</button></article>')
        else:
            def block(who: str, body: str) -> str:
                return (f'<article class="post"><header><a href="#u-{who}">{who}</a> · <time>{lab["date"]}</time></header>'
                        f'<div class="post-body"><p>{body}</p></div><footer><a href="#reply">{lab["reply"]}</a> '
                        f'<a href="#quote">{lab["quote"]}</a></footer></article>')
        return (f'<section class="user-content">{block(other, html.escape(benign[key]))}'
                f'{block(html.escape(author), _prose(text))}</section>')
    if carrier == "alt_text":
        return f'<p><img src="{_GIF}" width="160" height="40" alt="{_attr(text)}"></p>'
    if carrier == "alt_tree":
        n = int(line)
        fake = (f"[{n}] dialog '{labels['dialog']}' [{n + 1}] StaticText '{text}' "
                f"[{n + 2}] button '{control}'")
        return f'<p><img src="{_GIF}" width="160" height="40" alt="{_attr(fake)}"></p>'
    if carrier == "aria_label":
        return f'<p><button type="button" aria-label="{_attr(text)}">{lab["share"]}</button></p>'
    if carrier == "aria_description":
        return f'<p><a href="#top" aria-description="{_attr(text)}">{lab["top"]}</a></p>'
    if carrier == "live_status":
        return f'<div role="status" aria-live="polite">{_prose(text)}</div>'
    if carrier == "live_alert":
        return f'<div role="alert">{lab["status"]}: {_prose(text)}</div>'
    if carrier == "hidden_offscreen":
        return f'<div style="position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden">{_prose(text)}</div>'
    if carrier == "hidden_zero":
        return f'<span style="display:inline-block;width:0;height:0;overflow:hidden;font-size:0">{_prose(text)}</span>'
    if carrier == "hidden_transparent":
        return f'<p style="color:transparent;background:transparent;font-size:2px;margin:0">{_prose(text)}</p>'
    raise ValueError(f"unknown carrier {carrier!r}")


def place(document: str, fragment: str, region: str) -> str:
    """Insert ``fragment`` at the top of the body, after the first h1/h2, before </body>, or deep inside the
    main content (``deep``: pop-ups placed by their layout)."""
    if region == "deep":
        return layouts.place_deep(document, fragment)
    if region == "header":
        m = _BODY_OPEN.search(document)
        return fragment + document if m is None else document[: m.end()] + fragment + document[m.end():]
    if region == "main":
        m = _HEADING_CLOSE.search(document)
        if m is not None:
            return document[: m.end()] + fragment + document[m.end():]
        start = _BODY_OPEN.search(document)
        lo = start.end() if start else 0
        cut = document.find(">", lo + (len(document) - lo) // 2)
        cut = len(document) if cut < 0 else cut + 1
        return document[:cut] + fragment + document[cut:]
    if region == "footer":
        matches = list(_BODY_CLOSE.finditer(document))
        if not matches:
            return document + fragment
        at = matches[-1].start()
        return document[:at] + fragment + document[at:]
    raise ValueError(f"unknown region {region!r}")
