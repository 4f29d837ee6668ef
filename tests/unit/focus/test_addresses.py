"""The words a link's own address carries (:mod:`pagelens.focus.addresses`, h22-url)."""

from __future__ import annotations

from pagelens.focus.addresses import address_units, address_words, insert_after, order_with_addresses
from pagelens.focus.analysis import analysis_of
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesConfig
from pagelens.focus.terms import query_terms


def test_an_address_splits_into_stemmed_words_of_its_path_query_and_fragment() -> None:
    words = address_words("https://shop.example.org/account/emailPreferences?sortOrder=price#shipping-rates")
    assert {"account", "email", "prefer", "sort", "order", "price", "ship", "rate"} <= words
    assert not words & {"shop", "exampl", "org", "https"}  # the host and scheme are dropped
    assert address_words("/docs/%C3%BCbersicht/install_guide_2.html") >= {"übersicht", "instal", "guid"}
    assert not address_words("/p/12345/ab") and not address_words("javascript:void(0)")


def _page() -> list[str]:
    lines = ["RootWebArea 'Shop'", "\t[1] main ''"]
    for i in range(8):
        lines.append(f"\t\t[{10 + i}] listitem ''")
        lines.append(f"\t\t\t[{30 + i}] link 'Item {i}', url='https://a.example/shop/item/{i}/view'")
    lines += ["\t\t[2] listitem ''", "\t\t\t[3] link '\u2699', url='https://a.example/shop/account/notifications'"]
    lines += ["\t\t[4] listitem ''", "\t\t\t[5] link 'Notifications help', url='https://a.example/shop/help/notifications'"]
    return lines


def _pa():  # type: ignore[no-untyped-def]
    from pagelens.observe.textparse import rendering_from_text

    cfg = RulesConfig()
    return analysis_of(rendering_from_text("\n".join(_page())), cfg.limits, cfg.unit_text_chars, cache=False)


def test_only_units_whose_visible_text_lacks_the_address_word_are_named() -> None:
    pa = _pa()
    weights, _ = query_terms(FocusQuery("change how I get notified about notifications of my shop"))
    named = [pa.page.lines[pa.units.heads[k]] for k, _ in address_units(pa, weights, max_share=0.1)]
    # the icon link carries "notifications" only in its address; the help link says it, so is not named;
    # "shop" is in every address: not distinctive at a 10% share
    shown = " | ".join(pa.page.lines[i].name for ln in named for i in (ln.no, ln.no + 1))
    assert "\u2699" in shown
    assert "Notifications help" not in shown
    only_shop, _ = query_terms(FocusQuery("open the shop"))
    assert address_units(pa, only_shop, max_share=0.1) == []
    assert address_units(pa, only_shop, max_share=1.0) != []  # without the gate every link would be named


def test_the_named_units_move_after_the_orders_first_units() -> None:
    assert insert_after([1, 2, 3, 4, 5], [5, 1, 9], 2) == [1, 2, 5, 9, 3, 4]
    pa = _pa()
    order = list(range(len(pa.units.heads)))
    q = FocusQuery("notifications settings")
    moved = order_with_addresses(pa, q, order, units=1, after=0, max_share=0.1)
    assert "\u2699" in "".join(pa.page.lines[i].name for i in pa.units.members[moved[0]])
    assert order_with_addresses(pa, FocusQuery("zzz qqq"), order, 3, 0, 0.1) == order


def test_the_shipped_setting() -> None:
    cfg = RulesConfig()
    assert (cfg.url_units, cfg.url_after, cfg.url_df_share) == (3, 20, 0.05)  # the twenty-sixth pass


def test_default_keeps_an_icon_link_whose_address_names_the_goal_only_with_the_step() -> None:
    import dataclasses

    from pagelens.focus.apply import focus
    from pagelens.observe.textparse import rendering_from_text

    page = ["RootWebArea 'Board'", "\t[1] main ''"]
    for i in range(60):
        page += [f"\t\t[{100 + i}] listitem ''",
                 (f"\t\t\t[{300 + i}] link 'Thread number {i} about the weekly board meeting and its minutes',"
                  f" url='https://b.example/board/thread/{i}'")]
        if i == 40:  # a link whose goal words are only in its address
            page += ["\t\t[2] listitem ''",
                     ("\t\t\t[3] link '\u2709 Member area of the weekly board, your page and what you receive',"
                      " url='https://b.example/board/user/mailSubscriptions'")]
    r = rendering_from_text("\n".join(page))
    cfg = RulesConfig(floor_tokens=200, budget=0.05, certain_by="", small_page_tokens=0, unfit_after=0.0, skeleton_share=0.0, nearby_best=0, gap_tokens=0)

    def view(units: int) -> str:
        res = focus(r, FocusQuery("manage my mail subscriptions"), _retriever(dataclasses.replace(cfg, url_units=units,
                                                                                                  url_after=0)),
                    defense=False)
        assert res.error is None
        return res.text()

    assert "\u2709" not in view(0)
    assert "\u2709" in view(3)


def _retriever(cfg: RulesConfig):  # type: ignore[no-untyped-def]
    from pagelens.focus.rules import RulesRetriever

    return RulesRetriever(cfg)
