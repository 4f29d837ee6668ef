"""The watchdogs' one timer thread: a watchdog fires when its block outlives it, never after the
block is left, and an earlier deadline armed while the thread sleeps towards a later one still fires."""

from __future__ import annotations

import threading

from pagelens.browser.watchdog import Watchdog, watchdog


def test_a_watchdog_fires_when_its_block_outlives_it() -> None:
    ran = threading.Event()
    with watchdog(0.05, ran.set) as dog:
        assert ran.wait(10)
    assert dog.fired


def test_a_watchdog_left_in_time_never_fires() -> None:
    ran = threading.Event()
    with watchdog(0.2, ran.set) as dog:
        pass
    assert not ran.wait(0.6)
    assert not dog.fired


def test_an_earlier_deadline_armed_after_a_later_one_still_fires() -> None:
    late, early = threading.Event(), threading.Event()
    with Watchdog(3600, late.set), watchdog(0.05, early.set) as dog:
        assert early.wait(10)
    assert dog.fired and not late.is_set()


def test_a_left_watchdog_does_not_keep_its_action() -> None:
    class Owner:
        def act(self) -> None:
            pass

    import weakref

    owner = Owner()
    ref = weakref.ref(owner)
    with Watchdog(3600, owner.act):
        pass
    del owner
    assert ref() is None

