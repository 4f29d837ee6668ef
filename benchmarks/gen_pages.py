"""Generated pages of an exact number of elements, in a realistic mix (issue 13).

A page is a sequence of blocks taken in turn: a navigation list of links, a data table with a
link per row, a form (fieldset, labels, inputs, a select, a textarea, a checkbox, a button),
a grid of product cards in nested divs (heading link, text, price, button), and an article
section (heading, paragraphs with emphasis and inline links, a bullet list). Texts come from a
seeded word list, so the same size always gives the same page. The page has exactly ``n``
elements (``document.getElementsByTagName('*').length``, ``html``/``head``/``title``/``body``
included): the last block is cut short with plain ``span`` items when it would overshoot.

    .venv/bin/python benchmarks/gen_pages.py 1000 5000 --out /tmp/pages   # writes gen-1000.html, ...
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

_WORD_TEXT = (
    "account address alpha amber basket berry blue bright cable camera cargo cedar channel city cloud coast "
    "copper cotton delta desk direct dollar eagle early echo ember engine fabric field filter forest frame "
    "garden glass golden harbor helmet honey island ivory jacket kernel ladder lemon linen market meadow "
    "metal mirror motor north ocean olive orbit paper pepper pilot planet pocket quartz radio river rocket "
    "saddle signal silver socket solar spring stone summit table timber tower travel urban valley velvet "
    "wallet winter yellow zephyr"
)
WORDS = tuple(_WORD_TEXT.split())

# Each block writer returns (html, element count) and takes the rng and a block number.
Block = Callable[[random.Random, int], tuple[str, int]]


def _words(rng: random.Random, k: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(k))


def nav_block(rng: random.Random, b: int) -> tuple[str, int]:
    items = "".join(f"<li><a href='/c/{b}/{i}'>{_words(rng, 2).title()}</a></li>" for i in range(10))
    return f"<nav aria-label='Section {b}'><ul>{items}</ul></nav>", 2 + 10 * 2


def table_block(rng: random.Random, b: int) -> tuple[str, int]:
    rows = 12
    head = "<thead><tr>" + "".join(f"<th>{h}</th>" for h in ("Item", "Category", "Stock", "Price", "Updated")) + "</tr></thead>"
    body = "".join(
        f"<tr><td><a href='/item/{b}-{r}'>{_words(rng, 2)}</a></td><td>{rng.choice(WORDS)}</td>"
        f"<td>{rng.randint(0, 500)}</td><td>{rng.randint(1, 999)}.{rng.randint(0, 99):02d}</td>"
        f"<td>2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}</td></tr>"
        for r in range(rows)
    )
    # table caption thead tr 5th tbody + rows * (tr 5td a)
    return f"<table><caption>Stock table {b}</caption>{head}<tbody>{body}</tbody></table>", 1 + 1 + 1 + 1 + 5 + 1 + rows * 7


def form_block(rng: random.Random, b: int) -> tuple[str, int]:
    fields = "".join(
        f"<div class='field'><label for='f{b}-{i}'>{_words(rng, 2).capitalize()}</label>"
        f"<input id='f{b}-{i}' name='f{i}' type='{t}' placeholder='{rng.choice(WORDS)}'></div>"
        for i, t in enumerate(("text", "email", "tel", "number"))
    )
    options = "".join(f"<option value='{i}'>{rng.choice(WORDS).capitalize()}</option>" for i in range(5))
    html = (
        f"<form action='/submit/{b}' method='post'><fieldset><legend>Request form {b}</legend>{fields}"
        f"<div class='field'><label for='s{b}'>Choice</label><select id='s{b}' name='choice'>{options}</select></div>"
        f"<div class='field'><label for='t{b}'>Message</label><textarea id='t{b}' name='msg'></textarea></div>"
        f"<div class='field'><input type='checkbox' id='c{b}' name='agree'><label for='c{b}'>I agree</label></div>"
        f"<button type='submit'>Send {b}</button></fieldset></form>"
    )
    # form fieldset legend + 4*(div label input) + (div label select 5opt) + (div label textarea)
    # + (div input label) + button
    return html, 3 + 4 * 3 + (3 + 5) + 3 + 3 + 1


def cards_block(rng: random.Random, b: int) -> tuple[str, int]:
    cards = "".join(
        f"<div class='card'><div class='card-body'><div class='card-title'><h3><a href='/p/{b}-{c}'>"
        f"{_words(rng, 3).title()}</a></h3></div><p class='desc'>{_words(rng, 8)}</p>"
        f"<div class='price'><span class='amount'>{rng.randint(1, 300)}.99</span></div>"
        f"<button type='button'>Add to cart</button></div></div>"
        for c in range(6)
    )
    # grid + 6*(card body title h3 a p price span button)
    return f"<div class='grid'>{cards}</div>", 1 + 6 * 9


def article_block(rng: random.Random, b: int) -> tuple[str, int]:
    paras = "".join(
        f"<p>{_words(rng, 12)} <em>{_words(rng, 2)}</em> {_words(rng, 6)} "
        f"<a href='/ref/{b}-{p}'>{_words(rng, 2)}</a> {_words(rng, 5)}.</p>"
        for p in range(3)
    )
    bullets = "".join(f"<li>{_words(rng, 5)}</li>" for _ in range(4))
    # section h2 + 3*(p em a) + ul + 4 li
    return f"<section><h2>Topic {b}: {_words(rng, 2)}</h2>{paras}<ul>{bullets}</ul></section>", 2 + 9 + 1 + 4


BLOCKS: tuple[Block, ...] = (nav_block, table_block, form_block, cards_block, article_block)
_FIXED = 6  # html head title body + main + h1


def page_html(n: int, seed: int = 13) -> str:
    """A page of exactly ``n`` elements (n >= 6)."""
    if n < _FIXED:
        raise ValueError(f"a generated page needs at least {_FIXED} elements, not {n}")
    rng = random.Random(seed)
    parts: list[str] = []
    count, b = _FIXED, 0
    while True:
        html, k = BLOCKS[b % len(BLOCKS)](rng, b)
        if count + k > n:
            break
        parts.append(html)
        count += k
        b += 1
    rest = n - count
    parts.append("".join(f"<span>{rng.choice(WORDS)}</span> " for _ in range(rest)))
    return (
        f"<!doctype html><html lang='en'><head><title>Generated page of {n} elements</title></head><body>"
        f"<main><h1>Catalogue ({n} elements)</h1>{''.join(parts)}</main></body></html>"
    )


def write_pages(sizes: list[int], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in sizes:
        path = folder / f"gen-{n}.html"
        path.write_text(page_html(n), encoding="utf-8")
        out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sizes", nargs="+", type=int)
    ap.add_argument("--out", type=Path, default=Path("."))
    args = ap.parse_args(argv)
    for path in write_pages(args.sizes, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
