"""The element id registry: ids in order of first sight, stable per (process, backend id), never reused."""

from pagelens.browser.ids import IdRegistry


def test_ids_are_stable_per_process_and_never_reused() -> None:
    ids = IdRegistry()
    assert [ids.id_for("main", 7), ids.id_for("main", 9), ids.id_for("w:x", 7), ids.id_for("main", 7)] == ["1", "2", "3", "1"]
    assert ids.id_for("w:x", 7) == "3" and ids.id_for("w:y", 7) == "4"
    assert len(ids) == 4
