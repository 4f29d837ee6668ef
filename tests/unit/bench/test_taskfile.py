"""Task files (pagelens.bench.taskfile): the bundled catalog is data, a user's file loads the same
way, and every bad file is refused with an error naming the file, the task and the field."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pagelens.bench.pickers import PICKERS
from pagelens.bench.sites import data
from pagelens.bench.task_defs import load_tasks
from pagelens.bench.taskfile import TaskFileError, bundled_paths, load_task_file
from pagelens.bench.tasks import CHECK_PARAMS, CHECKERS, check_task
from pagelens.errors import ConfigError

GOOD = '''
[[task]]
id = "my-price"
start = "site:shop/?__state=consent:yes"
goal = "What does the {p.name} cost?"
kind = "read"
answer = "{p.price}"
tags = ["mine"]
pick.p = { use = "shop.product", index = 3 }
plan = [
  { action = "fill", role = "searchbox", name = "Search products", text = "{p.name}" },
  { action = "press", role = "searchbox", name = "Search products", key = "Enter" },
  { action = "click", role = "link", name = "{p.name}" },
  { action = "stop", answer = "{p.price}" },
]
check = { kind = "answer_matches" }

[[task]]
id = "my-page"
start = "http://127.0.0.1:9/"
goal = "Say hello {{literally}}."

[[variant]]
task = "my-price"
injection = "popup"
'''


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_files_are_the_catalog() -> None:
    paths = bundled_paths()
    assert [p.name for p in paths] == ["shop.toml", "forum.toml", "admin.toml"]
    n_tasks = sum(len(tomllib.loads(p.read_text(encoding="utf-8")).get("task", [])) for p in paths)
    tasks = load_tasks(0)
    assert n_tasks == len([t for t in tasks if t.injection is None])
    assert all(t.tags for t in tasks), "every bundled task carries tags"
    # every check kind a file may name has a parameter schema, every picker is used by some task
    assert set(CHECK_PARAMS) == set(CHECKERS)
    used = {pick["use"] for p in paths for t in tomllib.loads(p.read_text()).get("task", [])
            for pick in t.get("pick", {}).values()}
    assert used == set(PICKERS)


def test_seeded_subjects_follow_the_seed() -> None:
    a = {t.id: t for t in load_tasks(0)}["shop-search-qty"]
    b = {t.id: t for t in load_tasks(1)}["shop-search-qty"]
    assert a.goal != b.goal and a.expected("cart") != b.expected("cart")
    product = [p for p in data.make_products(1) if p.stock > 0][17]
    assert b.goal == f"Add 3 units of the {product.name} to the cart." and b.expected("cart") == f"{product.id}x3"
    texts = [t.goal + t.start + "".join(str(s) for s in t.plan) + "".join(v for _, v in t.expect) for t in load_tasks(0)]
    assert not [t for t in texts if "{" in t or "}" in t]


def test_a_users_file_loads(tmp_path: Path) -> None:
    tasks = load_task_file(_write(tmp_path, GOOD))
    assert [t.id for t in tasks] == ["my-price", "my-page", "my-price+popup"]
    price, page, popup = tasks
    product = data.make_products(0)[3]
    assert price.site == "shop" and price.goal == f"What does the {product.name} cost?"
    assert price.answer == product.price and price.plan[-1].value == product.price
    assert price.tags == ("mine",)
    assert check_task(price, {}, product.price).ok and not check_task(price, {}, "$0.01").ok
    assert page.site == "" and page.check == "" and page.goal == "Say hello {literally}." and page.plan == ()
    assert popup.plan[0].target is not None and popup.plan[0].target.name == "Close"


@pytest.mark.parametrize(("text", "where"), [
    ("[[task]\nid = 1", "not valid TOML"),
    ("# nothing yet\n", "no [[task]] in the file"),
    (GOOD.replace("[[task]]", "[[tasks]]", 1), "tasks: unknown field"),
    (GOOD.replace('goal = "What', 'gaol = "What'), "task 'my-price' (task[0]): gaol: unknown field"),
    (GOOD.replace('goal = "Say hello {{literally}}."', ''), "task 'my-page' (task[1]): goal: Field required"),
    (GOOD.replace('id = "my-page"', 'id = "My Page"'), "task 'My Page' (task[1]): id: String should match pattern"),
    (GOOD.replace('kind = "read"', 'kind = "look"'), "task 'my-price' (task[0]): kind: Input should be"),
    (GOOD.replace('"answer_matches"', '"price_ok"'), "task 'my-price' (task[0]): check.kind: unknown check 'price_ok'"),
    (GOOD.replace('{ kind = "answer_matches" }', '{ kind = "cart_equals" }'), "check.cart: cart_equals: Field required"),
    (GOOD.replace('{ kind = "answer_matches" }', '{ kind = "visited", path = "/", colour = "red" }'),
     "check.colour: visited: unknown field"),
    (GOOD.replace('text = "{p.name}"', 'text = "{p.nmae}"'), "plan[0].text: unknown placeholder {p.nmae}"),
    (GOOD.replace('"shop.product"', '"shop.products"'), "pick.p.use: unknown picker 'shop.products'"),
    (GOOD.replace("index = 3", "index = 3, colour = 1"), "pick.p: shop.product: colour: Unexpected keyword argument"),
    (GOOD.replace("index = 3", "index = 9999"), "pick.p: shop.product: list index out of range"),
    (GOOD.replace('key = "Enter"', 'keys = "Enter"'), "plan[1]: plan step press"),
    (GOOD.replace('action = "fill"', 'action = "type"'), "plan[0]: unknown plan action 'type'"),
    (GOOD.replace('role = "link", ', ''), "plan[2]: a target needs both role and name"),
    (GOOD.replace('answer = "{p.price}"\n', '', 1), "answer: a read task needs the expected answer"),
    (GOOD.replace('task = "my-price"', 'task = "my-prize"'), "variant[0].task: no task 'my-prize'"),
    (GOOD.replace('injection = "popup"', 'injection = "virus"'), "variant[0].injection: Input should be 'banner'"),
    (GOOD.replace('id = "my-page"', 'id = "my-price"'), "duplicate task id 'my-price'"),
    (GOOD.replace('start = "http://127.0.0.1:9/"', 'start = "ftp://x/"'), "task[1]): start: 'ftp://x/' is neither"),
    (GOOD.replace('start = "site:shop/?__state=consent:yes"', 'start = "site:shop/?__inject=virus"'),
     "start: 'site:shop/?__inject=virus': unknown injection"),
    (GOOD.replace('goal = "Say hello {{literally}}."', 'goal = "x"\ncheck = { kind = "cart_equals", cart = "p001x1" }'),
     "check.kind: cart_equals reads the bundled sites' state"),
])
def test_bad_files_name_the_file_and_field(tmp_path: Path, text: str, where: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(TaskFileError) as info:
        load_task_file(path)
    message = str(info.value)
    assert message.startswith(str(path)) or "duplicate" in message
    assert where in message, message
    assert isinstance(info.value, ConfigError)  # the CLI prints it as one line, exit code 2


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="cannot read"):
        load_task_file(tmp_path / "nope.toml")
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(TaskFileError, match="not UTF-8"):
        load_task_file(bad)


def test_the_readme_task_file_example_loads(tmp_path: Path) -> None:
    import re

    readme = Path(__file__).resolve().parents[3] / "README.md"
    blocks = re.findall(r"^```toml\n(.*?)^```", readme.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)
    assert blocks
    for block in blocks:
        tasks = load_task_file(_write(tmp_path, block))
        assert tasks and all(t.goal for t in tasks)


def test_binding_on_the_running_sites_and_without_them(tmp_path: Path) -> None:
    """Origins name sites or origins; a URL task binds without sites and, with no check, has no judge."""
    from pagelens.bench.bind import bind_task
    from pagelens.bench.sites import start_sites

    text = GOOD.replace('tags = ["mine"]', 'tags = ["mine"]\norigins = ["shop", "http://127.0.0.1:9"]')
    price, page, popup = load_task_file(_write(tmp_path, text))
    assert popup.tags == ("mine", "injection")
    with start_sites(0) as sites:
        bound = bind_task(price, sites)
        assert bound.allowed_origins == (sites.base_url("shop"), "http://127.0.0.1:9")
        assert bound.start_url.startswith(sites.base_url("shop"))
        default = bind_task({t.id: t for t in load_tasks(0)}["forum-upvote"], sites)
        assert default.allowed_origins == tuple(sites.base_url(n) for n in ("shop", "forum", "admin"))
        assert default.judge is not None and not default.judge("done").success  # no vote cast yet
    with pytest.raises(ValueError, match="bundled sites"):
        bind_task(price, None)
    free = bind_task(page, None)
    assert free.start_url == "http://127.0.0.1:9/" and free.judge is None and free.setup is None
