"""Change that only pixels show: a perceptual hash of the screenshot beside the DOM fingerprint.

The capped screenshot is cut into a grid (16×9 cells by default) and each cell gets an
ImageHash ``phash``. An action changed the screen when cells outside the *volatile mask*
differ by at least ``min_distance`` bits between the screenshots before and after it. A canvas
chart redrawn, an image swapped, a tooltip painted into a canvas: the DOM fingerprint sees
none of these, the cell hashes do.

The mask is what keeps a ticking clock or a rotating carousel from firing: cells that change
while nobody acts are learnt as volatile and ignored for that document. They are learnt when
the watch is armed (two screenshots ``learn_ms`` apart, once per URL) and again before every
action (the screenshot then is compared with the last one taken; nothing acted in between).
Something that changes by itself less often than ``learn_ms`` is learnt only once it has been
seen changing between actions. Masked cells are dilated by one cell: a change right next to a
clock is not seen (the price of no false fires).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

from pagelens.browser.screenshot import ScreenshotConfig

if TYPE_CHECKING:
    from PIL.Image import Image

    from pagelens.actions.ops import Outcome
    from pagelens.browser.page import Tab
    from pagelens.browser.session import Episode

__all__ = ["CellHashes", "PixelConfig", "PixelWatch", "cell_hashes", "changed_cells"]


@dataclass(frozen=True, slots=True)
class PixelConfig:
    cols: int = 16
    rows: int = 9
    min_distance: int = 6  # phash bits (of 64) that make a cell "changed"
    learn_ms: int = 1200  # idle interval used to learn the volatile cells of a new document
    #: volatile cells also mask their neighbours this many cells around: a clock's tens digit
    #: sits next to its seconds digit and first changes long after the learning interval
    dilation: int = 1
    #: a smaller cap than the model's: hashing needs no detail, and it is cheaper
    cap: ScreenshotConfig = field(default_factory=lambda: ScreenshotConfig(max_width=960, max_height=540))


@dataclass(frozen=True, slots=True)
class CellHashes:
    size: tuple[int, int]
    cells: tuple[Any, ...]  # imagehash.ImageHash per cell, row-major
    whole: str  # phash of the whole image (hex)
    #: the grayscale frame the hashes were taken from (a 2-D uint8 array; ``None`` when built
    #: from hashes alone): what :mod:`pagelens.vision.motion` compares pixel by pixel
    gray: Any = field(default=None, compare=False, repr=False)


def cell_hashes(img: Image, cols: int, rows: int) -> CellHashes:
    import imagehash

    gray = img.convert("L")
    w, h = gray.size
    cells = []
    for r in range(rows):
        for c in range(cols):
            box = (c * w // cols, r * h // rows, (c + 1) * w // cols, (r + 1) * h // rows)
            cells.append(imagehash.phash(gray.crop(box)))
    import numpy as np

    return CellHashes((w, h), tuple(cells), str(imagehash.phash(gray)), np.asarray(gray, dtype=np.uint8))


def changed_cells(a: CellHashes, b: CellHashes, min_distance: int, mask: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Indexes of the cells that differ by at least ``min_distance`` bits (outside ``mask``)."""
    if a.size != b.size or len(a.cells) != len(b.cells):
        return tuple(range(len(b.cells)))  # the viewport changed size: everything moved
    return tuple(i for i, (x, y) in enumerate(zip(a.cells, b.cells))
                 if i not in mask and (x - y) >= min_distance)


class PixelWatch:
    """Screenshot hashes around each page action (for :class:`~pagelens.actions.executor.Executor`)."""

    def __init__(self, config: PixelConfig | None = None) -> None:
        self.config = config or PixelConfig()
        self.mask: set[int] = set()
        self._url = ""
        self._last: CellHashes | None = None
        self._before: CellHashes | None = None
        self.learnt_urls: set[str] = set()

    def effective_mask(self) -> frozenset[int]:
        """The volatile cells and their neighbours (``dilation`` cells around)."""
        cols, rows, d = self.config.cols, self.config.rows, self.config.dilation
        out: set[int] = set()
        for i in self.mask:
            r, c = divmod(i, cols)
            for rr in range(max(0, r - d), min(rows, r + d + 1)):
                for cc in range(max(0, c - d), min(cols, c + d + 1)):
                    out.add(rr * cols + cc)
        return frozenset(out)

    def _shot(self, tab: Tab) -> CellHashes:
        img = tab.screenshot(self.config.cap, raw=True)
        return cell_hashes(img, self.config.cols, self.config.rows)  # type: ignore[arg-type]

    def _same_document(self, tab: Tab) -> bool:
        url = urldefrag(tab.url)[0]
        if url != self._url:
            self._url, self._last = url, None
            self.mask.clear()
            return False
        return True

    def _learn(self, now: CellHashes) -> None:
        if self._last is not None:
            self.mask.update(changed_cells(self._last, now, self.config.min_distance))

    def arm(self, target: Episode | Tab) -> None:
        """Take the page as it is now; on a new document, learn its volatile cells first.
        ``target``: an :class:`~pagelens.browser.session.Episode` or its ``tab``."""
        from pagelens.browser.page import Tab

        tab = target if isinstance(target, Tab) else target.tab
        self._same_document(tab)
        if self._url not in self.learnt_urls:
            self._last = self._shot(tab)
            tab.pause(self.config.learn_ms)
            self.learnt_urls.add(self._url)
        now = self._shot(tab)
        self._learn(now)
        self._last = now

    def before(self, tab: Tab) -> None:
        if not self._same_document(tab):
            self._before = self._last = self._shot(tab)
            return
        now = self._shot(tab)
        self._learn(now)  # nothing acted since the last screenshot: what changed is volatile
        self._before = self._last = now

    def after(self, tab: Tab, outcome: Outcome) -> Outcome:
        """``outcome`` with the pixel change (if any) added to its changes and detail."""
        before = self._before
        same = urldefrag(tab.url)[0] == self._url
        now = self._shot(tab)
        self._before, self._last = None, now
        if before is None or not same:
            return outcome
        cells = changed_cells(before, now, self.config.min_distance, self.effective_mask())
        detail = {**outcome.detail, "pixel_cells": len(cells), "phash_before": before.whole, "phash_after": now.whole,
                  "pixel_masked": len(self.effective_mask())}
        changes = outcome.changes
        if cells:
            total = self.config.cols * self.config.rows
            note = f"the screen changed in {len(cells)} of {total} regions (drawn content: canvas, images, charts)"
            changes += (note,)
        return replace(outcome, changes=changes, detail=MappingProxyType(detail))
