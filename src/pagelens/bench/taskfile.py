"""Task files: benchmark tasks as TOML data, checked against a schema, bound to the seeded sites.

The bundled tasks live in ``pagelens/bench/data/tasks/*.toml``; a user's own file has the same
shape (``pagelens run --task-file FILE TASK``, ``pagelens bench tasks DIR --task-file FILE``)::

    [[task]]
    id = "shop-search-qty"                     # lowercase letters, digits and '-'
    start = "site:shop/?__state=consent:yes"   # a site: spec (bundled sites) or an http(s) URL
    goal = "Add 3 units of the {p.name} to the cart."
    kind = "act"                               # act | read | navigate; read tasks give answer = "..."
    tags = ["search"]
    origins = ["shop"]                         # optional: site names or origins the agent may visit
    pick.p = { use = "shop.product", index = 17, in_stock = true }   # see pagelens.bench.pickers
    plan = [                                   # reference steps in the pagelens.actions.spec vocabulary
      { action = "fill", role = "searchbox", name = "Search products", text = "{p.name}" },
      { action = "press", role = "searchbox", name = "Search products", key = "Enter" },
      { action = "stop", answer = "done" },
    ]
    check = { kind = "cart_equals", cart = "{p.id}x3" }   # a check kind of pagelens.bench.tasks

    [[variant]]                                # the same task with an attack switched on
    task = "shop-search-qty"
    injection = "banner"

A plan step names its element by ``role`` + ``name`` (exact accessible name, ``nth`` match);
``ensure = "checked"`` makes a click that runs only when the box is not checked yet; every other
key is an argument of the action. ``{name.field}`` placeholders are filled from the picks and
``creds`` (``{{`` / ``}}`` for literal braces). Every problem is a :class:`TaskFileError` that
names the file, the task and the field.

TOML because it is in the standard library (``tomllib``), takes comments (each rule of a task is
explained where it is written), keeps key order (a check's fields are reported in file order) and,
unlike YAML, has no implicit type guessing.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagelens.agent.plan import PlanStep, Target
from pagelens.bench.pickers import CREDENTIALS, PICKERS
from pagelens.bench.sites.spec import INJECTIONS, parse_site_spec
from pagelens.bench.tasks import CHECK_PARAMS, CHECKERS, SITE_FREE_CHECKS, Task, with_injection
from pagelens.errors import ConfigError

__all__ = ["BUNDLED_FILES", "TaskFileError", "bundled_paths", "load_task_file", "load_task_files"]

#: The bundled task files, in catalog order (plain tasks of every file first, then the variants).
BUNDLED_FILES = ("shop.toml", "forum.toml", "admin.toml")

Scalar = str | int | bool  # an action argument (pagelens.actions.spec.ArgValue) or a check field
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][\w-]*\.[A-Za-z_][\w-]*)\}")
_ORIGIN = re.compile(r"^https?://[^/?#\s]+$")


class TaskFileError(ConfigError):
    """A task file that cannot be read, does not match the schema, or does not bind to the data."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class StepSpec(_Model):
    model_config = ConfigDict(extra="allow", frozen=True, strict=True)  # extra keys: the action's arguments
    action: str
    role: str | None = None
    name: str | None = None
    nth: int | str = 0  # a number, or one placeholder that gives one
    ensure: Literal["checked"] | None = None


class PickSpec(_Model):
    model_config = ConfigDict(extra="allow", frozen=True, strict=True)  # extra keys: the picker's parameters
    use: str


class CheckSpec(_Model):
    model_config = ConfigDict(extra="allow", frozen=True, strict=True)  # extra keys: the check's parameters
    kind: str


class TaskSpec(_Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")  # '+' is kept for variants
    start: str = Field(min_length=1)
    goal: str = Field(min_length=1)
    kind: Literal["act", "read", "navigate"] = "act"
    answer: str | None = None
    tags: list[str] = []
    origins: list[str] | None = None
    pick: dict[str, PickSpec] = {}
    plan: list[StepSpec] = []
    check: CheckSpec | None = None


class VariantSpec(_Model):
    task: str
    injection: Literal[INJECTIONS]  # type: ignore[valid-type]


class TaskFileSpec(_Model):
    task: list[TaskSpec] = []
    variant: list[VariantSpec] = []


@dataclass(frozen=True, slots=True)
class _Where:
    """Where in which file a value sits, for error messages: ``FILE: task 'id' (task[3]): plan[2].role``."""

    path: str
    task: str = ""

    def error(self, field: str, message: str) -> TaskFileError:
        return TaskFileError(f"{self.path}: {self.task + ': ' if self.task else ''}{field}: {message}")


def bundled_paths() -> tuple[Path, ...]:
    root = resources.files("pagelens.bench") / "data" / "tasks"
    return tuple(Path(str(root / name)) for name in BUNDLED_FILES)


def load_task_file(path: str | Path, seed: int = 0) -> tuple[Task, ...]:
    """The tasks of one file (plain tasks, then its variants), bound to sites seeded with ``seed``."""
    return load_task_files((path,), seed)


def load_task_files(paths: Iterable[str | Path], seed: int = 0) -> tuple[Task, ...]:
    """The tasks of several files: every plain task in file order, then every variant."""
    specs = [(str(p), _parse(Path(p))) for p in paths]
    plain: list[Task] = []
    for path, spec in specs:
        plain.extend(_bind(path, i, t, seed) for i, t in enumerate(spec.task))
    by_id: dict[str, Task] = {}
    for task in plain:
        if task.id in by_id:
            raise TaskFileError(f"duplicate task id {task.id!r}")
        by_id[task.id] = task
    variants = []
    for path, spec in specs:
        for i, v in enumerate(spec.variant):
            base = by_id.get(v.task)
            if base is None:
                raise _Where(path).error(f"variant[{i}].task", f"no task {v.task!r} in the loaded files")
            if not base.start.startswith("site:"):
                raise _Where(path).error(f"variant[{i}].task", f"{v.task!r} is not on a bundled site")
            variants.append(with_injection(base, v.injection))
    return (*plain, *variants)


def _parse(path: Path) -> TaskFileSpec:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TaskFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise TaskFileError(f"{path}: not valid TOML: {exc}") from None
    try:
        spec = TaskFileSpec.model_validate(raw)
    except ValidationError as exc:
        raise TaskFileError(_describe(path, raw, exc)) from None
    if not spec.task and not spec.variant:
        raise TaskFileError(f"{path}: no [[task]] in the file")
    return spec


def _describe(path: Path, raw: Mapping[str, Any], exc: ValidationError) -> str:
    lines = []
    for err in exc.errors()[:5]:
        loc = list(err["loc"])
        where = ""
        if len(loc) >= 2 and loc[0] == "task" and isinstance(loc[1], int):
            tasks = raw.get("task")
            entry = tasks[loc[1]] if isinstance(tasks, list) and loc[1] < len(tasks) else None
            tid = entry.get("id") if isinstance(entry, dict) else None
            where = f"task {tid!r} (task[{loc[1]}])" if isinstance(tid, str) else f"task[{loc[1]}]"
            loc = loc[2:]
        field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".") or "(the task)"
        message = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        lines.append(f"{path}: {where + ': ' if where else ''}{field}: {message}")
    more = len(exc.errors()) - 5
    return "\n".join(lines) + (f"\n(and {more} more)" if more > 0 else "")


def _bind(path: str, index: int, spec: TaskSpec, seed: int) -> Task:
    where = _Where(path, f"task {spec.id!r} (task[{index}])")
    fields = _pick(where, spec.pick, seed)

    def fill(value: Scalar, field: str) -> Scalar:
        return _render(value, fields, where, field) if isinstance(value, str) else value

    start = str(fill(spec.start, "start"))
    site = ""
    if start.startswith("site:"):
        try:
            site = parse_site_spec(start).name
        except ConfigError as exc:
            raise where.error("start", str(exc)) from None
    elif not start.startswith(("http://", "https://")):
        raise where.error("start", f"{start!r} is neither a site: spec nor an http(s) URL")
    answer = None if spec.answer is None else str(fill(spec.answer, "answer"))
    if spec.kind == "read" and answer is None:
        raise where.error("answer", "a read task needs the expected answer")
    check, expect = _check(where, spec.check, fill, bundled_site=bool(site))
    if check == "answer_matches" and answer is None:
        raise where.error("check.kind", "answer_matches compares with the task's answer: give answer = \"...\"")
    origins = None
    if spec.origins is not None:
        origins = tuple(str(fill(o, f"origins[{i}]")) for i, o in enumerate(spec.origins))
        for i, o in enumerate(origins):
            if not (_ORIGIN.match(o) or (site and re.fullmatch(r"[a-z]+", o))):
                raise where.error(f"origins[{i}]", f"{o!r} is neither a site name nor an origin like http://host:port")
    plan = tuple(_step(where, i, s, fill) for i, s in enumerate(spec.plan))
    return Task(spec.id, site, start, str(fill(spec.goal, "goal")), plan, check, kind=spec.kind, answer=answer,
                expect=expect, origins=origins, tags=tuple(spec.tags))


def _pick(where: _Where, picks: Mapping[str, PickSpec], seed: int) -> dict[str, str]:
    fields = {f"creds.{k}": str(v) for k, v in CREDENTIALS.items()}
    for name, pick in picks.items():
        field = f"pick.{name}"
        if name == "creds":
            raise where.error(field, "'creds' is reserved for the sites' credentials")
        fn = PICKERS.get(pick.use)
        if fn is None:
            raise where.error(f"{field}.use", f"unknown picker {pick.use!r}; known: {', '.join(sorted(PICKERS))}")
        try:
            got = fn(seed, **(pick.model_extra or {}))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or pick.use}: {e['msg']}" for e in exc.errors())
            raise where.error(field, f"{pick.use}: {problems}") from None
        except (ValueError, IndexError, KeyError) as exc:
            raise where.error(field, f"{pick.use}: {exc}") from None
        fields.update({f"{name}.{k}": str(v) for k, v in got.items()})
    return fields


def _render(text: str, fields: Mapping[str, str], where: _Where, field: str) -> str:
    def sub(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        key = m.group(1)
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise where.error(field, f"unknown placeholder {{{key}}} (known: {known})")
        return fields[key]

    return _PLACEHOLDER.sub(sub, text)


def _check(where: _Where, spec: CheckSpec | None, fill: Any, *, bundled_site: bool) -> tuple[str, tuple[tuple[str, str], ...]]:
    if spec is None:
        return "", ()
    if spec.kind not in CHECKERS:
        raise where.error("check.kind", f"unknown check {spec.kind!r}; known: {', '.join(sorted(CHECKERS))}")
    if not bundled_site and spec.kind not in SITE_FREE_CHECKS:
        raise where.error("check.kind", f"{spec.kind} reads the bundled sites' state; a task on a URL can be judged "
                                        f"by {', '.join(SITE_FREE_CHECKS)} only")
    params = {k: fill(v, f"check.{k}") for k, v in (spec.model_extra or {}).items()}
    try:
        CHECK_PARAMS[spec.kind].model_validate(params)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(map(str, err["loc"]))
        message = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        raise where.error(f"check.{loc}" if loc else "check", f"{spec.kind}: {message}") from None
    return spec.kind, tuple((k, str(v)) for k, v in params.items())


def _step(where: _Where, i: int, spec: StepSpec, fill: Any) -> PlanStep:
    field = f"plan[{i}]"
    target = None
    if (spec.role is None) != (spec.name is None):
        raise where.error(field, "a target needs both role and name")
    if spec.role is not None and spec.name is not None:
        nth = fill(spec.nth, f"{field}.nth")
        try:
            n = int(nth)
        except ValueError:
            raise where.error(f"{field}.nth", f"{nth!r} is not a whole number") from None
        if n < 0:
            raise where.error(f"{field}.nth", "must be 0 or more")
        target = Target(str(fill(spec.role, f"{field}.role")), str(fill(spec.name, f"{field}.name")), n)
    args: dict[str, Scalar] = {}
    for key, value in (spec.model_extra or {}).items():
        if not isinstance(value, Scalar):  # type: ignore[arg-type]
            raise where.error(f"{field}.{key}", "an action argument is text, a number or true/false")
        args[key] = fill(value, f"{field}.{key}")
    try:
        return PlanStep(spec.action, target, args, ensure=spec.ensure)
    except ValueError as exc:
        raise where.error(field, str(exc)) from None
