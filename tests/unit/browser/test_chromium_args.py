"""Chromium's launch flags: repeated feature switches are merged, not overridden."""

from __future__ import annotations

from pagelens.browser.chromium import JIT_ARGS, OFFLINE_ARGS, launch_args


def _features(args: list[str], key: str = "--disable-features") -> list[str]:
    found = [a for a in args if a.startswith(key + "=")]
    assert len(found) <= 1, found  # Chromium reads only the last of repeated switches
    return found[0].split("=", 1)[1].split(",") if found else []


def test_a_callers_disabled_features_add_to_the_offline_ones() -> None:
    args = launch_args(OFFLINE_ARGS, ("--mute-audio", "--disable-features=OverlayScrollbars,Translate"))
    disabled = _features(args)
    assert "OverlayScrollbars" in disabled and "WebUIOmniboxPopup" in disabled and "Translate" in disabled
    assert disabled.count("Translate") == 1
    assert args.index("--no-sandbox") == 0 and args[-1] == "--mute-audio"  # other flags keep their order


def test_enabled_and_disabled_features_are_merged_separately() -> None:
    args = launch_args(["--enable-features=A", "--x=1"], ["--enable-features=B,A", "--disable-features=C"])
    assert args == ["--enable-features=A,B", "--x=1", "--disable-features=C"]


def test_flags_without_features_pass_through() -> None:
    assert launch_args(("--a", "--b=c"), ()) == ["--a", "--b=c"]


def test_a_callers_js_flags_come_after_the_launchs_own_in_one_switch() -> None:
    args = launch_args(OFFLINE_ARGS, JIT_ARGS, ("--js-flags=--max-lazy --invocation-count-for-maglev=400", "--x"))
    js = [a for a in args if a.startswith("--js-flags=")]
    assert len(js) == 1, js  # Chromium would read only the last of two
    flags = js[0].split("=", 1)[1].split(" ")
    # V8 reads its flags left to right: the caller's value of a flag set by JIT_ARGS wins
    assert flags == ["--invocation-count-for-maglev=3000", "--max-lazy", "--invocation-count-for-maglev=400"]
    assert args[-1] == "--x"


def test_the_launch_delays_maglev_and_nothing_else_in_v8() -> None:
    args = launch_args(OFFLINE_ARGS, JIT_ARGS, ())
    assert [a for a in args if a.startswith("--js-flags")] == ["--js-flags=--invocation-count-for-maglev=3000"]
