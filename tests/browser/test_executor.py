"""The executor on real Chromium: pages under tests/browser/pages/actions_*.html."""

from __future__ import annotations

import pytest

from pagelens.actions.executor import Budgets, Executor, Feedback
from pagelens.actions.spec import Action
from pagelens.types import Observation
from tests.browser._threaded import within

pytestmark = pytest.mark.browser


def A(name: str, **args: object) -> Action:  # noqa: N802 - reads like the action text
    return Action(name, args)  # type: ignore[arg-type]


def eid(obs: Observation, role: str, name: str) -> str:
    for n in obs.nodes:
        if n.eid is not None and n.role == role and n.name.startswith(name):
            return str(n.eid)
    raise AssertionError(f"no {role} {name!r} in {[(n.role, n.name) for n in obs.nodes if n.eid]}")


@pytest.fixture()
def main(episode, pages_server):  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_main.html"))
    return episode, episode.observe()


def run(ex: Executor, obs: Observation, action: Action, status: str) -> Feedback:
    fb = ex.execute(action, obs)
    assert fb.status == status, fb.message
    assert fb.message.startswith(action.render()) or status in ("invalid", "budget"), fb.message
    return fb


def test_click_changes_and_navigates(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep)
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Click me")), "done")
    assert fb.ok and any("content changed" in c for c in fb.changes), fb.changes
    assert fb.before is not None and fb.after is not None and fb.before != fb.after
    assert fb.ended_ms >= fb.started_ms > 1e12  # page clock, epoch milliseconds
    fb = run(ex, obs, A("click", id=eid(obs, "link", "Next page")), "done")
    assert "URL changed" in fb.message and fb.after is not None and fb.after.url.endswith("actions_next.html")
    fb = run(ex, ep.observe(), A("go_back"), "done")
    assert fb.after is not None and fb.after.url.endswith("actions_main.html")


def test_click_on_a_covered_element_names_the_cover(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_modal.html"))
    obs = episode.observe()
    ex = Executor(episode)
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Buy now")), "failed")
    assert 'id="newsletter"' in fb.message and "Subscribe to our newsletter" in fb.message, fb.message
    assert "not clickable" in fb.message and episode.page.title() == "Modal"
    run(ex, obs, A("click", id=eid(obs, "button", "Close")), "done")
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Buy now")), "done")
    assert "title changed" in fb.message


def test_fill_reads_back_the_real_value(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep)
    fb = run(ex, obs, A("fill", id=eid(obs, "textbox", "Name"), text="Ada Lovelace"), "done")
    assert fb.detail["value"] == "Ada Lovelace"
    assert f'[{fb.action.args["id"]}] now contains "Ada Lovelace".' in fb.message
    assert ep.page.input_value("#name") == "Ada Lovelace"
    fb = run(ex, obs, A("fill", id=eid(obs, "textbox", "Code"), text="ABCDEFGH"), "done")
    assert fb.detail["value"] == "ABCDE" and "5 characters" in fb.message and "not the 8" in fb.message
    fb = run(ex, obs, A("fill", id=eid(obs, "button", "Click me"), text="x"), "failed")
    assert "not a text field" in fb.message


def test_select_option_lists_options_when_missing(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep)
    size = eid(obs, "combobox", "Size")
    fb = run(ex, obs, A("select_option", id=size, option="Extra large"), "failed")
    assert 'Available options: "Small", "Medium", "Large"' in fb.message
    assert fb.detail["options"] == ("Small", "Medium", "Large")
    run(ex, obs, A("select_option", id=size, option="large"), "done")
    assert ep.page.input_value("#size") == "Large"


def test_hover_reveals_a_same_length_tooltip(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    fb = run(Executor(ep), obs, A("hover", id=eid(obs, "button", "Price info")), "done")
    assert fb.changes == ("page text changed (same length)",)


def test_click_inside_a_same_origin_iframe_is_a_change(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    target = eid(obs, "button", "Frame button")
    assert next(n for n in obs.nodes if n.eid == target).frame != "main"
    fb = run(Executor(ep), obs, A("click", id=target), "done")
    assert any("frame" in c and "content changed" in c for c in fb.changes), fb.changes
    assert ep.page.frames[1].inner_text("button") == "Frame button clicked, thanks"


def test_detached_element_and_unknown_id(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep)
    ep.page.evaluate("document.getElementById('vanish').remove()")
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Vanishing")), "failed")
    assert "no longer on the page" in fb.message and not fb.ok
    fb = run(ex, obs, A("click", id="9999"), "invalid")
    assert fb.message == "id 9999 is not in the current observation; use an id shown in brackets."


def test_find_text_scrolls_and_read_text_flags_obfuscated_digits(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep)
    fb = run(ex, obs, A("find_text", text="the NEEDLE"), "done")
    assert any(c.startswith("scrolled") for c in fb.changes) and "match 1 of 1" in fb.message
    assert "needle is down here" not in fb.message  # find_text returns no page text
    run(ex, obs, A("find_text", text="no such words"), "failed")
    fb = run(ex, obs, A("read_text", id_or_label="Total due"), "done")
    assert "Total due: 4?2 EUR" in fb.message and fb.detail["replaced"] == 1
    assert "\ue001" not in fb.message and "private font" in fb.message


def test_repeated_no_op_click_hits_the_cap(main) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep, Budgets(max_repeats=3))
    noop = A("click", id=eid(obs, "button", "Does nothing"))
    for _ in range(3):
        fb = run(ex, obs, noop, "no_change")
        assert "no visible change" in fb.message and 'At the click point: <button id="noop">' in fb.message
        assert "(clickable), the target itself" in fb.message
    fb = run(ex, obs, noop, "budget")
    assert "already tried 3 times" in fb.message and not fb.ok
    run(ex, obs, A("click", id=eid(obs, "button", "Click me")), "done")  # something else still runs


def test_goto_and_other_budgets(main, pages_server) -> None:  # type: ignore[no-untyped-def]
    ep, obs = main
    ex = Executor(ep, Budgets(max_steps=8, max_reloads=1, max_read_text=1))
    fb = run(ex, obs, A("goto", url="https://example.com/"), "invalid")
    assert "only opens pages of this site" in fb.message
    run(ex, obs, A("goto", url="file:///etc/passwd"), "invalid")
    run(ex, obs, A("goto", url="actions_main.html"), "done")  # relative: a reload of the same page
    fb = run(ex, obs, A("goto", url=pages_server.url("actions_main.html")), "budget")
    assert "reload budget" in fb.message
    run(ex, obs, A("goto", url="/actions_next.html"), "done")
    obs = ep.observe()
    run(ex, obs, A("read_text", id_or_label="next page"), "done")
    assert "read_text budget" in run(ex, obs, A("read_text", id_or_label="next"), "budget").message
    fb = run(ex, obs, A("note", text="step 8"), "control")
    assert fb.ok and fb.detail["text"] == "step 8"
    assert "step budget" in run(ex, obs, A("click", id=eid(obs, "link", "Back")), "budget").message
    assert run(ex, obs, A("stop", answer="done"), "control").ok  # stop is always allowed


def test_ticking_a_checkbox_is_a_change_not_a_no_op(main) -> None:  # type: ignore[no-untyped-def]
    # a checkbox's state is a property: neither the DOM nor the page text changes
    ep, obs = main
    ex = Executor(ep)
    fb = run(ex, obs, A("click", id=eid(obs, "checkbox", "Gift wrap")), "done")
    assert any(c.startswith("form state changed: 1 checkboxes/radios checked (was 0)") for c in fb.changes), fb.changes
    assert ep.page.is_checked("#gift")


def test_settling_waits_for_the_request_an_action_started_but_not_forever(episode, tricky_server) -> None:  # type: ignore[no-untyped-def]
    """No fixed timer: the click's 150 ms request and the DOM update after it are in the feedback;
    a request that never answers holds the feedback back half a second at most."""
    import time

    episode.goto(tricky_server + "/fetch-page")
    obs = episode.observe()
    ex = Executor(episode)
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Load")), "done")
    assert any("content changed" in c for c in fb.changes), fb.message
    assert episode.page.inner_text("#out") == "loaded 1"
    t0 = time.perf_counter()
    fb = ex.execute(A("click", id=eid(obs, "button", "Hang")), obs)
    assert fb.status == "no_change", fb.message
    assert time.perf_counter() - t0 < 4.0  # (the settle gives up after 0.5 s; the rest is load)


def test_settling_waits_for_a_body_that_comes_after_the_headers(episode, tricky_server) -> None:  # type: ignore[no-untyped-def]
    """The response's headers arrive at once and its body 200 ms later: the request has answered
    but the page's handler runs only after ``r.json()``, so the read of the body counts as pending."""
    episode.goto(tricky_server + "/fetch-page")
    obs = episode.observe()
    fb = run(Executor(episode), obs, A("click", id=eid(obs, "button", "Body")), "done")
    assert any("content changed" in c for c in fb.changes), fb.message
    assert episode.page.inner_text("#out") == "body 2"


@pytest.fixture()
def vanish(episode, pages_server):  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_vanish.html"))
    return episode, episode.observe()


def test_a_click_that_replaces_its_own_element_is_done_not_gone(vanish) -> None:  # type: ignore[no-untyped-def]
    """The button re-renders on mousedown (as pressed buttons of many UI libraries do): the click
    worked, so the feedback is the change, not "element gone"."""
    ep, obs = vanish
    fb = run(Executor(ep), obs, A("click", id=eid(obs, "button", "Replace me")), "done")
    assert any("content changed" in c for c in fb.changes), fb.message
    assert ep.page.inner_text("#log") == "pressed" and ep.page.inner_text("#box") == "Replaced on press"


def test_a_click_that_removes_its_link_and_navigates_is_done(vanish) -> None:  # type: ignore[no-untyped-def]
    ep, obs = vanish
    fb = run(Executor(ep), obs, A("click", id=eid(obs, "link", "Leave on press")), "done")
    assert "URL changed" in fb.message and fb.after is not None and fb.after.url.endswith("actions_next.html")
    assert ep.page.title() == "Next"


@pytest.mark.parametrize(("role", "name"), [("button", "Leave soon"), ("button", "Send the form")])
def test_a_navigation_the_click_starts_is_waited_for(vanish, role: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """A navigation started by a timer of the click handler, or by a form submission (a task after
    the click), ends before the feedback: the fingerprint after it is the next page's."""
    ep, obs = vanish
    fb = run(Executor(ep), obs, A("click", id=eid(obs, role, name)), "done")
    assert fb.after is not None and "actions_next.html" in fb.after.url, fb.message
    assert "URL changed" in fb.message and ep.page.title() == "Next"


def test_a_click_whose_navigation_outlasts_the_action_timeout_is_done_not_gone(episode, tricky_server) -> None:  # type: ignore[no-untyped-def]
    """The race behind a false failure (seen under load on ``admin-delete`` as "element gone"): the
    click starts a navigation whose page answers after the action's time budget, and its element
    is gone by the time anyone looks. The click worked: the feedback is the next page ("timed out"
    or "removed from the page" before)."""
    episode.goto(tricky_server + "/slow-link")
    obs = episode.observe()
    fb = run(Executor(episode, timeout_s=2.0), obs, A("click", id=eid(obs, "link", "Delete and leave")), "done")
    assert "URL changed" in fb.message and fb.after is not None and fb.after.url.endswith("/slow-next"), fb.message
    assert episode.page.title() == "Arrived"


@pytest.fixture()
def timers(episode, pages_server):  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_timers.html"))
    return episode, episode.observe()


def test_an_effect_a_short_timer_of_the_click_shows_is_in_the_feedback(timers) -> None:  # type: ignore[no-untyped-def]
    """The handler shows its result 80 ms after the click: a timer of the action is work in flight
    (the settling used to end on the first quiet frame, before it ran: "no visible change")."""
    ep, obs = timers
    ex = Executor(ep)
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Show soon")), "done")
    assert any("content changed" in c for c in fb.changes), fb.message
    assert ep.page.inner_text("#out") == "shown after a short timer"
    # a timer cleared at once is no work in flight; a page's own short polling loop is bounded (max_ms)
    run(ex, obs, A("click", id=eid(obs, "button", "Change of mind")), "no_change")
    assert ep.page.inner_text("#out") == "shown after a short timer"
    run(ex, obs, A("click", id=eid(obs, "button", "Keep polling")), "no_change")


def _on_a_freezing_page(pages_server, role: str, name: str, **args: object) -> Feedback:  # type: ignore[no-untyped-def]
    """One action on actions_timers.html, with a 1 s budget, in a browser of its own on a thread of
    its own: a hung call fails the test after a minute instead of hanging the suite."""
    from pagelens.browser.session import BrowserSession

    def go() -> Feedback:
        with BrowserSession() as session:
            ep = session.episode()
            ep.goto(pages_server.url("actions_timers.html"))
            obs = ep.observe()
            fb = Executor(ep, timeout_s=1.0).execute(A(args.pop("action", "click"), id=eid(obs, role, name), **args),
                                                     obs)
            session.kill("the test's page froze")  # (closing a frozen page's context would wait)
            return fb

    return within(60, go)


@pytest.mark.parametrize("name", ["Freeze now", "Freeze soon"])
def test_a_page_that_freezes_on_the_click_is_a_clear_time_out_not_a_hung_call(pages_server, name: str) -> None:  # type: ignore[no-untyped-def]
    """The click's handler loops for ever (at once, or from a timer 50 ms later): every page call
    is bounded from outside the page, so the action ends in its time budget with a failure that
    says the page no longer answers (``unresponsive``), instead of waiting on the page for good."""
    fb = _on_a_freezing_page(pages_server, "button", name)
    assert fb.status == "failed" and "timed out after 1 s" in fb.message, fb.message
    assert "main thread" in fb.message and fb.detail.get("unresponsive") is True, fb.message


def test_a_fill_whose_input_handler_freezes_the_page_is_a_clear_time_out(pages_server) -> None:  # type: ignore[no-untyped-def]
    fb = _on_a_freezing_page(pages_server, "textbox", "Field", action="fill", text="freeze")
    assert fb.status == "failed" and "timed out after 1 s" in fb.message and fb.detail.get("unresponsive"), fb.message


def test_a_fill_reads_the_value_back_once_the_page_settled(main) -> None:  # type: ignore[no-untyped-def]
    """The read-back of a fill comes with the settling (one page call): the field's value as the
    page left it, the element's marker removed from the page."""
    ep, obs = main
    fb = run(Executor(ep), obs, A("fill", id=eid(obs, "textbox", "Name"), text="Ada"), "done")
    assert fb.detail["value"] == "Ada" and "now contains" in fb.message, fb.message
    assert ep.page.evaluate("() => document.querySelectorAll('[data-pagelens-target]').length") == 0


def test_a_disabled_drop_down_is_refused_at_once_with_the_reason(episode, pages_server) -> None:  # type: ignore[no-untyped-def]
    """The drop-down's state is read with its options and the fingerprint (one call): a disabled
    one is a failure that says so (it was a wait for it to become enabled, then "timed out")."""
    episode.goto(pages_server.url("actions_select.html"))
    obs = episode.observe()
    ex = Executor(episode, timeout_s=2.0)
    fb = run(ex, obs, A("select_option", id=eid(obs, "combobox", "Plan"), option="Pro"), "failed")
    assert "is disabled; nothing was changed" in fb.message, fb.message
    fb = run(ex, obs, A("select_option", id=eid(obs, "combobox", "Size"), option="M"), "done")
    assert 'now shows "M"' in fb.message and episode.page.inner_text("#out") == "size M"


@pytest.fixture()
def fields(episode, pages_server):  # type: ignore[no-untyped-def]
    episode.goto(pages_server.url("actions_fill.html"))
    return episode, episode.observe()


def test_a_fill_in_the_page_is_a_user_edit_and_the_settling_sees_what_its_handlers_do(fields) -> None:  # type: ignore[no-untyped-def]
    """A text field is filled in the page by the settling's own call: ``beforeinput``, trusted ``input``,
    ``change`` on leaving the field, the field's limits and a cancelled ``beforeinput`` kept; an effect the page's
    handler makes at once, in its next frame, by a posted message or after a request is in the
    feedback (the quick exit only when nothing was scheduled)."""
    ep, obs = fields
    ex = Executor(ep)
    fb = run(ex, obs, A("fill", id=eid(obs, "textbox", "Plain"), text="Ada"), "done")
    assert fb.detail["value"] == "Ada" and ep.page.input_value("#plain") == "Ada"
    # beforeinput (cancelable; dispatched by the page script), input (the browser's editing); change: on leaving
    assert ep.page.evaluate("events") == [["beforeinput", "plain", False], ["input", "plain", True]]
    for name, out, text in (("Counted", "#count", "3 characters"), ("Framed", "#framed-out", "frame abc"),
                            ("Posted", "#posted-out", "posted abc"), ("Fetched", "#fetched-out", "fetched abc")):
        fb = run(ex, obs, A("fill", id=eid(obs, "textbox", name), text="abc"), "done")
        assert fb.before is not None and fb.after is not None, name
        assert fb.after.text_hash != fb.before.text_hash, name  # (the handler's effect is in the fingerprint after)
        assert ep.page.inner_text(out) == text, name
    events = ep.page.evaluate("events")
    assert ["change", "plain", True] in events and ["input", "fetched", True] in events
    fb = run(ex, obs, A("fill", id=eid(obs, "textbox", "Digits refused"), text="a1"), "done")
    assert fb.detail["value"] == "" and "not the 2 characters" in fb.message, fb.message
    fb = run(ex, obs, A("fill", id=eid(obs, "textbox", "Notes"), text="two\nlines"), "done")
    assert fb.detail["value"] == "two\nlines"
    fb = run(ex, obs, A("fill", id=eid(obs, "spinbutton", "Quantity"), text=" 12 "), "done")
    assert ep.page.input_value("#qty") == "12"
    fb = run(ex, obs, A("fill", id=eid(obs, "spinbutton", "Quantity"), text="many"), "failed")
    assert "number" in fb.message and ep.page.input_value("#qty") == "12", fb.message
    start = next(str(n.eid) for n in obs.nodes if n.eid is not None and n.name.startswith("Start"))
    fb = run(ex, obs, A("fill", id=start, text="2026-12-06"), "done")
    assert ep.page.input_value("#start") == "2026-12-06" and ["change", "start", False] in ep.page.evaluate("events")
    fb = run(ex, obs, A("fill", id=start, text="2026-13-45"), "failed")
    assert "does not take" in fb.message, fb.message


def test_a_selection_in_the_page_that_leaves_or_moves_is_followed(fields) -> None:  # type: ignore[no-untyped-def]
    """A drop-down whose change handler submits its form (the navigation starts in a later task),
    sets the address's fragment (the page's ``hashchange`` handler runs later) or rebuilds the
    drop-down: the feedback has the next page, the handler's change, the option chosen."""
    ep, obs = fields
    ex = Executor(ep)
    fb = run(ex, obs, A("select_option", id=eid(obs, "combobox", "Anchor"), option="bottom"), "done")
    assert "#bottom" in ep.tab.url and ep.page.inner_text("#anchor-out") == "at #bottom"
    assert fb.before is not None and fb.after is not None and fb.after.text_hash != fb.before.text_hash, fb.changes
    fb = run(ex, obs, A("select_option", id=eid(obs, "combobox", "Rebuilt"), option="B"), "done")
    assert 'now shows "B"' in fb.message, fb.message  # (chosen, then its change handler rebuilt the drop-down)
    fb = run(ex, obs, A("select_option", id=eid(obs, "combobox", "Jump"), option="Go"), "done")
    assert fb.after is not None and "actions_next.html" in fb.after.url and "jump=Go" in fb.after.url, fb.message


def test_the_settling_is_quick_only_after_an_act_that_scheduled_nothing(fields) -> None:  # type: ignore[no-untyped-def]
    """The settling's quick exit (no frame awaited) is taken after a fill whose field has no handler,
    and not after one whose handler changed the page or scheduled work."""
    from pagelens.actions.fingerprint import take
    from pagelens.actions.inpage import FILL_JS
    from pagelens.actions.settle import BEFORE_JS, settled

    ep, obs = fields
    tab = ep.tab
    quick = {}
    for name in ("Plain", "Counted", "Framed", "Posted", "Fetched"):
        node = next(n for n in obs.nodes if n.eid == eid(obs, "textbox", name))
        target = tab.element(node, timeout_ms=2000)
        before = take(tab, None, timeout_s=2, js=BEFORE_JS)
        done = settled(tab, None, since_ms=before.clock_ms, timeout_ms=2000, mark=target.marker,
                       element_js="(el) => el.value", act=(FILL_JS, ["xyz", False]))
        target.release()
        assert done.acted == {"value": "typed"} and done.element == {"value": "xyz"}, (name, done)
        quick[name] = done.quick
    assert quick == {"Plain": True, "Counted": False, "Framed": False, "Posted": False, "Fetched": False}


def test_a_click_that_scheduled_nothing_settles_quickly_and_one_that_did_is_followed(fields, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The watch armed with the element's probe: a checkbox without a handler settles without a frame;
    a button whose handler changes the page in its next frame is settled after that change."""
    from pagelens.actions import executor

    seen = []

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        done = settle(*args, **kwargs)
        seen.append(done.quick)
        return done

    settle = executor.settled
    monkeypatch.setattr(executor, "settled", recording)
    ep, obs = fields
    ex = Executor(ep)
    fb = run(ex, obs, A("click", id=eid(obs, "checkbox", "Agree")), "done")
    assert ep.page.is_checked("#agree") and "form state changed" in " ".join(fb.changes), fb.changes
    fb = run(ex, obs, A("click", id=eid(obs, "button", "Show later")), "done")
    assert ep.page.inner_text("#later-out") == "shown later"
    assert fb.before is not None and fb.after is not None and fb.after.text_hash != fb.before.text_hash
    assert seen == [True, False]
