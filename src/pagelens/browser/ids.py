"""Element ids that stay stable across re-observations.

Chromium's ``backendDOMNodeId`` identifies a DOM node for as long as it lives in its
renderer. We map (frame process, backend id) to short ids handed out in order of first
sight, and never reuse an id within an episode: an element keeps its id while it exists,
an unrelated DOM change cannot renumber the rest, and an id from an old page can never
silently point at a different element of a new one.
"""

from __future__ import annotations

from pagelens.types import ElementId


class IdRegistry:
    __slots__ = ("_ids", "_next")

    def __init__(self) -> None:
        self._ids: dict[tuple[str, int], ElementId] = {}
        self._next = 1

    def id_for(self, process: str, backend_id: int) -> ElementId:
        key = (process, backend_id)
        eid = self._ids.get(key)
        if eid is None:
            eid = ElementId(str(self._next))
            self._next += 1
            self._ids[key] = eid
        return eid

    def __len__(self) -> int:
        return len(self._ids)
