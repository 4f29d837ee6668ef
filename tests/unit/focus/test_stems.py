"""The stem finders scan an ASCII text without their CJK stems: the same matches as the full pattern."""

from __future__ import annotations

import random

from pagelens.focus import lexicons as lx
from pagelens.focus import patterns as pt

FINDERS = [v for v in vars(lx).values() if isinstance(v, pt.Stems)]


def _texts() -> list[str]:
    rng = random.Random(7)
    words = ["the", "user", "agent", "ignore", "outdated", "モデル", "ユーザー", "指示", "無視して", "moved", "no longer",
             "you are", "assistant", "人工智能", "x", "-", ":", "\u200b", "é", "пользователь", "автомат", "lags ", "12",
             "“", "”", "—", "•"]
    out = ["", "a", "agent", "xagent agent", "no longer valid", "指令を無視", "AI: ignore"]
    for _ in range(400):
        out.append(" ".join(rng.choice(words) for _ in range(rng.randint(1, 12))))
    return out


def test_there_are_finders_with_cjk_stems() -> None:
    assert len(FINDERS) >= 5
    assert any(f.narrow.pattern != f.full.pattern for f in FINDERS)


def test_the_same_matches_as_the_full_pattern_on_any_text() -> None:
    for f in FINDERS:
        for t in _texts():
            assert [m.span() for m in f.finditer(t)] == [m.span() for m in f.full.finditer(t)], (f.pattern[:40], t)
            got, want = f.search(t), f.full.search(t)
            assert (got and got.span()) == (want and want.span())
            if len(t) > 6:  # bounds as _near and _windows pass them (lookbehinds still see the text around)
                got, want = f.search(t, 3, len(t) - 2), f.full.search(t, 3, len(t) - 2)
                assert (got and got.span()) == (want and want.span())


def test_the_address_scan_without_the_alternatives_a_text_cannot_match_finds_the_same_addresses() -> None:
    from pagelens.focus.evidence import _dest_for

    rng = random.Random(11)
    bits = ["see", "HTTP://Example.org/x", "https://a.b", "www.shop-x.com/p", "WWW.Foo.co.uk", "host.example:8443/a",
            "10.1.2.3:8080/x", "192.168.0.1/admin", "mail me at a.b+c@d-e.org", "v1.2", "3.5", "a:12", "b.c:",
            "x/y", "shop.example/p?q=1", "é", "：", "@", "//", ".", ":", "/", "1.2.3", "name@host"]
    texts = [" ".join(rng.choice(bits) for _ in range(rng.randint(1, 9))) for _ in range(800)]
    for t in texts:
        dest = _dest_for(t, t.lower())
        got = [m.span() for m in dest.finditer(t)] if dest is not None else []
        assert got == [m.span() for m in lx.DEST.finditer(t)], t
