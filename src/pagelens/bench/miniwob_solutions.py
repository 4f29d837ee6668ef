"""Scripted solutions of MiniWoB++ tasks, for the oracle-retention benchmark.

browsergym-miniwob 0.14.3 implements no ``cheat()`` (the base class raises
``NotImplementedError``). These play its part: each reads the goal, acts on the task page
through the browser package's tab (:class:`~pagelens.browser.page.Tab`) the way a person would
(click, fill, select), and lets the task's own
JavaScript judge the result. Only what an oracle needs: which elements a correct solution
touches. Tasks without a solution here are skipped by :mod:`pagelens.bench.miniwob`, with
the reason recorded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from pagelens.errors import ConfigError

if TYPE_CHECKING:
    from pagelens.browser.dom import Element
    from pagelens.browser.page import Tab

__all__ = ["SOLUTIONS", "Solution"]

Solution = Callable[["Tab", str], None]
_POSITIONS = {"1st": 0, "2nd": 1, "3rd": 2}


def _quoted(goal: str, n: int = 0) -> str:
    found = re.findall(r'"([^"]*)"', goal)
    if len(found) <= n:
        raise ConfigError(f"goal has no quoted text #{n}: {goal!r}")
    return str(found[n])


def _by_text(loc: Element, text: str) -> Element:
    for i in range(loc.count()):
        item = loc.nth(i)
        if item.text().strip() == text:
            return item
    raise ConfigError(f"no element with text {text!r}")


def _submit(tab: Tab) -> None:
    tab.css("#subbtn").click()


def click_test(tab: Tab, goal: str) -> None:
    tab.css("#subbtn").click()


def click_named_button(tab: Tab, goal: str) -> None:
    """click-test-2 / click-test-transfer: ``Click button ONE.``"""
    m = re.search(r"Click button (\w+)\.", goal)
    if m is None:
        raise ConfigError(f"unexpected goal {goal!r}")
    _by_text(tab.css("#area button"), m.group(1)).click()


def click_quoted_button(tab: Tab, goal: str) -> None:
    """click-button / unicode-test: ``Click on the "X" button.``"""
    _by_text(tab.css("#area button"), _quoted(goal)).click()


def click_button_sequence(tab: Tab, goal: str) -> None:
    tab.css("#subbtn").click()
    tab.css("#subbtn2").click()


def click_link(tab: Tab, goal: str) -> None:
    _by_text(tab.css("#area .alink"), _quoted(goal)).click()


def click_dialog(tab: Tab, goal: str) -> None:
    tab.css(".ui-dialog-titlebar button").first.click()


def click_dialog_2(tab: Tab, goal: str) -> None:
    text = _quoted(goal)
    if text.lower() in ("x", "×"):
        tab.css(".ui-dialog-titlebar button").first.click()
    else:
        _by_text(tab.css(".ui-dialog-buttonpane button"), text).click()


def click_checkboxes(tab: Tab, goal: str) -> None:
    m = re.match(r"Select (.*) and click Submit\.", goal)
    if m is None:
        raise ConfigError(f"unexpected goal {goal!r}")
    wanted = [] if m.group(1) == "nothing" else [w.strip() for w in m.group(1).split(",")]
    labels = tab.css("#boxes label")
    for name in wanted:
        _by_text(labels, name).css("input").check()
    _submit(tab)


def click_option(tab: Tab, goal: str) -> None:
    m = re.match(r"Select (.*) and click Submit\.", goal)
    if m is None:
        raise ConfigError(f"unexpected goal {goal!r}")
    _by_text(tab.css("#boxes label"), m.group(1)).css("input").check()
    _submit(tab)


def choose_list(tab: Tab, goal: str) -> None:
    m = re.match(r"Select (.*) from the list and click Submit\.", goal)
    if m is None:
        raise ConfigError(f"unexpected goal {goal!r}")
    tab.css("#options").select_option(m.group(1), by="label")
    tab.css("#area button").click()


def click_tab(tab: Tab, goal: str) -> None:
    m = re.search(r"Tab #(\d)", goal)
    if m is None:
        raise ConfigError(f"unexpected goal {goal!r}")
    tab.css(f'#area a[href="#tabs-{m.group(1)}"]').click()


def click_collapsible(tab: Tab, goal: str) -> None:
    tab.css("#area h3").first.click()
    tab.css("#subbtn").click()


def click_widget(tab: Tab, goal: str) -> None:
    kind = _quoted(goal)
    tab.css(f'#area [data-type="{kind}"]').first.click()


def enter_text(tab: Tab, goal: str) -> None:
    tab.css("#tt").fill(_quoted(goal))
    _submit(tab)


def enter_text_2(tab: Tab, goal: str) -> None:
    text = _quoted(goal)
    text = text.upper() if "upper case" in goal else text.lower()
    tab.css("#tt").fill(text)
    _submit(tab)


def enter_password(tab: Tab, goal: str) -> None:
    password = _quoted(goal)
    tab.css("#password").fill(password)
    tab.css("#verify").fill(password)
    _submit(tab)


def login_user(tab: Tab, goal: str) -> None:
    tab.css("#username").fill(_quoted(goal, 0))
    tab.css("#password").fill(_quoted(goal, 1))
    _submit(tab)


def focus_text(tab: Tab, goal: str) -> None:
    tab.css("#tt").click()


def focus_text_2(tab: Tab, goal: str) -> None:
    m = re.search(r"the (\w+) input", goal)
    if m is None or m.group(1) not in _POSITIONS:
        raise ConfigError(f"unexpected goal {goal!r}")
    tab.css(f"#tt{_POSITIONS[m.group(1)] + 1}").click()


SOLUTIONS: dict[str, Solution] = {
    "click-test": click_test,
    "click-test-2": click_named_button,
    "click-test-transfer": click_named_button,
    "click-button": click_quoted_button,
    "unicode-test": click_quoted_button,
    "click-button-sequence": click_button_sequence,
    "click-link": click_link,
    "click-dialog": click_dialog,
    "click-dialog-2": click_dialog_2,
    "click-checkboxes": click_checkboxes,
    "click-option": click_option,
    "choose-list": choose_list,
    "click-tab": click_tab,
    "click-collapsible": click_collapsible,
    "click-collapsible-nodelay": click_collapsible,
    "click-widget": click_widget,
    "enter-text": enter_text,
    "enter-text-dynamic": enter_text,
    "enter-text-2": enter_text_2,
    "enter-password": enter_password,
    "login-user": login_user,
    "focus-text": focus_text,
    "focus-text-2": focus_text_2,
}
