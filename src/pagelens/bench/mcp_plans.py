"""Drive a bundled task's reference plan through an MCP browser server, as an agent would.

An agent can act only on what it has read. :class:`PagelensPlanAgent` keeps the page as the
pagelens tools showed it (views, and deltas or folded views applied to them) and resolves
each plan target (role + accessible name) there; when the target is not in what it has, it
asks ``search_page`` for the name (as the Playwright plan asks ``browser_find``), then the
further parts of a cut view, then ``observe()``. A read task's answer not in what it holds is
looked for in the pruned runs whose section is about the goal (``expand``: the run's enclosing
lines by depth, and the headings that open them, share words with the goal; see
:func:`pruned_in_sections`), then by ``search_page`` of the goal, then in the rest of the view and
the whole tree. :class:`PlaywrightPlanAgent` does the
same on Playwright MCP, where a step needs the element's ``ref`` from a snapshot: whenever
an action ran since its last read, it reads ``browser_find`` results for the target's name
and, when they do not settle it, ``browser_snapshot``. Both count everything the agent read
(o200k tokens, bytes), every tool call and its latency. Success is judged from the sites'
server state, as for every bundled task.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pagelens import tokens
from pagelens.bench.tasks import PlanStep, Target, Task
from pagelens.focus.delta.formats import with_value

__all__ = ["CallRecord", "Episode", "PagelensPlanAgent", "PlaywrightPlanAgent", "ToolSession", "pruned_in_sections",
           "pruned_under", "section_of"]

_ROLE_ALIASES = {"textbox": frozenset({"textbox", "date", "datetime", "inputtime", "time", "month", "week"})}
_PL_LINE = re.compile(r"^(?:[+~] )?[\t ]*\*?\[(?P<id>\d{1,9})\] (?P<role>\S+) '(?P<rest>.*)$")
_PW_LINE = re.compile(r'^\s*- \'?(?P<role>[\w-]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?(?P<attrs>(?: \[[^\]]*\])*)')
_PW_REF = re.compile(r"\[ref=([\w-]+)\]")
_CHECKED = re.compile(r", checked(?:=true)?(?:,|$)")
_FOLD = re.compile(r"^= (\d+) lines as before: (.*?) … (.*)$")
#: A compact fold: ``= [A] +N`` is line [A] of the last view and the N lines after it.
_CFOLD = re.compile(r"^= (\[p?\d+\])(?: \+(\d+))?$")
#: A placeholder: ``[p7] ... 42 lines pruned ...``, or as the MCP server sends it, ``[p7] …42``.
_PRUNED = re.compile(r"^\[(p\d+)\] (?:\.\.\. |…)?(\d+)(?: (?:lines? )?pruned|$)")
#: Words of four letters or more (a goal's content words, roughly).
_WORD = re.compile(r"[^\W\d_]{4,}")
#: A view line's nesting: its leading spaces (compact views) or tabs, then an optional ``*`` (new).
_LEAD = re.compile(r"^([\t ]*)\*?")
#: Pruned runs a plan opens with ``expand`` before it reads the whole tree (read tasks).
_MAX_EXPANDS = 3
#: The longest pruned run a plan opens to find an element its section names (a run of a few lines costs
#: fewer tokens to open than a search answer; a longer one is searched instead).
_SMALL_RUN = 5
#: Seconds an agent that did not find its target on a fresh page waits before looking again
#: (late content: a consent banner or a pop-up shown by a timer; the agent loop pauses too).
LATE_CONTENT_S = 1.0


class ToolSession(Protocol):
    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Any: ...


@dataclass
class CallRecord:
    tool: str
    seconds: float
    tokens: int
    bytes: int
    is_error: bool


@dataclass
class Episode:
    task: str
    server: str
    success: bool = False
    detail: str = ""
    calls: list[CallRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in self.calls)

    @property
    def bytes(self) -> int:
        return sum(c.bytes for c in self.calls)


class _Failed(Exception):
    pass


class _Agent:
    server = ""

    def __init__(self, session: ToolSession, episode: Episode) -> None:
        self.session = session
        self.ep = episode
        self.since_action: list[str] = []  # what was read since the last page action (its answer included)
        self.goal = ""  # the task's goal (what the agent knows it is looking for)

    async def call(self, tool: str, args: dict[str, Any]) -> tuple[str, bool]:
        t0 = time.perf_counter()
        res = await self.session.call_tool(tool, args)
        seconds = time.perf_counter() - t0
        text = "\n".join(getattr(c, "text", "") for c in res.content if getattr(c, "type", "") == "text")
        self.ep.calls.append(CallRecord(tool, seconds, tokens.count(text), len(text.encode()), bool(res.is_error)))
        if tool in _PAGE_ACTIONS:
            self.since_action = []
        self.since_action.append(text)
        return text, bool(res.is_error)

    async def run(self, task: Task, start_url: str) -> str | None:
        """Play the plan; return the answer of its stop step (raise :class:`_Failed` on a dead end)."""
        await self.open(start_url)
        plan = task.plan
        i = 0
        while i < len(plan):
            step = plan[i]
            if step.action == "stop":
                if task.kind == "read" and step.value:  # a read task: its answer must have been shown
                    self.goal = task.goal
                    await self.confirm(step.value)
                return step.value or ""
            nxt = plan[i + 1] if i + 1 < len(plan) else None
            enter = (step.action == "fill" and nxt is not None and nxt.action == "press" and nxt.target == step.target
                     and nxt.value == "Enter")
            await self.step(step, enter)
            i += 2 if enter else 1
        return None

    async def open(self, url: str) -> None:
        raise NotImplementedError

    async def confirm(self, answer: str) -> None:
        """An agent answers only what it has read: make sure the answer was shown on the current
        page, reading more as the agent would (raise :class:`_Failed` if it never was)."""
        raise NotImplementedError

    def shown(self, answer: str, texts: Sequence[str]) -> bool:
        return _norm(answer) in _norm("\n".join(texts))

    async def step(self, step: PlanStep, enter: bool) -> None:
        raise NotImplementedError


#: Tools that act on the page (what was read before them may be stale).
_PAGE_ACTIONS = frozenset({
    "navigate", "click", "fill", "select_option", "press", "hover", "scroll", "go_back",
    "browser_navigate", "browser_click", "browser_type", "browser_select_option", "browser_press_key",
    "browser_hover", "browser_navigate_back",
})


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _bare(line: str) -> str:
    """A view line without its nesting and its new-element mark."""
    return line.lstrip("\t ").lstrip("*")


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip("\t "))


def _unmarked(line: str) -> str:
    """A view line as the client keeps it: its nesting kept, the ``*`` (not shown before) dropped."""
    m = _LEAD.match(line)
    assert m is not None
    return m.group(1) + line[m.end():]


def _stem(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text)}


def section_of(lines: Sequence[str], k: int) -> list[str]:
    """The lines that say what line ``k`` of a nested view is part of, nearest first: each enclosing
    line (the nearest line above at a lower depth, up to but not including the root, which names the
    whole page) and the headings that open the sections it sits in (a heading line above it at the
    depth of the line or of an enclosing line, with nothing shallower in between), read as a reader
    of the tree reads it: by indentation only."""
    depth = _depth(lines[k])
    out: list[str] = []
    titled = False  # the nearest heading of this level is taken (the one that opens its section)
    for j in range(k - 1, 0, -1):
        d = _depth(lines[j])
        if d < depth:  # an enclosing line
            out.append(_bare(lines[j]))
            depth, titled = d, False
            if depth == 0:
                break
        elif d == depth and not titled and _PL_LINE.match(_bare(lines[j])) and " heading '" in lines[j]:
            out.append(_bare(lines[j]))  # the heading before it in the same container: its section's title
            titled = True
    return out


def pruned_in_sections(lines: Sequence[str], goal: str) -> list[str]:
    """Placeholders of a nested view (``[p7] …42``) whose section (:func:`section_of`) shares words
    with ``goal``: most shared words first, then those the nearest enclosing lines share, then the
    longer runs; none other. The words the page's title (the root line) has are left out of the
    goal's: they say which page the question is about, not which part of it. What any reader of
    the view can do: the question names what the answer is about, and the tree says which
    section each pruned run is in."""
    goal_words = _words(goal) - (_words(lines[0]) if lines else set())
    ranked = []
    for k, line in enumerate(lines):
        m = _PRUNED.match(_bare(line))
        if not m or k == 0:
            continue
        context = section_of(lines, k)
        shared = len(goal_words & _words(" ".join(context)))
        if shared:
            near = len(goal_words & _words(" ".join(context[:2])))
            ranked.append((-shared, -near, -int(m.group(2)), k, m.group(1)))
    return [pid for *_, pid in sorted(ranked)]


def pruned_under(lines: Sequence[str], name: str, *, max_lines: int = _SMALL_RUN) -> list[str]:
    """Short placeholders (at most ``max_lines`` lines) whose nearest enclosing line or section
    heading bears ``name`` as its own name, in page order: where an element named so sits when its
    section shows and its content was pruned (the title link of the card, article or list item of
    the same name, at its top)."""
    want = _norm(name)
    ranked = []
    for k, line in enumerate(lines):
        m = _PRUNED.match(_bare(line))
        if not m or k == 0 or int(m.group(2)) > max_lines:
            continue
        if any(_norm(_quoted(ln)) == want for ln in section_of(lines, k)[:2]):
            ranked.append(m.group(1))
    return ranked


def _quoted(line: str) -> str:
    """The name of an element line (``[5] article 'Zephyr', clickable`` → ``Zephyr``), or the line."""
    m = _PL_LINE.match(line)
    if m is None:
        return line
    rest = m.group("rest")
    end = rest.find("', ") if "', " in rest else rest.rfind("'")
    return rest[:end] if end >= 0 else rest


def _matches(candidates: Sequence[tuple[str, str, str, str]], target: Target) -> tuple[str, str] | None:
    """(ref, line) of the ``nth`` element with the target's role and name (exact, then contained)."""
    roles = _ROLE_ALIASES.get(target.role.casefold(), frozenset({target.role.casefold()}))
    name = " ".join(target.name.split()).casefold()
    cands = [c for c in candidates if c[1].casefold() in roles]
    exact = [c for c in cands if c[2].casefold() == name]
    if len(exact) > target.nth:
        return exact[target.nth][0], exact[target.nth][3]
    contains = [c for c in cands if name in c[2].casefold()]
    return (contains[target.nth][0], contains[target.nth][3]) if len(contains) > target.nth else None


# -- pagelens -----------------------------------------------------------------------------------
class PagelensPlanAgent(_Agent):
    server = "pagelens"

    def __init__(self, session: ToolSession, episode: Episode, *, search: bool = True) -> None:
        super().__init__(session, episode)
        self.search = search  # search_page for a target missing from the view (before reading more)
        self.lines: list[str] = []  # the page as the tools showed it (nesting kept, ``*`` marks dropped)
        self.parts = 0  # parts of the last cut view not read yet
        self.extra: list[str] = []  # lines search_page showed (valid until the page changes)

    async def read(self, tool: str, args: dict[str, Any]) -> str:
        text, is_error = await self.call(tool, args)
        if not is_error and tool in ("fill", "select_option"):
            self.known_edit(str(args.get("id", "")), text)
        self.absorb(text)
        if is_error:
            raise _Failed(f"{tool}: {text.splitlines()[0] if text else 'error'}")
        return text

    def known_edit(self, eid: str, text: str) -> None:
        """What the server's instructions say: after ``[7] now contains "x"`` (a fill) or
        ``[7] now shows "x"`` (a selection) the copy of line [7] reads ``value='x'`` (not after Enter:
        the form may have been sent)."""
        m = re.search(r'\[' + re.escape(eid) + r'\] now (?:contains ("(?:[^"\\]|\\.)*")|shows "(.*?)"\.)', text)
        if m is None or "Pressed Enter." in text:
            return
        value = json.loads(m.group(1)) if m.group(1) else m.group(2)
        for k, line in enumerate(self.lines):
            bare = _bare(line)
            if bare.startswith(f"[{eid}] "):
                new = with_value(bare, value)
                if new is not None:
                    self.lines[k] = line[: _depth(line)] + new
                return

    def absorb(self, text: str) -> None:
        body = text.split("\n")
        cut = re.search(r"part 1 of (\d+) shown", text)
        self.parts = int(cut.group(1)) - 1 if cut else 0
        for k, line in enumerate(body):
            if line.startswith("Changes since your"):
                self.extra = []
                self._patch(body[k + 1:])
                return
            if line.startswith(("New view; '= N lines as before", "New view, folded:", "New view ('= [A] +N'")):
                self.extra = []
                self._unfold(body[k + 1:])
                return
            if line.startswith(("Page: ", "RootWebArea")):
                self.extra = []
                start = k + 1 if line.startswith("Page: ") else k
                self.lines = [_unmarked(ln) for ln in body[start:] if not ln.startswith("[view cut")]
                return

    def _unfold(self, body: list[str]) -> None:
        """The new view from a folded one: each ``= N lines as before: A … B`` is N lines of the
        last view, from line A on."""
        out: list[str] = []
        for raw in body:
            line = _bare(raw)
            c = _CFOLD.match(line)
            if c:
                start = self._find(c.group(1) + " ")
                if start is not None:
                    out += self.lines[start:start + 1 + int(c.group(2) or 0)]
                continue
            m = _FOLD.match(line)
            if m:
                start = self._find(m.group(2))
                if start is not None:
                    out += self.lines[start:start + int(m.group(1))]
                continue
            if not line.startswith("[view cut"):
                out.append(_unmarked(raw))
        self.lines = out

    def _patch(self, ops: list[str]) -> None:
        pos = len(self.lines)
        for op in ops:
            kind, _, rest = op.partition(" ")
            if kind == "@":
                pos = self._anchor(rest)
            elif kind == "-":
                run = re.match(r"(\d+) lines: (.*) … (.*)$", rest)
                if run:
                    start = self._find(run.group(2))
                    if start is not None:
                        del self.lines[start:start + int(run.group(1))]
                        pos = min(pos, start)
                else:
                    idx = self._find(_bare(rest), exact=True)
                    if idx is not None:
                        del self.lines[idx]
                        pos = min(pos, idx)
            elif kind == "~":
                m = _PL_LINE.match(rest)
                idx = self._find(f"[{m.group('id')}]") if m else None
                if idx is not None:
                    self.lines[idx] = _unmarked(rest)
            elif kind == "+":
                self.lines.insert(min(pos, len(self.lines)), _unmarked(rest))
                pos += 1

    def _anchor(self, rest: str) -> int:
        if rest == "at the top":
            return 0
        ref = rest.removeprefix("after ").rstrip("…")
        idx = self._find(ref)
        return len(self.lines) if idx is None else idx + 1

    def _find(self, ref: str, *, exact: bool = False) -> int | None:
        ref = _bare(ref).rstrip("…")
        for k, line in enumerate(self.lines):
            line = _bare(line)
            if (line == ref) if exact else line.startswith(ref):
                return k
        return None

    def block(self, text: str) -> list[str]:
        """A search_page answer's lines; ``= [12]`` is line [12] of the view, as the client has it."""
        out = []
        for raw in text.split("\n"):
            line = _bare(raw)
            c = _CFOLD.match(line)
            if c and not c.group(2):
                idx = self._find(c.group(1) + " ")
                if idx is not None:
                    out.append(_bare(self.lines[idx]))
                continue
            out.append(line)
        return out

    def candidates(self) -> list[tuple[str, str, str, str]]:
        return self._lines_candidates(self.lines + self.extra)

    @staticmethod
    def _lines_candidates(lines: Sequence[str]) -> list[tuple[str, str, str, str]]:
        out = []
        for line in lines:
            line = _bare(line)
            m = _PL_LINE.match(line)
            if m:
                rest = m.group("rest")
                end = rest.find("'" + ",") if "'," in rest else rest.rfind("'")
                name = rest[:end] if end >= 0 else rest
                name = name.split("' value='")[0]
                out.append((m.group("id"), m.group("role"), " ".join(name.split()), line))
        return out

    async def open(self, url: str) -> None:
        await self.read("navigate", {"url": url})

    async def confirm(self, answer: str) -> None:
        if self.shown(answer, self.lines + self.extra + self.since_action):
            return
        if self.search and self.goal:
            for pid in self.pruned_near(self.goal)[:_MAX_EXPANDS]:  # open what was pruned in its section
                text, is_error = await self.call("expand", {"placeholder": pid})
                if not is_error and self.shown(answer, [text]):
                    return
            text, is_error = await self.call("search_page", {"text": self.goal})  # what the question is about
            if not is_error and self.shown(answer, [text]):
                return
        for k in range(2, self.parts + 2):  # the rest of a cut view
            text, _ = await self.call("observe", {"part": k})
            if self.shown(answer, [text]):
                return
        await self.read("observe", {"full": True})  # the whole tree, part by part
        if self.shown(answer, self.since_action):
            return
        for k in range(2, self.parts + 2):
            text, _ = await self.call("observe", {"part": k})
            if self.shown(answer, [text]):
                return
        raise _Failed(f"the answer {answer!r} was never shown")

    def pruned_near(self, goal: str) -> list[str]:
        """Placeholders of the view in a section about ``goal`` (:func:`pruned_in_sections`)."""
        return pruned_in_sections(self.lines, goal)

    async def resolve(self, target: Target) -> tuple[str, str]:
        """The target in what the tools showed; else, as an agent would: search the last view
        for its name (pruned lines included), read the rest of a cut view, look again after a
        moment (late content), and at last read the whole tree part by part."""
        if target.nth > 0 and self.search and len(target.name) >= 3:
            # the n-th of several same-named elements: counted in a list of them all, in page order
            # (search_page lists exact-name matches first, in document order), not in a view that
            # may have pruned some of those before it
            text, is_error = await self.call("search_page", {"text": target.name})
            if not is_error:
                self.extra = self.block(text)
                found = _matches(self._lines_candidates(self.extra), target)
                if found is not None:
                    return found
        found = _matches(self.candidates(), target)
        if found is None and self.search and len(target.name) >= 3:
            for pid in pruned_under(self.lines, target.name)[:1]:  # pruned inside the section named so
                text, is_error = await self.call("expand", {"placeholder": pid})
                if not is_error:
                    self.extra = self.block(text)
                    found = _matches(self.candidates(), target)
        if found is None and self.search and len(target.name) >= 3:
            text, is_error = await self.call("search_page", {"text": target.name})
            if not is_error:
                self.extra = self.block(text)
                found = _matches(self.candidates(), target)
        if found is None and self.parts:
            for k in range(2, self.parts + 2):
                text, _ = await self.call("observe", {"part": k})
                self.lines += [_unmarked(ln) for ln in text.split("\n") if not ln.startswith("[part")]
                found = _matches(self.candidates(), target)
                if found:
                    break
        if found is None:
            await asyncio.sleep(LATE_CONTENT_S)
            await self.read("observe", {})
            found = _matches(self.candidates(), target)
        if found is None:  # not in the focused view: read the whole tree, part by part
            await self.read("observe", {"full": True})
            found = _matches(self.candidates(), target)
            for k in range(2, self.parts + 2):
                if found is not None:
                    break
                text, _ = await self.call("observe", {"part": k})
                self.lines += [_unmarked(ln) for ln in text.split("\n") if not ln.startswith("[part")]
                found = _matches(self.candidates(), target)
        if found is None:
            raise _Failed(f"no element {target.role} {target.name!r} in what the tools showed")
        return found

    async def step(self, step: PlanStep, enter: bool) -> None:
        assert step.target is not None
        eid, line = await self.resolve(step.target)
        if step.action == "check" and _CHECKED.search(line):
            return
        if step.action == "fill":
            await self.read("fill", {"id": eid, "text": step.value or "", **({"enter": True} if enter else {})})
        elif step.action == "select_option":
            await self.read("select_option", {"id": eid, "option": step.value or ""})
        elif step.action == "press":
            await self.read("press", {"key": step.value or ""})
        elif step.action == "hover":
            await self.read("hover", {"id": eid})
        else:
            await self.read("click", {"id": eid})


# -- Playwright MCP -----------------------------------------------------------------------------
class PlaywrightPlanAgent(_Agent):
    server = "playwright-mcp"

    def __init__(self, session: ToolSession, episode: Episode, *, find: bool = True) -> None:
        super().__init__(session, episode)
        self.find = find  # try browser_find results before reading the whole snapshot
        self.snapshot: list[tuple[str, str, str, str]] = []
        self.dirty = True  # an action ran since the last read

    async def act(self, tool: str, args: dict[str, Any]) -> str:
        text, is_error = await self.call(tool, args)
        if is_error or text.startswith("### Error"):
            raise _Failed(f"{tool}: {text.splitlines()[0:2]}")
        self.dirty = True
        return text

    @staticmethod
    def parse(text: str) -> list[tuple[str, str, str, str]]:
        """(ref, role, name, line) per element; an element without a name of its own (a link
        around a heading) is named by its first named descendant, as a reader of the tree would."""
        rows: list[tuple[int, str, str, str, str]] = []  # indent, ref, role, name, line
        lines = text.split("\n")
        for line in lines:
            m = _PW_LINE.match(line)
            if not m:
                continue
            ref_m = _PW_REF.search(m.group("attrs") or "")
            name = (m.group("name") or "").replace('\\"', '"')
            if not name and ":" in line and not line.rstrip().endswith(":"):
                name = line.split("]: ", 1)[-1] if "]: " in line else line.split(": ", 1)[-1]
            rows.append((len(line) - len(line.lstrip()), ref_m.group(1) if ref_m else "", m.group("role"),
                         " ".join(name.split()), line))
        out = []
        for k, (indent, ref, role, name, line) in enumerate(rows):
            if not ref:
                continue
            if not name:
                for indent2, _, _, name2, _ in rows[k + 1:]:
                    if indent2 <= indent:
                        break
                    if name2:
                        name = name2
                        break
            out.append((ref, role, name, line))
        return out

    async def open(self, url: str) -> None:
        await self.act("browser_navigate", {"url": url})

    async def confirm(self, answer: str) -> None:
        if self.shown(answer, self.since_action):
            return
        text, is_error = await self.call("browser_snapshot", {})
        if is_error or not self.shown(answer, [text]):
            raise _Failed(f"the answer {answer!r} was never shown")

    async def resolve(self, target: Target) -> tuple[str, str]:
        if not self.dirty:
            found = _matches(self.snapshot, target)
            if found:
                return found
        if self.find and target.nth == 0 and len(target.name) >= 3:  # search results name the element with its ref
            text, is_error = await self.call("browser_find", {"text": target.name})
            found = None if is_error else _matches(self.parse(text), target)
            if found:
                return found
        text, is_error = await self.call("browser_snapshot", {})
        if is_error:
            raise _Failed(f"browser_snapshot: {text[:200]}")
        self.snapshot, self.dirty = self.parse(text), False
        found = _matches(self.snapshot, target)
        if found is None:  # late content: look again after a moment, as the pagelens plan does
            await asyncio.sleep(LATE_CONTENT_S)
            text, is_error = await self.call("browser_snapshot", {})
            self.snapshot = [] if is_error else self.parse(text)
            found = _matches(self.snapshot, target)
        if found is None:
            raise _Failed(f"no element {target.role} {target.name!r} in the snapshot")
        return found

    async def step(self, step: PlanStep, enter: bool) -> None:
        assert step.target is not None
        ref, line = await self.resolve(step.target)
        desc = f"{step.target.role} {step.target.name!r}"
        if step.action == "check" and "[checked]" in line and "[checked=false]" not in line:
            return
        if step.action == "fill":
            await self.act("browser_type", {"element": desc, "target": ref, "text": step.value or "",
                                            **({"submit": True} if enter else {})})
        elif step.action == "select_option":
            await self.act("browser_select_option", {"element": desc, "target": ref, "values": [step.value or ""]})
        elif step.action == "press":
            await self.act("browser_press_key", {"key": step.value or ""})
        elif step.action == "hover":
            await self.act("browser_hover", {"element": desc, "target": ref})
        else:
            await self.act("browser_click", {"element": desc, "target": ref})


async def play(agent: _Agent, task: Task, start_url: str) -> str | None:
    """Run the plan; failures are recorded on the episode (never raised)."""
    t0 = time.perf_counter()
    try:
        return await agent.run(task, start_url)
    except _Failed as exc:
        agent.ep.detail = str(exc)
        return None
    finally:
        agent.ep.seconds = time.perf_counter() - t0
