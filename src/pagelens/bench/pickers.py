"""Named subject pickers: the part of a task definition that cannot be data.

A task file (:mod:`pagelens.bench.taskfile`) says *what* a task does in words and steps; the
subjects it talks about (the cheapest product of some brand, the thread whose commenter is
unique ...) depend on the seeded site data, so they are chosen by a fixed rule over that data.
Each rule is a picker here, registered under a dotted name and called with the site seed and
the parameters the file gives (validated by :func:`pydantic.validate_call`). A picker returns
flat fields (strings or numbers); a file binds them to a name and uses them as ``{name.field}``
placeholders in its goal, start, plan and check, so every name, price and position matches the
sites started with the same seed.

Fields every file can use without a pick: ``{creds.forum_user}``, ``{creds.forum_password}``,
``{creds.admin_user}``, ``{creds.admin_password}``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from pydantic import validate_call

from pagelens.bench.sites import data
from pagelens.bench.sites.forum import listing_key, thread_order
from pagelens.bench.sites.shop import filter_products

__all__ = ["CREDENTIALS", "PICKERS", "Fields", "Picker", "picker"]

Fields = Mapping[str, str | int]
Picker = Callable[..., Fields]
PICKERS: dict[str, Picker] = {}

CREDENTIALS: Fields = {"forum_user": data.FORUM_USER, "forum_password": data.FORUM_PASSWORD,
                       "admin_user": data.ADMIN_USER, "admin_password": data.ADMIN_PASSWORD}


def picker(name: str) -> Callable[[Picker], Picker]:
    """Register ``fn(seed, **params) -> fields`` under ``name`` (its parameters type-checked)."""

    def register(fn: Picker) -> Picker:
        checked = validate_call(fn)
        PICKERS[name] = checked
        return checked

    return register


class PickError(ValueError):
    """No subject in the seeded data satisfies the rule."""


@lru_cache(maxsize=4)
def _products(seed: int) -> tuple[data.Product, ...]:
    return data.make_products(seed)


@lru_cache(maxsize=4)
def _forum(seed: int) -> tuple[tuple[data.Post, ...], tuple[data.Comment, ...], dict[int, list[dict[str, Any]]]]:
    posts, comments = data.make_forum(seed)
    by_post: dict[int, list[dict[str, Any]]] = {}
    for cm in comments:
        by_post.setdefault(cm.post_id, []).append(
            {"id": cm.id, "parent": cm.parent, "created": cm.created, "author": cm.author, "score": cm.score})
    return posts, comments, by_post


@lru_cache(maxsize=4)
def _records(seed: int) -> tuple[data.Record, ...]:
    return data.make_records(seed)


def _first(items: Any, what: str) -> Any:
    for item in items:
        return item
    raise PickError(f"no {what} in the seeded data")


def _product(p: data.Product) -> dict[str, str | int]:
    return {"id": p.id, "name": p.name, "price": p.price, "brand": p.brand, "category": p.category}


# --- shop -------------------------------------------------------------------------------------
@picker("shop.product")
def shop_product(seed: int, index: int, in_stock: bool = False) -> Fields:
    """The product at ``index`` of the catalog (of its in-stock products with ``in_stock``)."""
    products = [p for p in _products(seed) if p.stock > 0 or not in_stock]
    return _product(products[index])


@picker("shop.cheapest_filtered")
def shop_cheapest_filtered(seed: int, min_rating: int, min_results: int = 2) -> Fields:
    """The first category and brand (catalog order) whose products rated ``min_rating`` and up
    number at least ``min_results`` with the cheapest in stock: that category, brand and product."""
    products = _products(seed)
    cat, brand, hit = _first(
        ((c, b, r) for c in data.CATEGORIES for b in data.BRANDS
         if len(r := filter_products(products, c, (data.slug(b),), min_rating, sort="price_asc")) >= min_results
         and r[0].stock > 0), "filtered product")
    return {**_product(hit[0]), "category": cat, "brand": brand}


def _one_lowest(p: data.Product) -> bool:
    """One rating is strictly below all the others (the lowest-rated review is unambiguous)."""
    ordered = sorted(r.rating for r in p.reviews)
    return ordered[0] < ordered[1]


@picker("shop.lowest_review")
def shop_lowest_review(seed: int, start: int, min_reviews: int = 3) -> Fields:
    """From catalog position ``start`` on, the first product with ``min_reviews`` reviews whose lowest
    rating is unique: the product and that review's ``author``."""
    p = _first((p for p in _products(seed)[start:] if len(p.reviews) >= min_reviews and _one_lowest(p)), "product")
    low = min(p.reviews, key=lambda r: r.rating)
    return {**_product(p), "author": low.author}


@picker("shop.best_rated")
def shop_best_rated(seed: int) -> Fields:
    """The first category whose best-rated product is unique and in stock: that category and product."""
    products = _products(seed)
    cat, best = _first(((c, r[0]) for c in data.CATEGORIES if (r := filter_products(products, c, sort="rating"))
                        and r[0].rating > r[1].rating and r[0].stock > 0), "category")
    return {**_product(best), "category": cat}


@picker("shop.cheapest")
def shop_cheapest(seed: int, category: str, min_price: int = 0) -> Fields:
    """The cheapest product of ``category`` costing at least ``min_price`` dollars."""
    return _product(_first(filter_products(_products(seed), category, lo=min_price, sort="price_asc"), "product"))


@picker("shop.brand_count")
def shop_brand_count(seed: int, skip_categories: int, min_count: int, max_count: int) -> Fields:
    """After the first ``skip_categories`` categories, the first category and brand with between
    ``min_count`` and ``max_count`` products: those and the ``count``."""
    cat, brand, n = _first(((c, b, len(r)) for c in list(data.CATEGORIES)[skip_categories:] for b in data.BRANDS
                            if min_count <= len(r := filter_products(_products(seed), c, (data.slug(b),))) <= max_count),
                           "category and brand")
    return {"category": cat, "brand": brand, "count": n}


@picker("shop.under_price")
def shop_under_price(seed: int, min_gap_cents: int) -> Fields:
    """The first category and brand with 3+ products whose two cheapest are in stock and the third
    costs ``min_gap_cents`` more than the second: a whole-dollar ``limit`` between them, and the
    two products below it (``first_id``, ``second_id``)."""
    for category in data.CATEGORIES:
        for maker in data.BRANDS:
            r = filter_products(_products(seed), category, (data.slug(maker),), sort="price_asc")
            if len(r) >= 3 and r[0].stock and r[1].stock and r[2].price_cents - r[1].price_cents >= min_gap_cents:
                return {"category": category, "brand": maker, "limit": math.floor(r[1].price_cents / 100) + 1,
                        "first_id": r[0].id, "second_id": r[1].id}
    raise PickError("no category and brand with that price gap in the seeded data")


# --- forum ------------------------------------------------------------------------------------
def _post(seed: int, p: data.Post) -> dict[str, str | int]:
    posts, comments, by_post = _forum(seed)
    karma = sum(q.score for q in posts if q.author == p.author) + sum(c.score for c in comments if c.author == p.author)
    return {"id": p.id, "forum": p.forum, "title": p.title, "author": p.author, "author_karma": karma,
            "comments": len(by_post.get(p.id, ()))}


@picker("forum.post")
def forum_post(seed: int, index: int) -> Fields:
    """The post at ``index`` (its ``author_karma``: the author's post and comment scores summed)."""
    return _post(seed, _forum(seed)[0][index])


@picker("forum.ranked")
def forum_ranked(seed: int, sort: str, rank: int = 1, forum: str | None = None) -> Fields:
    """The post at ``rank`` (1 = first) of the listing sorted by ``sort`` (top, new, hot, comments),
    of one ``forum`` or of the front page."""
    posts, _, by_post = _forum(seed)
    views = [{"id": p.id, "points": p.score, "created": p.created, "n_comments": len(by_post.get(p.id, ()))}
             for p in posts if forum is None or p.forum == forum]
    ranked = sorted(views, key=listing_key(sort))
    if not 1 <= rank <= len(ranked):
        raise PickError(f"rank {rank} of {len(ranked)} posts")
    return _post(seed, next(p for p in posts if p.id == ranked[rank - 1]["id"]))


def _lone_authors(thread: list[dict[str, Any]]) -> set[str]:
    counts = Counter(str(c["author"]) for c in thread)
    return {a for a, n in counts.items() if n == 1}


@picker("forum.lone_comment")
def forum_lone_comment(seed: int, start: int, min_comments: int, top_level: bool = False) -> Fields:
    """From post ``start`` on, the first thread with ``min_comments`` comments holding a comment
    whose author wrote no other comment there (a top-level one with ``top_level``; else any but the
    first): the post (``post_id``, ``post_title``), the comment (``id``, ``author``) and its
    ``vote_nth``, the index of its vote buttons on the thread page (the post's own come first)."""
    posts, _, by_post = _forum(seed)
    for p in posts[start:]:
        thread = by_post.get(p.id, [])
        if len(thread) < min_comments:
            continue
        lone = _lone_authors(thread)
        for i, (cm, depth) in enumerate(thread_order(thread)):
            if str(cm["author"]) in lone and ((depth == 0) if top_level else i > 0):
                return {"post_id": p.id, "post_title": p.title, "id": cm["id"], "author": cm["author"],
                        "vote_nth": i + 1}
    raise PickError("no thread with a lone commenter in the seeded data")


# --- admin ------------------------------------------------------------------------------------
def _record(r: data.Record) -> dict[str, str | int]:
    return {"id": r.id, "name": r.name, "department": r.department, "office": r.office,
            "start_date": r.start_date.isoformat(), "salary": r.salary,
            "other_department": next(d for d in data.DEPARTMENTS if d != r.department),
            "other_office": next(o for o in data.OFFICES if o != r.office)}


@picker("admin.record")
def admin_record(seed: int, index: int, remote: bool | None = None) -> Fields:
    """The record at ``index`` (with ``remote``: the first from there on with that flag);
    ``other_department`` / ``other_office``: the first of the lists that is not its own."""
    return _record(_first((r for r in _records(seed)[index:] if remote is None or r.remote == remote), "record"))


@picker("admin.top_salary")
def admin_top_salary(seed: int) -> Fields:
    """The first department whose highest salary is unique: that department and its earner."""
    records = _records(seed)
    dept, rich = _first(((d, top[0]) for d in data.DEPARTMENTS
                         if len(top := sorted((x for x in records if x.department == d), key=lambda x: -x.salary)) > 1
                         and top[0].salary > top[1].salary), "department")
    return {**_record(rich), "department": dept}


@picker("admin.count")
def admin_count(seed: int, department_index: int, status: str) -> Fields:
    """The department at ``department_index`` and how many of its records have ``status``."""
    dept = data.DEPARTMENTS[department_index]
    return {"department": dept, "count": sum(1 for x in _records(seed) if x.department == dept and x.status == status)}


@picker("admin.earliest_start")
def admin_earliest_start(seed: int) -> Fields:
    """The record with the earliest start date (which must be unique)."""
    records = _records(seed)
    first = min(records, key=lambda x: (x.start_date, x.id))
    if sum(1 for x in records if x.start_date == first.start_date) != 1:
        raise PickError("the earliest start date is not unique")
    return _record(first)
