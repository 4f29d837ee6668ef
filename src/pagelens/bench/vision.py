"""Vision tasks on bundled static pages, a scripted vision policy, and their runner.

The pages (``bench/data/vision/``) hold what an accessibility tree cannot give: values only
in a canvas tooltip, SVG regions without names, digits drawn by an obfuscating font (a real
one, built from a font on the machine: :mod:`pagelens.bench.vision_font`; the DOM holds other
digits than the screen shows), a target inside an iframe, a dropdown made of plain ``<div>``\\ s.

Reference plans are written in coordinates: a step names an element of the hybrid list (by
name, or role + index) and optionally a point or a box relative to its top-left corner, in
CSS pixels; :class:`VisionPolicy` maps it to screenshot pixels with the current geometry and
issues ``click_at`` / ``hover_at`` / ``type_at``. A ``read`` step OCRs a box of the current
screenshot (the value the model would read off the picture) and becomes the answer of
``stop``; the DOM's numbers in that box are cross-checked against OCR of it
(:attr:`VisionResult.checks`: where DOM text and pixels disagree). Success: read tasks by :func:`~pagelens.vision.scoring.score_answer`, act tasks by a
page-state expression.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pagelens.actions.spec import Action

if TYPE_CHECKING:
    from pagelens.browser.page import Tab
    from pagelens.browser.session import BrowserSession
    from pagelens.vision.crosscheck import CrossCheck
    from pagelens.vision.hybrid import HybridView

__all__ = ["VISION_TASKS", "VStep", "VisionPolicy", "VisionResult", "VisionTask", "pages_dir", "run_vision_task"]

StepKind = Literal["click", "hover", "type", "read", "stop"]


@dataclass(frozen=True, slots=True)
class VStep:
    kind: StepKind
    name: str = ""  # an element of the hybrid list by name (exact, case-insensitive) ...
    role: str = ""  # ... or by role, the ``nth`` of that role
    nth: int = 0
    #: CSS px from the element's top-left corner (None: its centre); for "read": x, y, w, h
    at: tuple[float, ...] | None = None
    text: str = ""  # type: the text; read: a regex whose first group (or match) is the value


@dataclass(frozen=True, slots=True)
class VisionTask:
    id: str
    page: str
    goal: str
    plan: tuple[VStep, ...]
    answer: str | None = None  # read tasks
    state: tuple[str, str] | None = None  # act tasks: (JS expression, expected str(value))


VISION_TASKS: tuple[VisionTask, ...] = (
    VisionTask("vision-chart-hover", "chart.html", "How much rain fell in March? Give the value with its unit.",
               (VStep("hover", role="Canvas", at=(280, 300)),
                VStep("read", role="Canvas", at=(250, 30, 130, 44), text=r"(\d+[.,]\d)"), VStep("stop")),
               answer="61.7 mm"),
    VisionTask("vision-chart-redraw", "chart.html", "Switch to the next station and read its February rainfall.",
               (VStep("click", name="Next station"), VStep("hover", role="Canvas", at=(185, 300)),
                VStep("read", role="Canvas", at=(155, 30, 130, 44), text=r"(\d+[.,]\d)"), VStep("stop")),
               answer="88.1"),
    VisionTask("vision-svg-map", "map.html", "Choose the northern delivery zone on the map.",
               (VStep("click", role="graphics-symbol", nth=0, at=(100, 40)), VStep("stop", text="done")),
               state=("window.__zone", "North")),
    VisionTask("vision-obfuscated-digits", "font.html", "What is the confirmation code shown on the screen?",
               (VStep("read", at=(0, 80, 420, 90), text=r"(\d{6})"), VStep("stop")), answer="829741"),
    VisionTask("vision-iframe-click", "iframe.html", "Subscribe to the newsletter.",
               (VStep("click", name="Subscribe"), VStep("stop", text="done")), state=("window.__subscribed", "True")),
    VisionTask("vision-custom-dropdown", "dropdown.html", "Order the paint in teal.",
               (VStep("click", name="Choose…"), VStep("click", name="Teal"), VStep("stop", text="done")),
               state=("window.__colour", "Teal")),
    VisionTask("vision-canvas-board", "clock.html", "How many minutes late is IC 512?",
               (VStep("click", name="Refresh later"), VStep("click", name="Refresh later"),
                VStep("click", name="Show delays"),
                VStep("read", role="Canvas", name="Delays board", at=(0, 0, 420, 60), text=r"\+\s*(\d+)\s*min"),
                VStep("stop")), answer="25"),
)


#: the obfuscating font of ``font.html``: the code point of digit ``d`` is drawn with the glyph
#: of ``FONT_PERMUTATION[d]`` (so the DOM's 471928 shows as 829741)
FONT_PERMUTATION = "5946830217"
FONT_FILE = "digits-obfuscated.ttf"


def source_dir() -> Path:
    """The bundled page files (without the font, which is built from a font on the machine)."""
    return Path(str(resources.files("pagelens.bench").joinpath("data/vision")))


def pages_dir() -> Path:
    """The vision pages ready to serve: the bundled files plus :data:`FONT_FILE`, built with
    :func:`~pagelens.bench.vision_font.permuted_digits_font` from a free font on the machine.
    Built once per content (a directory under the temp dir keyed by a digest)."""
    import hashlib
    import os
    import shutil
    import tempfile

    from pagelens.bench.vision_font import find_source_font, permuted_digits_font

    src = source_dir()
    font = find_source_font()
    digest = hashlib.sha1(f"{FONT_PERMUTATION}|{font}|{font.stat().st_size}".encode())
    files = sorted(p for p in src.iterdir() if p.is_file())
    for p in files:
        digest.update(p.name.encode() + b"\0" + p.read_bytes())
    uid = os.getuid() if hasattr(os, "getuid") else 0
    out = Path(tempfile.gettempdir()) / f"pagelens-vision-{uid}-{digest.hexdigest()[:12]}"
    if (out / FONT_FILE).is_file():
        return out
    tmp = Path(tempfile.mkdtemp(prefix=out.name + ".", dir=out.parent))
    for p in files:
        shutil.copyfile(p, tmp / p.name)
    (tmp / FONT_FILE).write_bytes(permuted_digits_font(font, FONT_PERMUTATION))
    try:
        tmp.rename(out)
    except OSError:  # another process built it first
        shutil.rmtree(tmp, ignore_errors=True)
    return out


class VisionPolicy:
    """Replays a :class:`VisionTask` plan from the hybrid view (one action per call)."""

    name = "scripted-vision"

    def __init__(self, plan: Sequence[VStep]) -> None:
        self.plan = tuple(plan)
        self.cursor = 0
        self.answer = ""
        self.ocr: list[dict[str, Any]] = []
        self.intended: tuple[float, float] | None = None  # CSS point the last coordinate action aimed at
        self.last_read_box: tuple[int, int, int, int] | None = None  # screenshot px of the last read

    def _element(self, hybrid: HybridView, step: VStep) -> Any:
        want = " ".join(step.name.split()).casefold()
        els = list(hybrid.elements)
        if want:
            named = [e for e in els if " ".join(e.name.split()).casefold() == want]
            if named:
                return named[0]
        if step.role:
            same = [e for e in els if e.role == step.role]
            return same[step.nth] if len(same) > step.nth else None
        return None

    def _point(self, hybrid: HybridView, step: VStep) -> tuple[int, int] | None:
        geo = hybrid.screenshot.geometry
        el = self._element(hybrid, step)
        if el is None:
            return None
        if step.at is None:
            return el.centre
        ox, oy = geo.to_css(el.x, el.y)
        self.intended = (ox + step.at[0], oy + step.at[1])
        return geo.to_screen(*self.intended)

    def decide(self, hybrid: HybridView) -> Action | str:
        """The next action, or a string saying why there is none."""
        while self.cursor < len(self.plan):
            step = self.plan[self.cursor]
            self.cursor += 1
            if step.kind == "stop":
                return Action("stop", {"answer": step.text or self.answer})
            if step.kind == "read":
                got = self._read(hybrid, step)
                if got is None:
                    return f"could not read {step.text!r} in the screenshot"
                self.answer = got
                continue
            point = self._point(hybrid, step)
            if point is None:
                return f"no element for {step} in the hybrid list"
            x, y = point
            if step.kind == "click":
                return Action("click_at", {"x": x, "y": y})
            if step.kind == "hover":
                return Action("hover_at", {"x": x, "y": y})
            return Action("type_at", {"x": x, "y": y, "text": step.text})
        return "the plan is finished"

    def _read(self, hybrid: HybridView, step: VStep) -> str | None:
        from pagelens.vision.ocr import read_region

        geo = hybrid.screenshot.geometry
        assert step.at is not None and len(step.at) == 4
        ox = oy = 0.0
        if step.name or step.role:
            el = self._element(hybrid, step)
            if el is None:
                return None
            ox, oy = geo.to_css(el.x, el.y)
        x0, y0 = geo.to_screen(ox + step.at[0], oy + step.at[1])
        x1, y1 = geo.to_screen(ox + step.at[0] + step.at[2], oy + step.at[1] + step.at[3])
        pattern = re.compile(step.text)
        def joined(t: str) -> str:  # letter-spaced digits ("8 2 9") are one number
            return re.sub(r"(?<=\d) (?=\d)", "", t)

        box = (x0, y0, x1 - x0, y1 - y0)
        text = read_region(hybrid.screenshot.image(), box, accept=lambda t: pattern.search(joined(t)) is not None)
        m = pattern.search(joined(text))
        self.ocr.append({"box": box, "text": text, "matched": bool(m)})
        self.last_read_box = box
        if not m:
            return None
        return m.group(1) if m.groups() else m.group(0)


@dataclass(frozen=True, slots=True)
class StepStat:
    action: str
    status: str
    message: str
    dom_changed: bool
    pixel_changed: bool
    coord_error_css: float | None  # |CSS point used - CSS point intended|
    screenshot_s: float  # hybrid view after the step (capture + boxes)
    image_tokens: int
    tree_tokens: int


@dataclass(frozen=True, slots=True)
class VisionResult:
    task: str
    success: bool
    detail: str
    answer: str | None
    steps: tuple[StepStat, ...] = field(default=())
    seconds: float = 0.0
    #: read steps: the DOM's text in the box the policy read, cross-checked against OCR of that box
    #: (none when the DOM holds no text there: a canvas)
    checks: tuple[CrossCheck, ...] = ()


def run_vision_task(task: VisionTask, session: BrowserSession, base_url: str, *, max_steps: int = 12,
                    pixels: bool = True) -> VisionResult:
    """Run ``task`` with :class:`VisionPolicy`; every step re-observes (tree + hybrid view)."""
    from pagelens import tokens
    from pagelens.actions.executor import Executor
    from pagelens.observe.render import render
    from pagelens.vision.hybrid import capture_hybrid
    from pagelens.vision.mask import HysteresisWatch
    from pagelens.vision.scoring import score_answer

    t0 = time.perf_counter()
    policy = VisionPolicy(task.plan)
    stats: list[StepStat] = []
    checks: list[CrossCheck] = []
    with session.episode() as ep:
        ep.goto(base_url.rstrip("/") + "/" + task.page)
        ex = Executor(ep)
        if pixels:
            ex.pixels = HysteresisWatch()
            ex.pixels.arm(ep)
        obs = ep.observe()
        hybrid = capture_hybrid(ep, obs)
        for _ in range(max_steps):
            ex.screen = hybrid.screenshot.geometry
            reads = len(policy.ocr)
            decision = policy.decide(hybrid)
            if len(policy.ocr) > reads and policy.last_read_box is not None:
                checks.extend(_dom_checks(ep.tab, hybrid, policy.last_read_box))
            if isinstance(decision, str):
                return VisionResult(task.id, False, decision, None, tuple(stats), time.perf_counter() - t0,
                                    tuple(checks))
            if decision.name == "stop":
                answer = str(decision.args["answer"])
                ok, detail = _judge(task, ep.tab, answer, score_answer)
                return VisionResult(task.id, ok, detail, answer, tuple(stats), time.perf_counter() - t0,
                                    tuple(checks))
            fb = ex.execute(decision, obs)
            err = None
            if policy.intended is not None and "css_x" in fb.detail:
                err = max(abs(float(fb.detail["css_x"]) - policy.intended[0]),
                          abs(float(fb.detail["css_y"]) - policy.intended[1]))
            policy.intended = None
            # what the DOM side saw: the fingerprint diff plus the handler's own (frame) changes
            dom = any(not c.startswith(_PIXEL_NOTE) for c in fb.changes)
            obs = ep.observe()
            hybrid = capture_hybrid(ep, obs)
            stats.append(StepStat(decision.render(), fb.status, fb.message, dom, int(fb.detail.get("pixel_cells", 0)) > 0,
                                  err, round(hybrid.seconds, 4), hybrid.tokens("openai"),
                                  tokens.count(render(obs).text())))
            if not fb.ok:
                return VisionResult(task.id, False, f"step failed: {fb.message}", None, tuple(stats),
                                    time.perf_counter() - t0)
    return VisionResult(task.id, False, f"no stop after {max_steps} steps", None, tuple(stats), time.perf_counter() - t0)


_PIXEL_NOTE = "the screen changed in "

#: the text of the DOM's text nodes whose rectangles meet a CSS box (top document)
_DOM_TEXT_IN_BOX = """([x, y, w, h]) => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.data.trim()) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    for (const b of r.getClientRects())
      if (b.right > x && b.left < x + w && b.bottom > y && b.top < y + h) { out.push(n.data.trim()); break; }
  }
  return out.join(" ");
}"""


def _dom_checks(page: Tab, hybrid: HybridView, box: tuple[int, int, int, int]) -> tuple[CrossCheck, ...]:
    """The DOM's numbers in the box the policy read off the screenshot, checked against OCR of it."""
    from pagelens.vision.crosscheck import check_value, values_in

    geo = hybrid.screenshot.geometry
    x, y = geo.to_css(box[0], box[1])
    w, h = box[2] / geo.scale_x, box[3] / geo.scale_y
    text = str(page.evaluate(_DOM_TEXT_IN_BOX, [x, y, w, h]))
    img = hybrid.screenshot.image()
    return tuple(check_value(v, img, source="read", box=box, context=text) for v in values_in(text))


def _judge(task: VisionTask, tab: Tab, answer: str, score: Any) -> tuple[bool, str]:
    if task.answer is not None:
        s = score(task.answer, answer)
        return s.ok, f"{s.method}: {s.detail}"
    assert task.state is not None
    expr, want = task.state
    value = tab.evaluate(f"() => {{ try {{ return String({expr}); }} catch (e) {{ return 'error'; }} }}")
    return (value == want or value.casefold() == want.casefold()), f"{expr} = {value!r} (want {want!r})"
