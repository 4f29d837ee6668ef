"""Labeled focus cases: the file format and the pure scoring rules.

One JSON object per line::

    {"page": "shop-listing.html", "goal": "Add the cheapest wireless headphones to the cart",
     "must_keep": [{"role": "button", "name": "Add to cart"}, {"role": "StaticText", "name": "$49.99"}],
     "kind": "act",
     "injection": {"kind": "popup", "html": "<div role=dialog>...</div>", "marker": "security desk"}}

``page`` is a path relative to the pages directory, or a bundled site page spelled
``site:NAME/PATH?QUERY`` (see :mod:`pagelens.bench.sites.spec`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagelens.errors import ConfigError
from pagelens.types import Line

#: Roles an agent acts on; for every other role, text folded into another line counts too.
INTERACTIVE_ROLES = frozenset({
    "button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "tab", "switch", "slider", "spinbutton", "listbox", "treeitem",
})
_WS = re.compile(r"\s+")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MustKeep(_Strict):
    role: str = Field(min_length=1)
    name: str


class Injection(_Strict):
    kind: str = "popup"
    html: str
    marker: str = Field(min_length=1)


class Case(_Strict):
    page: str = Field(min_length=1)
    goal: str = Field(min_length=1)
    must_keep: tuple[MustKeep, ...] = ()
    kind: Literal["act", "read", "navigate"] = "act"
    injection: Injection | None = None
    id: str | None = None  # optional label for reports
    notes: str | None = None


def load_cases(path: str | Path) -> list[Case]:
    """Parse a JSONL case file; a bad line is a :class:`ConfigError` naming the line."""
    cases: list[Case] = []
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read cases file {p}: {exc.strerror}") from None
    for n, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("//"):
            continue
        try:
            cases.append(Case.model_validate(json.loads(raw)))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{p}:{n}: not JSON: {exc.msg}") from None
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err.get("loc", ()))
            raise ConfigError(f"{p}:{n}: invalid case: {where}: {err.get('msg')}") from None
    return cases


def norm(text: str) -> str:
    """Case-insensitive, whitespace-normalised (non-breaking spaces included)."""
    return _WS.sub(" ", text.replace("\xa0", " ")).strip().lower()


def item_kept(item: MustKeep, lines: Iterable[Line], texts: Iterable[str] = ()) -> bool:
    """Is ``item`` among the surviving ``lines``?

    Kept when a surviving line has the item's role and a name containing the item's name;
    for non-interactive roles, the name surviving anywhere in a surviving line's text
    (e.g. a Markdown table row that folded a cell) counts too.
    """
    want = norm(item.name)
    for ln in lines:
        if ln.role == item.role and want in norm(ln.name):
            return True
    if item.role not in INTERACTIVE_ROLES:
        return any(want in norm(t) for t in texts)
    return False


def marker_retained(marker: str, focused_text: str) -> bool:
    return norm(marker) in norm(focused_text)


def bundled_paths() -> tuple[Path, Path]:
    """The bundled cases file and the directory of its pages."""
    data = Path(str(resources.files("pagelens.bench").joinpath("data")))
    return data / "cases.jsonl", data / "pages"
