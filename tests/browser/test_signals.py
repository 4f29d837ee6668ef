"""The signal detector on real Chromium: each signal fires when it should, and only then."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pagelens.actions.executor import Feedback
from pagelens.actions.ops import Status
from pagelens.actions.spec import Action
from pagelens.browser.serve import StaticServer
from pagelens.signals.detector import Signal, SignalDetector

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><title>Signals</title></head><body>
<h1>Signals</h1>
<a id="next" href="other.html">Next page</a>
<button id="open" onclick="openDialog()">Open dialog</button>
<button id="menu" aria-expanded="false" aria-controls="m"
        onclick="this.setAttribute('aria-expanded', 'true')">Menu</button>
<button id="grow" onclick="document.getElementById('log').append(Object.assign(document.createElement('p'), {textContent: 'added by you'}))">Add line</button>
<button id="later" onclick="setTimeout(() => document.getElementById('log').append(Object.assign(document.createElement('p'), {textContent: 'pushed later'})), 1500)">Arm timer</button>
<button id="noop">Does nothing</button>
<div id="hidden-dialog" role="dialog" aria-label="Hidden" hidden>not shown</div>
<input id="name" aria-label="Name"> <select id="size" aria-label="Size"><option>S</option><option>L</option></select>
<input id="agree" type="checkbox" aria-label="Agree">
<div id="log"></div>
<script>
function openDialog() {
  const d = document.createElement('div');
  d.setAttribute('role', 'dialog'); d.setAttribute('aria-label', 'Confirm order');
  d.textContent = 'Are you sure?';
  document.body.append(d);
}
</script>
</body></html>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticServer]:
    root = Path(tmp_path_factory.mktemp("signals"))
    (root / "index.html").write_text(PAGE)
    (root / "other.html").write_text("<!doctype html><title>Other</title><p>Other page</p>")
    with StaticServer(root) as server:
        yield server


@pytest.fixture()
def armed(episode, site):  # type: ignore[no-untyped-def]
    episode.goto(site.url("index.html"))
    detector = SignalDetector(episode)
    detector.arm(None)  # the baseline is read from the page itself; no AX extraction needed here
    return episode, detector


def _act(episode, fn: Callable[[], object], action: Action, status: Status = "done", message: str = "ok") -> Feedback:  # type: ignore[no-untyped-def]
    """Run ``fn`` as the agent's action and time it on the page clock, as the executor does."""
    started = episode.page.evaluate("Date.now()")
    fn()
    episode.page.wait_for_timeout(50)
    ended = episode.page.evaluate("Date.now()")
    return Feedback(action, status in ("done", "no_change", "control"), status, message, started_ms=started, ended_ms=ended)


def _kinds(signals: tuple[Signal, ...]) -> list[str]:
    return [s.kind for s in signals]


def test_url_change_fires(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    fb = _act(episode, lambda: episode.page.click("#next"), Action("click", {"id": "3"}))
    episode.page.wait_for_load_state()
    signals = detector.check(fb)
    assert _kinds(signals) == ["url"]
    assert "other.html" in signals[0].detail and "changed address" in signals[0].statement()


def test_a_quiet_action_fires_nothing_and_own_changes_are_not_exogenous(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    assert detector.check(_act(episode, lambda: episode.page.click("#noop"), Action("click", {"id": "9"}))) == ()
    # the agent's own click adds a line: a mutation inside the action window
    assert detector.check(_act(episode, lambda: episode.page.click("#grow"), Action("click", {"id": "7"}))) == ()


def test_dialog_appearing_fires_new_widget(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    signals = detector.check(_act(episode, lambda: episode.page.click("#open"), Action("click", {"id": "5"})))
    assert _kinds(signals) == ["new_widget"]
    assert "dialog 'Confirm order'" in signals[0].detail
    # a hidden dialog present from the start never counted
    assert "Hidden" not in signals[0].detail


def test_aria_expanded_fires_new_widget(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    signals = detector.check(_act(episode, lambda: episode.page.click("#menu"), Action("click", {"id": "6"})))
    assert _kinds(signals) == ["new_widget"] and "Menu" in signals[0].detail


def test_timer_driven_change_is_exogenous_but_own_click_is_not(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    # the click only arms a timer: nothing changes inside the action window
    assert detector.check(_act(episode, lambda: episode.page.click("#later"), Action("click", {"id": "8"}))) == ()
    # the timer fires well after the settle window
    episode.page.wait_for_function("() => document.getElementById('log').textContent.includes('pushed later')")
    signals = detector.check(_act(episode, lambda: episode.page.click("#noop"), Action("click", {"id": "9"})))
    assert _kinds(signals) == ["exogenous"]
    assert "childList on div#log" in signals[0].detail


def test_fill_select_and_checkbox_are_seen_through_input_and_change_events(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    page = episode.page
    # inside the agent's window: its own property changes are not exogenous
    assert detector.check(_act(episode, lambda: page.fill("#name", "Ada"), Action("fill", {"id": "11", "text": "Ada"}))) == ()
    # the same kinds of change made by the page itself, outside any window, are reported
    page.evaluate("""() => setTimeout(() => {
        const n = document.getElementById('name'); n.value = 'Bob'; n.dispatchEvent(new Event('input', {bubbles: true}));
        const s = document.getElementById('size'); s.value = 'L'; s.dispatchEvent(new Event('change', {bubbles: true}));
        const c = document.getElementById('agree'); c.click();
    }, 500)""")
    page.wait_for_timeout(1000)
    signals = detector.check(_act(episode, lambda: None, Action("scroll", {"direction": "down"})))
    assert _kinds(signals) == ["exogenous"]
    # the first three distinct changes are named, in the order they happened
    assert "(input on input#name, change on select#size, input on input#agree)" in signals[0].detail


def test_failures_of_page_actions_fire_but_control_actions_do_not(armed) -> None:  # type: ignore[no-untyped-def]
    episode, detector = armed
    failed = _act(episode, lambda: None, Action("click", {"id": "99"}), "invalid", "no element [99]")
    assert _kinds(detector.check(failed)) == ["action_failure"]
    no_change = _act(episode, lambda: None, Action("hover", {"id": "9"}), "no_change", "no visible change")
    assert _kinds(detector.check(no_change)) == ["action_failure"]
    note = _act(episode, lambda: None, Action("note", {"text": "x"}), "control", "noted")
    assert detector.check(note) == ()


def test_script_is_injected_into_the_current_document_and_new_documents(episode, site) -> None:  # type: ignore[no-untyped-def]
    episode.goto(site.url("index.html"))  # loaded before the detector existed
    assert episode.page.evaluate("() => window.__pagelensSDO === undefined")
    detector = SignalDetector(episode)
    detector.arm(None)
    assert episode.page.evaluate("() => typeof window.__pagelensSDO.drain") == "function"
    episode.page.reload()
    assert episode.page.evaluate("() => typeof window.__pagelensSDO.drain") == "function"  # init script
    signals = detector.check(_act(episode, lambda: None, Action("scroll", {"direction": "down"})))
    assert _kinds(signals) == ["url"] and "reloaded" in signals[0].detail
