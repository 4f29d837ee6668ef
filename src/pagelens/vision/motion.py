"""Telling a slide from an effect: is a changed region a translated copy of what was there before?

A carousel, a ticker or a marquee moves content that was already on the screen: after the move,
most of the region's changed pixels are the previous frame's pixels shifted sideways (or up and
down) by one distance, with new content only where it slid in from an edge. What an action
draws (a chart's highlight and tooltip, a canvas repainted, an image swapped, a panel opened)
is not: its new pixels match nothing one shift away. :func:`translation` measures that on two
grayscale frames; :class:`~pagelens.vision.mask.HysteresisWatch` uses it to count a region that
fired as ambient motion (and to learn its cells as volatile) when the action did not touch it.

Pure numpy on the watch's own screenshots (the hash cap, 960×540 by default): a coarse scan of
every shift on a 4× smaller copy, then the best few refined at full size. Sub-pixel positions
(a transition caught mid-way, the cap's resampling) are allowed for: an after pixel is explained
when it lies within the range of the two before pixels around its shifted position (± ``tol``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Shift", "explained_by", "translation"]

#: gray levels (of 255) under which two pixels count as the same
TOL = 24
#: of the region's changed pixels, the share one shift must explain to call the change a move
MIN_EXPLAINED = 0.5
#: fewer changed pixels than this: too little to tell (not called a move)
MIN_CHANGED = 500
_COARSE = 4
_REFINE = 3  # full-size pixels searched around each coarse candidate
_CANDIDATES = 4
_APART = 2  # coarse offsets closer than this to a better one are the same peak
#: sub-pixel positions tried between two whole-pixel shifts (a slide caught mid-way, the cap's resampling)
_FRACTIONS = (0.0, 0.25, 0.5, 0.75)


@dataclass(frozen=True, slots=True)
class Shift:
    axis: Literal["x", "y"]
    offset: int  # pixels: after[p] == before[p + offset] along the axis
    explained: float  # share of the changed pixels the shift explains
    changed: int  # changed pixels in the region


def _as_array(img: Any) -> Any:
    import numpy as np

    arr = np.asarray(img)
    if arr.ndim != 2:
        raise ValueError("translation() needs two grayscale frames (2-D arrays)")
    return arr.astype(np.int16)


_FAR = -10_000  # padding: a pixel off the frame matches nothing


def _pad(img: Any, axis: int, n: int) -> Any:
    import numpy as np

    width = ((0, 0), (n, n)) if axis == 1 else ((n, n), (0, 0))
    return np.pad(img, width, constant_values=_FAR)


def _window(img: Any, box: tuple[int, int, int, int], axis: int, off: int, pad: int) -> Any:
    """``img`` (padded by ``pad`` along ``axis``) over ``box`` moved by ``off`` along ``axis``."""
    x0, y0, x1, y1 = box
    if axis == 1:
        return img[y0:y1, x0 + pad + off:x1 + pad + off]
    return img[y0 + pad + off:y1 + pad + off, x0:x1]


def _score_axis(before: Any, after: Any, box: tuple[int, int, int, int], changed: Any, tol: int,
                axis: int) -> tuple[int, int, float]:
    """(best offset, changed pixels it explains, its sub-pixel fraction) along ``axis`` (1: x, 0: y)
    for the region ``box``: after[p] ~ (1 - t) * before[p + off] + t * before[p + off + 1]."""
    import numpy as np

    x0, y0, x1, y1 = box
    limit = before.shape[1] if axis == 1 else before.shape[0]
    a = after[y0:y1, x0:x1]

    def small(img: Any) -> Any:
        hh, ww = img.shape[0] // _COARSE * _COARSE, img.shape[1] // _COARSE * _COARSE
        return img[:hh, :ww].reshape(hh // _COARSE, _COARSE, ww // _COARSE, _COARSE).mean(axis=(1, 3))

    # coarse: 4x smaller copies, every offset up to the frame's size along the axis
    sb, sa = small(before), small(after)
    cbox = (x0 // _COARSE, y0 // _COARSE, max(x0 // _COARSE + 1, min(sa.shape[1], x1 // _COARSE)),
            max(y0 // _COARSE + 1, min(sa.shape[0], y1 // _COARSE)))
    sreg = sa[cbox[1]:cbox[3], cbox[0]:cbox[2]]
    sch = np.abs(sreg - sb[cbox[1]:cbox[3], cbox[0]:cbox[2]]) > tol / 2
    cpad = limit // _COARSE
    spb = _pad(sb, axis, cpad)
    scores = []
    for off in range(-cpad + 1, cpad):
        if off:
            ref = _window(spb, cbox, axis, off, cpad)
            scores.append((int(np.count_nonzero(sch & (np.abs(sreg - ref) <= tol))), off))
    if not scores:
        return 0, 0, 0.0
    scores.sort(reverse=True)
    picked: list[int] = []  # the best coarse offsets, each a peak of its own (not the next offset of one)
    for _n, coff in scores:
        if all(abs(coff - p) > _APART for p in picked):
            picked.append(coff)
            if len(picked) == _CANDIDATES:
                break
    pad = limit + _COARSE + _REFINE + 2
    pb = _pad(before.astype(np.float32), axis, pad)
    af = a.astype(np.float32)
    best_off, best_n, best_t = 0, 0, 0.0
    tried: set[int] = set()
    for coff in picked:
        for off in range(coff * _COARSE - _REFINE - _COARSE // 2, coff * _COARSE + _REFINE + _COARSE // 2 + 1):
            if off == 0 or off in tried or abs(off) >= limit:
                continue
            tried.add(off)
            s0, s1 = _window(pb, (x0, y0, x1, y1), axis, off, pad), _window(pb, (x0, y0, x1, y1), axis, off + 1, pad)
            ok = changed & (s0 != _FAR) & (s1 != _FAR)
            for t in _FRACTIONS:
                n = int(np.count_nonzero(ok & (np.abs(af - ((1 - t) * s0 + t * s1)) <= tol)))
                if n > best_n:
                    best_off, best_n, best_t = off, n, t
    return best_off, best_n, best_t


def translation(before: Any, after: Any, box: tuple[int, int, int, int], *, tol: int = TOL,
                min_explained: float = MIN_EXPLAINED, min_changed: int = MIN_CHANGED) -> Shift | None:
    """The shift that makes ``after``'s region ``box`` (x0, y0, x1, y1 in pixels) a copy of
    ``before`` moved sideways or up/down, when one explains at least ``min_explained`` of the
    region's changed pixels; ``None`` when no shift does (an effect drawn there, or too few
    changed pixels to tell). The frames: 2-D gray arrays (or PIL "L" images) of one size."""
    import numpy as np

    b, a = _as_array(before), _as_array(after)
    if b.shape != a.shape:
        raise ValueError(f"frames of different sizes: {b.shape} and {a.shape}")
    h, w = b.shape
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    changed = np.abs(a[y0:y1, x0:x1] - b[y0:y1, x0:x1]) > tol
    n = int(np.count_nonzero(changed))
    if n < min_changed:
        return None
    best: Shift | None = None
    for axis, name in ((1, "x"), (0, "y")):
        off, got, frac = _score_axis(b, a, (x0, y0, x1, y1), changed, tol, axis)
        share = got / n
        if not off or share < min_explained or (best is not None and share <= best.explained):
            continue
        # the other way round too: what was there before must be found ``off`` back in the after
        # frame (a slide); a region repainted to look like its neighbour passes one way only
        back = _reverse(b, a, (x0, y0, x1, y1), changed, tol, axis, off, frac)
        if back >= min_explained:
            best = Shift("x" if name == "x" else "y", off, round(min(share, back), 3), n)
    return best


def _reverse(before: Any, after: Any, box: tuple[int, int, int, int], changed: Any, tol: int, axis: int,
             off: int, frac: float) -> float:
    """Share of the changed pixels p (whose source lies inside the frame) with before[p] matching
    after moved back: (1 - t) * after[p - off] + t * after[p - off - 1]."""
    import numpy as np

    x0, y0 = box[0], box[1]
    h, w = before.shape
    ys, xs = np.nonzero(changed)
    ys, xs = ys + y0, xs + x0
    if axis == 1:
        xs2 = xs - off
        ok = (xs2 >= 1) & (xs2 < w)
        a0, a1 = after[ys[ok], xs2[ok]], after[ys[ok], xs2[ok] - 1]
    else:
        ys2 = ys - off
        ok = (ys2 >= 1) & (ys2 < h)
        a0, a1 = after[ys2[ok], xs[ok]], after[ys2[ok] - 1, xs[ok]]
    inside = int(np.count_nonzero(ok))
    if inside < max(1, len(xs) // 4):
        return 0.0  # most of it left the frame: too little to check against
    v = before[ys[ok], xs[ok]].astype(np.float32)
    return float(np.count_nonzero(np.abs(v - ((1 - frac) * a0 + frac * a1)) <= tol)) / inside


def explained_by(before: Any, after: Any, box: tuple[int, int, int, int], shift: Shift, *, tol: int = TOL) -> float:
    """Share of ``box``'s changed pixels that a known ``shift`` (found on a larger region: the
    whole carousel row) explains, whole pixels ±1 and sub-pixel positions tried; 0.0 when none
    changed."""
    import numpy as np

    b, a = _as_array(before), _as_array(after)
    h, w = b.shape
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
    if x1 - x0 < 1 or y1 - y0 < 1:
        return 0.0
    changed = np.abs(a[y0:y1, x0:x1] - b[y0:y1, x0:x1]) > tol
    n = int(np.count_nonzero(changed))
    if not n:
        return 0.0
    axis = 1 if shift.axis == "x" else 0
    pad = (w if axis == 1 else h) + 4
    pb = _pad(b.astype(np.float32), axis, pad)
    af = a[y0:y1, x0:x1].astype(np.float32)
    best = 0
    for off in (shift.offset - 1, shift.offset, shift.offset + 1):
        if abs(off + 1) >= pad:
            continue
        s0, s1 = _window(pb, (x0, y0, x1, y1), axis, off, pad), _window(pb, (x0, y0, x1, y1), axis, off + 1, pad)
        ok = changed & (s0 != _FAR) & (s1 != _FAR)
        for t in _FRACTIONS:
            best = max(best, int(np.count_nonzero(ok & (np.abs(af - ((1 - t) * s0 + t * s1)) <= tol))))
    return best / n
