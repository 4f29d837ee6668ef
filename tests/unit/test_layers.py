"""The layers of the house, checked from the source: no back-edge, no import cycle.

Every ``import`` in ``src/pagelens`` counts — at module level, inside functions (lazy) and under
``TYPE_CHECKING`` — because a lazy import hides a cycle from Python, not from a reader. A module
may import from its own floor or below; packages on one floor may not import each other in a
circle; modules may not import each other in a circle. A new top-level package must be given a
floor here (that is the point: decide where it stands before it grows).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "pagelens"

#: Bottom-up. One floor may import any floor below it, never one above.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "types", "config", "tokens", "task", "serving", "assets", "gcpause", "heap"),  # core values and the one HTTP helper
    ("browser", "llm"),  # the two outside systems: Chromium (with CDP extraction) and chat models
    ("observe",),  # typed tree -> numbered lines (pure)
    ("focus",),  # retrievers, defense, PageView
    ("actions", "signals"),  # incl. coordinate actions and the pixel watch (actions.coords, actions.pixels)
    ("vision",),  # hybrid view, Set-of-Mark, OCR, answer scoring, the verifier
    ("agent",),  # loop, policies, planner, trace
    ("mcp",),  # the MCP server: the library offered as tools
    ("bench",),  # the harness: sites, tasks, suites, cases
    ("report",),
    ("commands", "api", "cli"),  # the shell and the public facade
)
_FLOOR = {name: i for i, names in enumerate(LAYERS) for name in names}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in SRC.rglob("*.py")}


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """module -> pagelens modules it imports (``from pkg import sub`` counts as ``pkg.sub``)."""
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs or [base]
            for target in targets:
                if target.startswith("pagelens.") and target != name:
                    edges[name].add(target)
    return edges


def _top(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_package_has_a_floor() -> None:
    tops = {_top(m) for m in _modules()} - {""}
    assert sorted(tops - set(_FLOOR)) == [], "give the new package a floor in LAYERS"


def test_no_import_goes_up_a_floor() -> None:
    edges = _imports(_modules())
    back = [f"{src} -> {dst}" for src, dsts in sorted(edges.items()) for dst in sorted(dsts)
            if _top(src) and _top(dst) and _FLOOR.get(_top(dst), 99) > _FLOOR.get(_top(src), 99)]
    assert back == []


def test_no_package_cycle() -> None:
    edges = _imports(_modules())
    packages: dict[str, set[str]] = defaultdict(set)
    for src, dsts in edges.items():
        for dst in dsts:
            if _top(src) and _top(dst) and _top(src) != _top(dst):
                packages[_top(src)].add(_top(dst))
    assert _cycles(packages) == []


#: Known module cycles, each with its way out; the list may only shrink.
_KNOWN_CYCLES = [
]


def test_no_module_cycle() -> None:
    assert [c for c in _cycles(_imports(_modules())) if c not in _KNOWN_CYCLES] == []


def test_the_checker_sees_lazy_and_type_only_imports(tmp_path: Path) -> None:
    """The walk is not vacuous: a function-level import and a TYPE_CHECKING import are edges."""
    edges = _imports(_modules())
    assert "pagelens.focus.registry" in edges["pagelens.focus.view"]  # imported inside focus_view()
    assert "pagelens.browser.session" in edges["pagelens.agent.loop"]  # under TYPE_CHECKING
    assert "pagelens.bench.sites.data" in edges["pagelens.bench.sites.shop"]  # from pkg import submodule
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


#: Modules outside browser/ that still import Playwright. The list may only shrink (ARCHITECTURE.md,
#: "Seams"): new code reaches the page through the browser package's ``episode.tab``.
_PLAYWRIGHT_STILL_OUTSIDE: frozenset[str] = frozenset()


def _imports_playwright(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "playwright" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "playwright":
            return True
    return False


def test_playwright_stays_in_the_browser_package() -> None:
    outside = {name for name, path in _modules().items()
               if _top(name) != "browser" and _imports_playwright(path)}
    assert sorted(outside - _PLAYWRIGHT_STILL_OUTSIDE) == []


def test_the_agent_never_holds_the_page() -> None:
    for name, path in _modules().items():
        if _top(name) == "agent":
            attrs = {n.attr for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(n, ast.Attribute)}
            assert "page" not in attrs, name


#: Modules outside browser/ that still reach into an episode's Playwright page or context
#: (``episode.page``, ``episode.context``); the list may only shrink: use ``episode.tab``.
_PAGE_STILL_HELD: frozenset[str] = frozenset()


def _holds_the_page(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("page", "context"):
            base = ast.unparse(node.value)
            if base.split(".")[-1] in ("episode", "ep", "_episode") or base.endswith("_page()"):
                return True
    return False


def test_nothing_outside_the_browser_package_holds_the_page(tmp_path: Path) -> None:
    held = {name for name, path in _modules().items() if _top(name) != "browser" and _holds_the_page(path)}
    assert sorted(held - _PAGE_STILL_HELD) == []
    probe = tmp_path / "probe.py"  # the check is not vacuous
    for text, holds in (("self.episode.page.url", True), ("ep.context.route", True), ("episode.tab.url", False),
                        ("case.page", False)):
        probe.write_text(text + "\n", encoding="utf-8")
        assert _holds_the_page(probe) is holds, text
