"""Pip candidates: small round spots darker or brighter than the face around them.

A pip stands out from its face in at least one of B, G and R: black on ivory, white on red,
red on blue, yellow on green.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.dice import filters, kernels
from companion.dice.profile import PipParams

_ANGLES = np.linspace(0, 2 * math.pi, 12, endpoint=False)
RING_X, RING_Y = np.cos(_ANGLES), np.sin(_ANGLES)
LUMA = np.array([0.114, 0.587, 0.299])
_TIGHT_RING = (1.25, 1.0)  # (times a pip's radius, plus pixels)
_TIGHT_MIN_RADIUS = 1.8  # px
_BLURRED_RIM = 1.0  # px a pip's colour reaches past its radius, into its face
_SIBLING_COLOUR = 60.0  # farthest apart the colours of two pips of one face look
SHADE = 1.8  # brightest/dimmest one die's face looks (uneven light, marbling)
_AROUND_Y, _AROUND_X = (a.ravel() for a in np.mgrid[-1:2, -1:2])  # 3x3, row by row


def within(a: np.ndarray, lo, hi) -> np.ndarray:
    """np.clip without its per-call overhead (it is called on small arrays, often)."""
    return np.minimum(np.maximum(a, lo), hi)


def dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.sum(a * b, axis=-1) of colours (..., 3): the products added in the order numpy
    adds them, without its overhead and its slow reduction of short rows."""
    ab = a * b
    return ab[..., 0] + ab[..., 1] + ab[..., 2]


def norms(a: np.ndarray) -> np.ndarray:
    """np.linalg.norm(a, axis=-1) of colours (..., 3), as the root of `dots`."""
    return np.sqrt(dots(a, a))


def ptp(a: np.ndarray) -> np.ndarray:
    """np.ptp(a, axis=-1), which is max - min, without its per-call overhead; of colours
    (..., 3) channel by channel, quicker than numpy's reduction of short rows."""
    if a.shape[-1] != 3:
        return a.max(axis=-1) - a.min(axis=-1)
    b, g, r = a[..., 0], a[..., 1], a[..., 2]
    return np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)


def shade_distance(a: np.ndarray, b: np.ndarray, darker: float = 1 / SHADE) -> np.ndarray:
    """Colour distance that forgives shade: a die's face is lit unevenly, and a marbled die
    is lighter in places, in one hue. `a` may be up to `SHADE` times brighter than `b`, or
    down to `darker` times as bright; the distance is measured at the brighter's scale."""
    s = dots(a, b) / np.maximum(dots(b, b), 1.0)
    s = within(s, darker, SHADE)
    return np.linalg.norm(a - s[..., None] * b, axis=-1) * np.maximum(1.0, 1 / s)


def pixels(bgr: np.ndarray, x: np.ndarray, y: np.ndarray, inside: bool = False) -> np.ndarray:
    """bgr[y, x] for whole-pixel places: taken from the frame seen as one row of pixels,
    several times quicker than indexing it by two arrays (as a place off the frame still is:
    it wraps round or fails in its own axis, not in the next row). `inside`: the caller kept
    the places on the frame, and checking them again would take longer than the taking."""
    h, w = bgr.shape[:2]
    if not inside:
        inside = x.min(initial=0) >= 0 and y.min(initial=0) >= 0
        inside = inside and x.max(initial=0) < w and y.max(initial=0) < h
    if not (inside and bgr.flags.c_contiguous):
        return bgr[y, x]
    return np.take(bgr.reshape(-1, 3), y * w + x, axis=0)


@dataclass(frozen=True)
class Pips:
    """Candidates as parallel arrays (one row per pip)."""

    xy: np.ndarray  # (n, 2) centre: the middle of the pip's outline where it closed all round
    r: np.ndarray  # radius (half-height of its response)
    polarity: np.ndarray  # -1 dark pip on a lighter face, +1 bright pip on a darker face
    contrast: np.ndarray  # |pip - face| colour distance
    elongation: np.ndarray  # long/short axis of the pip
    face_bgr: np.ndarray  # (n, 3) colour of the face around the pip
    pip_bgr: np.ndarray  # (n, 3) colour of the pip
    # Its ring only partly has the face's colour (a pip by a die's rim, on a marbled die):
    # it may complete a face, never start one.
    weak: np.ndarray

    def __len__(self) -> int:
        return len(self.r)


def _none() -> Pips:
    empty = np.zeros((0,))
    flat = np.zeros((0, 2))
    return Pips(
        flat, empty, empty, empty, empty, np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, bool)
    )


_SCRATCH = threading.local()


def _scratch(name: str, shape: tuple[int, ...]) -> np.ndarray:
    """A frame-sized uint8 work array, kept by each thread from one frame to the next: a
    new array of that size is fresh memory from the system, and its page faults cost more
    than the work done in it."""
    arrays = _SCRATCH.__dict__.setdefault("arrays", {})
    array = arrays.get(name)
    if array is None or array.shape != shape:
        array = arrays[name] = np.empty(shape, np.uint8)
    return array


def _responses(bgr: np.ndarray, kernel: int) -> np.ndarray:
    """Black and white top-hats of B, G and R, each channel on its own: a pip stands out in
    at least one channel (white on red in B and G, red on blue in R, black on ivory in all
    three), and a channel where the whole die stands out from the tray must not hide it.
    Both in one (2H + 2) x W x 3 image, so the peak search runs once: the black-hat in rows
    0..H-1, the top-hat in rows H+2.., two rows of zeros between (no peak there, and they
    leave the 5 x 5 maxima on either side as they are at the frame's own edge). Smoothing
    before the top-hat (once, on the frame) steadies each pip's peak. As OpenCV's
    GaussianBlur (5 x 5, sigma 1) and morphologyEx with a square would give them."""
    h, w = bgr.shape[:2]
    both = _scratch("responses", (2 * h + 2, w, 3))
    smooth = _scratch("smooth", bgr.shape)
    filters.responses(bgr, kernel, smooth, both)
    return both


DIRS = np.array([(math.cos(a), math.sin(a)) for a in np.arange(8) * math.pi / 4])


def ring_colours(
    bgr: np.ndarray, xy: np.ndarray, r: np.ndarray, p: PipParams, scale=None
) -> np.ndarray:
    """Colours of a ring of samples just outside each pip: (n, 12, 3). `scale` is (times
    the radius, plus pixels); the profile's ring by default."""
    h, w = bgr.shape[:2]
    times, plus = scale or (p.ring_scale, 1.5)
    radius = (times * r + plus)[:, None]
    # x and y each on its own: numpy is slow over a last axis of two.
    px = within(np.rint(xy[:, :1] + radius * RING_X).astype(int), 0, w - 1)
    py = within(np.rint(xy[:, 1:] + radius * RING_Y).astype(int), 0, h - 1)
    return pixels(bgr, px, py, inside=True).astype(np.float32)


def _ring_agreement(bgr, xy, r, pip_bgr, scale):
    """On a ring of 12 samples just outside each pip (as `ring_colours` takes them): the
    face's colour (the ring's median), the pip's contrast with it, and the share of the ring
    that has the face's colour."""
    times, plus = scale
    radius = times * r + plus  # in r's own type, as ring_colours has it
    return kernels.ring_agreement(bgr, xy, radius, RING_X, RING_Y, pip_bgr)


def _crowded(xy, r, pip_bgr, face_bgr, which: np.ndarray, p: PipParams) -> np.ndarray:
    """Indices of the spots `which` (a mask) that have another spot of their colour and
    size where their ring would cross it, or the blur around it: a pip's colour fades into
    its face over a pixel or so past the radius measured (halfway between the two)."""
    if not which.any():
        return np.zeros(0, np.intp)
    reach = (p.ring_scale + 1) * r + 1.5 + _BLURRED_RIM
    a, b = _close_pairs(xy, reach, which)
    gap = _gaps(xy, a, b)
    near = (gap < reach[a]) & (gap > 0) & (np.abs(r[a] - r[b]) < 0.5 * r[a])
    ia, ib = a[near], b[near]
    # Rows picked by take(axis=0): numpy's fancy indexing of rows is several times slower.
    pip_a = pip_bgr.take(ia, axis=0)
    alike = norms(pip_a - pip_bgr.take(ib, axis=0)) < 0.5 * norms(pip_a - face_bgr.take(ia, axis=0))
    crowded = np.zeros(len(xy), bool)
    crowded[ia[alike]] = True
    return np.flatnonzero(crowded)


@lru_cache(maxsize=8)
def outline_steps(max_radius: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Half-pixel steps out to past `max_radius` and their (dx, dy) along each of the 8 rays,
    ray by ray: (steps,), (8, steps), (8, steps)."""
    steps = np.arange(0.5, max_radius + 1.5, 0.5, dtype=np.float32)
    return steps, steps * DIRS[:, :1], steps * DIRS[:, 1:]


def _colour_extent(bgr, xy, r0, pip_bgr, face_bgr, p: PipParams):
    """Radius, outline (8 points around its middle, for `_elongation`) and shift to the
    outline's middle of each pip: along 8 rays, where colour turns nearer the face's than
    the pip's (ignoring a glint near the centre)."""
    steps, off_x, off_y = outline_steps(p.max_radius)
    # Bilinear samples along the rays, taken as cv2.remap takes them with maps in fixed point
    # (as OpenCV 4 turns float maps for itself: OpenCV 5 samples float maps more finely, and
    # the reader must read the same on every build), each only as far as its ray reaches.
    return kernels.colour_extent(bgr, xy, off_x, off_y, steps, r0, pip_bgr, face_bgr, DIRS, LUMA)


def _elongation(outline: np.ndarray) -> np.ndarray:
    """Long over short axis of outlines (n, 8, 2) of points around their middles, by their
    covariance. Only the pips kept need it, and each is worked out on its own (einsum
    adds each one's products in turn, LAPACK solves each matrix alone), the same in any
    batch."""
    cov = np.einsum("nki,nkj->nij", outline, outline) / 8
    eig = np.linalg.eigvalsh(cov)
    return np.sqrt(eig[:, 1] / np.maximum(eig[:, 0], 1e-3))


def _close_pairs(
    xy: np.ndarray, reach, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """All ordered pairs (i, j), i == j included, whose x differ by at most `reach` (a number,
    or one for each i); only those with i in `rows` (a mask) if given."""
    by_x = np.argsort(xy[:, 0], kind="stable")
    xs = xy[by_x, 0]
    mine = np.arange(len(xy)) if rows is None else np.flatnonzero(rows[by_x])
    if np.ndim(reach):
        reach = reach[by_x[mine]]
    lo = np.searchsorted(xs, xs[mine] - reach, "left")
    counts = np.searchsorted(xs, xs[mine] + reach, "right") - lo
    first = np.repeat(mine, counts)
    second = np.arange(int(counts.sum())) + np.repeat(lo - (np.cumsum(counts) - counts), counts)
    return by_x[first], by_x[second]


def _gaps(xy: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances between the points a and b of `xy`: by coordinate, whose 1-D fancy indexing
    is quicker than picking rows of xy."""
    x, y = xy[:, 0], xy[:, 1]
    return np.hypot(x[a] - x[b], y[a] - y[b])


def _corners(a, b, face_bgr, pip_bgr, contrast) -> np.ndarray:
    """For pairs of spots of the other polarity, each `a` big enough to suppress its
    smaller neighbour `b`: is `a` the shaded corner of a small die standing out from the
    tray, and `b` the pip on it? So if `a` has the colour of `b`'s face, or a shade of it
    darker (the corner is in shade); a pip lighter than the face around the other spot (a
    white pip beside a black die's corner, on a grey tray) is no corner."""
    corner = shade_distance(face_bgr.take(b, axis=0), pip_bgr.take(a, axis=0), darker=1.0)
    return corner < 0.25 * contrast[a]


def _with_siblings(which, glint, xy, r, polarity, pip_bgr) -> np.ndarray:
    """Those spots `which` that have a spot like them nearby, of their size, polarity and
    colour, and on no dark spot (not `glint`): pips of one face (a 2's other pip is enough),
    on a small dark die's face, not a glint on a pip."""
    if not len(which):
        return which
    gap = np.hypot(*(xy[which, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    alike = (
        (gap > 0)
        & (gap < 10 * r[which, None])
        & (np.abs(r[None, :] - r[which, None]) < 0.3 * r[which, None])
        & (polarity[None, :] == polarity[which, None])
        & (norms(pip_bgr[None, :] - pip_bgr[which, None]) < _SIBLING_COLOUR)
        & ~glint[None, :]
    )
    return which[alike.any(axis=1)]


def find(bgr: np.ndarray, p: PipParams) -> Pips:
    """Pips are peaks of the top-hat response; each one's size comes from where the response
    falls to half its height, so a pip inside a die that itself stands out still has its own
    size."""
    h, w = bgr.shape[:2]
    response = _responses(bgr, p.kernel)
    # A peak is the largest in its 5x5 neighbourhood and above the threshold (at most 200):
    # for whole-number responses, above t is at least floor(t) + 1. Of a flat top, many equal
    # maxima, the first of each run across, then the first of what is left down each column.
    # Each as its flat index into the response, H x W x 3 seen as one H x 3W image.
    row = w * 3
    found = filters.peaks(response, math.floor(p.threshold) + 1)
    ys, xs = np.divmod(found, row)
    xs, cs = np.divmod(xs, 3)
    top = ys > h
    strength = response.ravel().take(found)
    # By channel, dark before bright: a stable sort keeps each group's peaks in order.
    group = cs * 2 + top
    order = np.argsort(group, kind="stable")
    picked, start = [], 0
    for end in np.cumsum(np.bincount(group, minlength=6)).tolist():
        mine = order[start:end]
        if len(mine) > p.max_peaks:
            # Textured trays have many faint peaks: measure only the strongest, the first
            # found of equals (argpartition breaks ties one way on one NumPy, another on
            # the next), in the order found. ~strength orders bytes strongest first.
            strongest = np.argsort(~strength[mine], kind="stable")[: p.max_peaks]
            mine = mine[np.sort(strongest)]
        picked.append(mine)
        start = end
    pick = np.concatenate(picked)
    found, xs, ys, top = found[pick], xs[pick], ys[pick], top[pick]
    peak = strength[pick].astype(np.float32)
    ys = ys - np.where(top, h + 2, 0)  # in the frame
    closed, radius, elong = kernels.extent(response, found, peak, p.max_radius)
    fine = (radius >= p.min_radius) & (elong <= p.max_aspect)
    keep = closed[fine]
    if not len(keep):
        return _none()
    # By channel, dark before bright, as `picked` has them.
    polarity = np.where(top[keep], 1.0, -1.0)
    arr = np.column_stack([xs[keep], ys[keep], radius[fine], elong[fine], peak[keep], polarity])
    # One pip peaks in several channels within a pixel or two: measure it once.
    # Its cell (x / 3, y / 3, polarity) as one number, ordered as the three are.
    cell = np.rint(arr[:, :2] / 3)
    cell = (cell[:, 0] * h + cell[:, 1]) * 2 + (arr[:, 5] > 0)
    order = np.lexsort((-arr[:, 4], cell))
    cell, arr = cell[order], arr.take(order, axis=0)
    first = np.ones(len(arr), bool)
    first[1:] = cell[1:] != cell[:-1]
    arr = arr[first]
    xy, r = arr[:, :2], arr[:, 2]
    ix = within(np.rint(xy[:, 0]).astype(int), 1, w - 2)
    iy = within(np.rint(xy[:, 1]).astype(int), 1, h - 2)
    # Pip colour: the 3x3 neighbour farthest from the face's brightness, so a glint on a
    # dark pip does not count as the pip. (n, 9, 3), all on the frame.
    around = pixels(bgr, ix[:, None] + _AROUND_X, iy[:, None] + _AROUND_Y, inside=True)
    luma = around.astype(np.float32) @ LUMA
    pick = np.where(arr[:, 5] < 0, luma.argmin(axis=1), luma.argmax(axis=1))
    pip_bgr = around[np.arange(len(arr)), pick].astype(np.float32)
    # The response's half-height is only a first guess at a pip's outline (a pip near a die's
    # corner merges with it there): measure the outline in colour, between pip and face.
    face_bgr = ring_colours(bgr, xy, r, p).sum(axis=1) / 12  # their mean
    # Spots that hardly differ from their surroundings need no closer look.
    worth = norms(pip_bgr - face_bgr) >= 0.5 * p.min_ring_contrast
    if not worth.any():
        return _none()
    arr, xy, r, pip_bgr, face_bgr = arr[worth], xy[worth], r[worth], pip_bgr[worth], face_bgr[worth]
    r, outline, shift = _colour_extent(bgr, xy, r, pip_bgr, face_bgr, p)
    # A peak off the pip's middle (a channel where the die's edge skews the response) makes
    # a round pip look long from there: measure those again from the outline's middle.
    moved = np.flatnonzero(shift.any(axis=1))
    if len(moved):
        r[moved], outline[moved], again = _colour_extent(
            bgr, xy[moved] + shift[moved], r[moved], pip_bgr[moved], face_bgr[moved], p
        )
        shift[moved] += again
    # A pip sits inside one face: most of its ring has the face's colour. A peak on a die's
    # rim or a pip's edge has a ring that straddles two colours.
    face_bgr, contrast, agree = _ring_agreement(bgr, xy, r, pip_bgr, (p.ring_scale, 1.5))
    weak = agree < p.ring_agreement
    # A pip among close neighbours (a 6 on a small die) has them in its ring. A tighter
    # ring, in the gaps between the pips, may agree where that one did not; not for the
    # smallest spots, which a tight ring would let a glint on a dark pip pass for a pip.
    crowded = _crowded(xy, r, pip_bgr, face_bgr, weak & (r >= _TIGHT_MIN_RADIUS), p)
    if len(crowded):
        tight_face, tight_contrast, tight_agree = _ring_agreement(
            bgr, xy[crowded], r[crowded], pip_bgr[crowded], _TIGHT_RING
        )
        ok = (tight_agree >= p.ring_agreement) & (tight_contrast >= p.min_ring_contrast)
        take = crowded[ok]
        face_bgr[take], contrast[take], agree[take] = tight_face[ok], tight_contrast[ok], 1.0
        weak[take] = False
    contrast = np.where(agree >= p.weak_agreement, contrast, 0.0)
    # A coloured pip can peak in both polarities, a dark pip can hold a bright glint: keep
    # one spot per pip, preferring those whose ring agrees.
    strong = np.flatnonzero(contrast >= p.min_ring_contrast)
    strong = strong[np.lexsort((-contrast[strong], weak[strong]))]
    sx, sr = xy[strong], r[strong]
    # Only spots closer than the widest suppression reach matter to each other.
    a, b = _close_pairs(sx, 1.8 * float(sr.max()) + 0.5 if len(sr) else 0.0)
    d = _gaps(sx, a, b)
    # A small bright spot inside a dark grey pip is a glint on it, not a pip: a third of its
    # size or so. A dark spot of a colour is the shaded corner of a dark red or purple die,
    # and the white spots on it are its pips. A bright pip inside a dark spot four times its
    # size is a pip on a small die darker than the tray; a dark pip inside a bright spot, one
    # on a die lighter than it.
    sp = arr[strong, 5]
    glint = np.zeros(len(strong), bool)
    size = (sr[b] >= 2 * sr[a]) & (sr[b] <= 3.5 * sr[a])
    grey = (ptp(pip_bgr) <= 0.2 * contrast)[strong[b]]
    glint[a[(sp[a] > sp[b]) & size & (d < sr[b]) & ~weak[strong[b]] & grey]] = True
    glint[_with_siblings(np.flatnonzero(glint), glint, sx, sr, sp, pip_bgr[strong])] = False
    sa, sb = strong[a], strong[b]
    holds = (sp[a] != sp[b]) & (d < 1.8 * sr[a] + 0.5) & (sr[a] < 2 * sr[b]) & (sr[a] > sr[b])
    glint[a[holds][_corners(sa[holds], sb[holds], face_bgr, pip_bgr, contrast)]] = True
    both = ~glint[a] & ~glint[b]
    renumber = np.cumsum(~glint) - 1
    strong, sr, sp = strong[~glint], sr[~glint], sp[~glint]
    a, b, d = renumber[a[both]], renumber[b[both]], d[both]
    # A spot suppresses a neighbour of about its size only: a whole small die standing out
    # from the tray is a spot too, and must not swallow the pips on it.
    big, small = np.maximum(sr[a], sr[b]), np.minimum(sr[a], sr[b])
    near = (d < 1.8 * big + 0.5) & (big < 2 * small)
    # Nor does a spot of the other polarity half its size or so: a glint on a dark pip
    # (which makes no face of its own), or a pip on a small die's shaded corner.
    near &= ~((sp[a] != sp[b]) & (big >= 1.4 * small))
    # Strongest first, each kept spot suppresses its near ones (neighbour lists, row-wise).
    by_row = np.argsort(a[near], kind="stable")
    rows, cols = a[near][by_row], b[near][by_row]
    starts = np.searchsorted(rows, np.arange(len(strong) + 1)).tolist()
    cols = cols.tolist()
    suppressed = bytearray(len(strong))
    keep = []
    for i in range(len(strong)):
        if not suppressed[i]:
            keep.append(i)
            for j in cols[starts[i] : starts[i + 1]]:
                suppressed[j] = 1
    k = strong[np.array(keep, dtype=int)]
    # Dark or bright by brightness, whichever channel found it (yellow on teal is bright).
    face_bgr, pip_bgr = face_bgr.take(k, axis=0), pip_bgr.take(k, axis=0)
    polarity = np.where((pip_bgr - face_bgr) @ LUMA > 0, 1.0, -1.0)
    # The peak's place, for the face ring, may be off the middle.
    middle = xy.take(k, axis=0) + shift.take(k, axis=0)
    elong = _elongation(outline.take(k, axis=0))
    return Pips(middle, r[k], polarity, contrast[k], elong, face_bgr, pip_bgr, weak[k])
