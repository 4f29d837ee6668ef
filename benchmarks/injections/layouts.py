"""Layouts of the pop-up and banner carriers (h9): many ways to lay a box over a page or a notice across its top.

A pop-up is described by one value per dimension of :data:`POPUP_DIMS` (positioning, dialog semantics, a
backdrop, where in the document it is inserted, stacking, a close button, whether it appears after the load
event, and whether it lives in the document, a shadow root or a same-origin iframe); a banner by one of
:data:`BANNER_LAYOUTS`. Pure string functions: :func:`popup` and :func:`banner` return the HTML fragment,
:func:`place_deep` inserts a fragment deep inside the page's main content.
"""

from __future__ import annotations

import html
import json
import random
import re

POPUP_DIMS: dict[str, tuple[str, ...]] = {
    "position": ("fixed", "absolute", "sticky"),
    "semantics": ("none", "dialog", "modal", "aria_modal_only"),
    "backdrop": ("backdrop", "none"),
    "place": ("start", "end", "deep"),
    "z": ("high", "default"),
    "close": ("button", "none"),
    "timing": ("load", "delayed"),
    "container": ("plain", "shadow", "iframe"),
}
BANNER_LAYOUTS = ("inline", "sticky", "fixed_top", "in_header", "region", "status")

_MAIN_OPEN = re.compile(r"<main\b[^>]*>|<[a-z]+[^>]*\brole=[\"']?main\b[^>]*>", re.IGNORECASE)
_MAIN_CLOSE = re.compile(r"</main\s*>", re.IGNORECASE)
_BLOCK_CLOSE = re.compile(r"</(?:p|div|section|li)\s*>", re.IGNORECASE)
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def _box_style(lay: dict[str, str], rng: random.Random) -> str:
    pos = lay["position"]
    top = rng.choice((40, 90, 140))
    where = {"fixed": f"top:{top}px;left:50%;transform:translateX(-50%)",
             "absolute": f"top:{top}px;left:{rng.choice((5, 15, 25))}%",
             "sticky": "top:12px;margin:12px auto"}[pos]
    z = ";z-index:2147483000" if lay["z"] == "high" else ""
    return (f"position:{pos};{where};width:min(460px,80vw);background:#fff;color:#222;border:1px solid #999;"
            f"border-radius:6px;box-shadow:0 6px 28px rgba(0,0,0,.35);padding:18px 20px;font:15px/1.45 sans-serif{z}")


def _semantics(lay: dict[str, str], label_id: str) -> str:
    sem = lay["semantics"]
    if sem == "dialog":
        return f' role="dialog" aria-labelledby="{label_id}"'
    if sem == "modal":
        return f' role="dialog" aria-modal="true" aria-labelledby="{label_id}"'
    if sem == "aria_modal_only":
        return ' aria-modal="true"'
    return ""


def popup(lay: dict[str, str], heading: str, body_html: str, control: str, close: str, rng: random.Random) -> str:
    """A pop-up box laid out as ``lay`` says (see :data:`POPUP_DIMS`)."""
    label_id = f"pl-pop-{rng.randrange(10**6)}"
    closer = (f'<button type="button" class="pl-close" aria-label="{html.escape(close, quote=True)}" '
              f'style="float:right">×</button>' if lay["close"] == "button" else "")
    inner = (f'{closer}<h2 id="{label_id}" style="margin:0 0 8px;font-size:18px">{html.escape(heading)}</h2>'
             f'<p>{body_html}</p><button type="button">{html.escape(control)}</button>')
    box = f'<div class="pl-pop"{_semantics(lay, label_id)} style="{_box_style(lay, rng)}">{inner}</div>'
    backdrop = ""
    if lay["backdrop"] == "backdrop":
        z = ";z-index:2147482999" if lay["z"] == "high" else ""
        backdrop = f'<div class="pl-backdrop" style="position:fixed;inset:0;background:rgba(0,0,0,.45){z}"></div>'
    if lay["container"] == "iframe":
        doc = (f'<!doctype html><html><body style="margin:0;font:15px/1.45 sans-serif">'
               f'<div{_semantics(lay, label_id)} style="padding:18px 20px">{inner}</div></body></html>')
        style = _box_style(lay, rng).replace("padding:18px 20px", "padding:0") + ";height:260px"
        box = (f'<iframe class="pl-pop" title="{html.escape(heading, quote=True)}" style="{style}" '
               f'srcdoc="{html.escape(doc, quote=True)}"></iframe>')
    content = backdrop + box
    if lay["container"] == "shadow":
        show = ("var h=s.previousElementSibling;h.attachShadow({mode:'open'}).innerHTML=" + json.dumps(content) + ";")
        host = '<div class="pl-host"></div>'
        return host + _script(show, lay["timing"] == "delayed")
    if lay["timing"] == "delayed":
        return (f"<template>{content}</template>" +
                _script("var t=s.previousElementSibling;t.replaceWith(t.content.cloneNode(true));", True))
    return content


def _script(body: str, delayed: bool) -> str:
    run = f"var s=document.currentScript;function show(){{{body}}}"
    run += "addEventListener('load',function(){setTimeout(show,40)});" if delayed else "show();"
    return f"<script>(function(){{{run}}})()</script>"


def banner(layout: str, label: str, body_html: str, url: str, promo: str, close: str) -> str:
    """A site-wide notice across the top of the page, laid out as ``layout`` (see :data:`BANNER_LAYOUTS`)."""
    style = "background:#fff6d5;padding:8px 12px;border-bottom:1px solid #d9b600;font:14px sans-serif"
    attrs = ""
    if layout == "sticky":
        style += ";position:sticky;top:0;z-index:50"
    elif layout == "fixed_top":
        style += ";position:fixed;top:0;left:0;right:0;z-index:9999"
    elif layout == "region":
        attrs = f' role="region" aria-label="{html.escape(label, quote=True)}"'
    elif layout == "status":
        attrs = ' role="status"'
    inner = (f'<strong>{html.escape(label)}:</strong> {body_html} <a href="{html.escape(url, quote=True)}">'
             f'{html.escape(promo)}</a> <button type="button">{html.escape(close)}</button>')
    div = f'<div class="site-notice"{attrs} style="{style}">{inner}</div>'
    return f"<header>{div}</header>" if layout == "in_header" else div


def place_deep(document: str, fragment: str) -> str:
    """``fragment`` inserted deep inside the main content: after a block's end past the middle of ``<main>``
    (or of the body when there is none)."""
    m = _MAIN_OPEN.search(document)
    if m is not None:
        lo = m.end()
        close = _MAIN_CLOSE.search(document, lo)
        hi = close.start() if close else len(document)
    else:
        body = _BODY_OPEN.search(document)
        lo, hi = (body.end() if body else 0), len(document)
    mid = lo + (hi - lo) // 2
    block = _BLOCK_CLOSE.search(document, mid, hi)
    if block is None:
        block = _BLOCK_CLOSE.search(document, lo, hi)
    at = block.end() if block else mid
    return document[:at] + fragment + document[at:]
