"""The dice reader's per-candidate loops: each peak's reach along 8 rays (`extent`), the spots
of a colour in a window (`spots`), pips' outlines by colour (`colour_extent`) and the face's
colour round them (`ring_agreement`), rays out from faces' centres until the colour leaves
the face's (`rays`), whether the paths between pips are all face (`paths`), points tested
against their faces' colours (`probes`), and a pip pattern fitted to pips (`fit`). Each takes
a frame's candidates all at once, in a few NumPy and OpenCV calls rather than dozens per
candidate.

Arrays come in shaped as each function says, and are taken in the types their arithmetic
is stated in (np.asarray, which copies none already of that type); the answers come back as
arrays, made in the types the callers read them in.

Every build of NumPy and OpenCV must give the same bytes, so that the reader reads alike
everywhere: float arithmetic is done in a stated type (float32 or float64) and order, one
rounding per operation (never a * b + c fused); sums are written out term by term or made by
cumsum, never by np.sum, mean or a dot product, whose order of adding may change between
NumPy versions; hypot is np.hypot, libm's (math.hypot is CPython's own and differs in the
last bit), and atan2, cos and sin are the math module's, libm's too; OpenCV is used only
where its answer is exact (bytes, whole numbers, fixed-point sampling).
"""

from __future__ import annotations

import math
from operator import index

import cv2
import numpy as np

from companion.dice.filters import check_frame

_F32 = np.float32

# Whole-pixel step s (1..65, a row each) along ray d (0..7, an eighth of a turn each), as
# numpy's round(s * cos), round(s * sin) give it: the diagonals' s / sqrt(2) is never a half.
_S = np.arange(1, 66)[:, None]
_UX, _UY = np.array([1, 1, 0, -1, -1, -1, 0, 1]), np.array([0, 1, 1, 1, 0, -1, -1, -1])
_ALONG = np.where(np.arange(8) % 2 == 0, _S, np.rint(_S * 0.70710678118654757)).astype(np.intp)
_DX, _DY = _UX * _ALONG, _UY * _ALONG  # (65, 8)
_ADD = np.ones((1, 3), np.float32)  # B + G + R, as cv2.transform's matrix

_SNAP = 1048576.0  # 2**20
_SQRT2 = math.sqrt(2.0)
_CELLS = {n: [divmod(cell, n) for cell in range(n * n)] for n in range(2, 7)}  # (row, column)


# ---- colours ----


def _sum3(a: np.ndarray) -> np.ndarray:
    """Rows of three (..., 3) added left to right."""
    return a[..., 0] + a[..., 1] + a[..., 2]


def _ptp(c: np.ndarray) -> np.ndarray:
    """Largest less smallest channel of colours (..., 3)."""
    b, g, r = c[..., 0], c[..., 1], c[..., 2]
    return np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)


def _strong(f: np.ndarray, saturated: np.float32) -> np.ndarray:
    """Are face colours `f` (float32, k x 3) of a strong colour, (max - min) / max of their
    channels above `saturated`?"""
    return _ptp(f) > saturated * np.maximum(np.maximum(f[:, 0], f[:, 1]), f[:, 2])


def _off_face(c: np.ndarray, f: np.ndarray, strong: np.ndarray | None = None) -> np.ndarray:
    """How far colours `c` are from face colours `f` (float32, ... x 3), in float32: plainly,
    or where `strong` (k) forgiving a lighter shade of a face's colour (up to 1.8 times)."""
    d = c - f
    off = np.sqrt(_sum3(d * d))
    if strong is not None and strong.any():  # most faces are of no strong colour
        c, f = c[strong], f[strong]
        # fmax and fmin, where a NaN gives way to the bound
        s = _sum3(c * f) / np.fmax(_sum3(f * f), _F32(1))
        s = np.fmin(np.fmax(s, _F32(1)), _F32(1.8))
        e = c - s[:, None] * f
        off[strong] = np.sqrt(_sum3(e * e)) * np.fmax(_F32(1) / s, _F32(1))
    return off


def _nearest(image: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """The colours (float32, k x 3) of the pixels of `image` (H x W x 3) nearest places `xy`
    (k x 2) (halves to even), each kept on the frame."""
    height, width = image.shape[:2]
    at = np.minimum(np.maximum(np.rint(xy), 0), (width - 1, height - 1)).astype(np.intp)
    return image.reshape(-1, 3)[at[:, 1] * width + at[:, 0]].astype(_F32)


# ---- the pip search's responses and spots ----


def extent(response, at, peak, max_radius):
    """Each peak's half-height distance along 8 rays in `response` (uint8, (2H + 2) x W x 3:
    the black-hat above the top-hat, two rows of zeros between), the peak at flat index `at`
    (intp) with height `peak` (float32). A ray ends at the first step below ceil(0.65 peak),
    or where the response rises by more than floor(0.08 peak) (a neighbour, a die's edge);
    rays are clipped to the peak's own half of the response. Returns, of the peaks whose rays
    all end within max_radius + 1 steps, their indices (intp), their mean reach (float64) and
    longest over shortest of their 4 diameters (float64). An index off the response is an
    IndexError: clipped as the rays are, it would be read as a peak somewhere else."""
    check_frame(response, "extent")
    max_radius = index(max_radius)
    rows, width = response.shape[:2]
    height, odd = divmod(rows - 2, 2)
    if odd or height < 1:
        raise ValueError(f"extent: response must be (2H + 2) x W x 3, not {response.shape}")
    if not 1 <= max_radius <= 64:
        raise ValueError(f"extent: max_radius must be 1..64, not {max_radius}")
    res = response.reshape(-1)
    flat, top = np.asarray(at, np.intp), np.asarray(peak, _F32)
    # (as unsigned, a negative index is off the response too)
    if (flat.view(np.uintp) >= len(res)).any():
        raise IndexError("extent: a peak off the response")
    row = width * 3
    y, x = np.divmod(flat, row)
    x, channel = np.divmod(x, 3)
    y0 = np.where(y > height, height + 2, 0)  # the half the peak is in
    y -= y0
    # Every step of every ray of every peak at once (steps x 8 x peaks, so that a step's
    # rows are whole arrays): flat offsets from the peak, but near the edge of its half each
    # step kept to the half, its y and x each clamped.
    steps = max_radius + 1
    dy, dx = _DY[:steps, :, None], _DX[:steps, :, None]
    place = (dy * row + dx * 3) + flat
    edge = np.flatnonzero((y < steps) | (y >= height - steps) | (x < steps) | (x >= width - steps))
    if len(edge):
        yy = np.minimum(np.maximum(y[edge] + dy, 0), height - 1)
        xx = np.minimum(np.maximum(x[edge] + dx, 0), width - 1)
        place[:, :, edge] = (y0[edge] + yy) * row + xx * 3 + channel[edge]
    v = res.take(place)
    # A ray ends below 0.65 peak's ceiling, or on a rise of more than 0.08 peak's floor, each
    # worked out in float32 (whole numbers, compared exactly as floats).
    end = v < np.ceil(np.float32(0.65) * top)
    end[1:] |= np.subtract(v[1:], v[:-1], dtype=np.int16) > np.floor(np.float32(0.08) * top)
    # How many steps each ray takes before its end (all of them if it has none).
    going = ~end[0]
    before = going.view(np.uint8).copy()
    for ended in end[1:]:
        going &= ~ended
        before += going
    shut = (before < steps).all(axis=0)  # every ray ended
    reach = before[:, shut] + 0.5  # (8, closed peaks): the last step before the end, plus a half
    total = 0.0
    for d in range(8):  # added ray by ray
        total = total + reach[d]
    diameter = reach[:4] + reach[4:]
    return (
        np.flatnonzero(shut),
        total / 8,
        diameter.max(axis=0) / np.maximum(diameter.min(axis=0), 1.0),
    )


def spots(frame, x0, y0, x1, y1, colour, limit, own):
    """The spots of one colour in the window [x0, x1) x [y0, y1) of `frame` (uint8, H x W x
    3): 8-connected pixels whose squared distance to `colour` (B, G, R, as OpenCV rounds a
    scalar to bytes) is below `limit`. Returns their centres (float64 k x 2, window pixels)
    and their boxes (int64 k x 3: width, height, area), in the order OpenCV's
    connectedComponents numbers them (by the first 2 x 2 block of pixels that holds them,
    blocks in rows of two pixel rows), and for each place of `own` (whole numbers, m x 2:
    x, y in the window) the area of the biggest spot in the 3 x 3 pixels around it (kept to
    the window), 0 if none."""
    check_frame(frame, "spots")
    x0, y0, x1, y1 = (index(a) for a in (x0, y0, x1, y1))
    b, g, r = (float(c) for c in colour)
    limit = float(limit)
    height, width = frame.shape[:2]
    if not (0 <= x0 < x1 <= width and 0 <= y0 < y1 <= height):
        raise ValueError("spots: window off the frame")
    # saturate_cast<uchar>: rounded half to even (as round does), kept to bytes
    want = [round(min(max(c, 0.0), 255.0)) for c in (b, g, r)]
    # The squared distance: each channel's by a table of its own, added up in float32 (whole
    # numbers up to 3 * 255 ** 2, exact). Below `limit` is below its ceiling, kept in range
    # (a NaN stays one: nothing is below it).
    table = ((np.arange(256)[:, None] - want) ** 2).astype(np.float32).reshape(256, 1, 3)
    dist = cv2.transform(cv2.LUT(frame[y0:y1, x0:x1], table), _ADD)
    near = dist < np.float32(min(max(np.ceil(limit), 0.0), 3 * 255**2 + 1.0))
    # Spaghetti (OpenCV's default for 8-connected) labels by 2 x 2 blocks: named, so that the
    # numbering stays the same whatever the default becomes.
    _, labels, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        near.view(np.uint8), 8, cv2.CV_32S, cv2.CCL_SPAGHETTI
    )
    area = stats[:, cv2.CC_STAT_AREA]
    area[0] = 0  # the background is no spot
    # The 3 x 3 around each place, each end kept to the window.
    h, w = y1 - y0, x1 - x0
    ys = np.minimum(np.maximum(own[:, 1:] + np.arange(-1, 2), 0), h - 1)
    xs = np.minimum(np.maximum(own[:, :1] + np.arange(-1, 2), 0), w - 1)
    biggest = area[labels[ys[:, :, None], xs[:, None, :]]].reshape(-1, 9).max(axis=1)
    boxes = stats[1:, cv2.CC_STAT_WIDTH : cv2.CC_STAT_AREA + 1].astype(np.int64)
    return centroids[1:], boxes, biggest


# ---- pips' colours ----


def _glint(c: np.ndarray, pip: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Is colour sample `c` (uint8, m x ... x 3) by dark pip `pip` on face `face` (float32,
    m x 3) a glint, or a glint blurred into the pip: nearer the face's colour than the pip's
    without being the face, off the line from pip to face colour (where a pip's blurred rim
    lies) and greyer than the face (a marbled face's swirls are of its colour)."""
    to_face = face - pip
    span2 = _sum3(to_face * to_face)
    # Channel by channel, each pip's numbers against all its samples (NumPy is slow over
    # rows of three).
    each = (slice(None),) + (None,) * (c.ndim - 2)
    from_pip = [c[..., i] - pip[:, i][each] for i in range(3)]
    along = from_pip[0] * to_face[:, 0][each] + from_pip[1] * to_face[:, 1][each]
    along = along + from_pip[2] * to_face[:, 2][each]
    off_line2 = from_pip[0] * from_pip[0] + from_pip[1] * from_pip[1] + from_pip[2] * from_pip[2]
    off_line2 = off_line2 - along * along / np.maximum(span2, _F32(1))[each]
    grey = _ptp(c) <= (_F32(0.5) * _ptp(face))[each]
    # a quarter of the pip-face contrast off the line
    return grey & (off_line2 >= (_F32(0.0625) * span2)[each])


def _remapped(image: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The colours (uint8, x.shape + (3,)) at places x, y (float64, 2-D, each taken as
    float32), bilinear, as cv2.remap gives them from maps that cv2.convertMaps made fixed point
    (CV_16SC2, as OpenCV 4 makes of float maps for itself; OpenCV 5 samples float maps more
    finely): the place in 32nds of a pixel (rounded, halves to even), weights in 32768ths,
    the sum rounded; off the frame, its nearest pixels. (OpenCV remaps frames and maps under
    32767 pixels a side.)"""
    fixed, fraction = cv2.convertMaps(x.astype(_F32), y.astype(_F32), cv2.CV_16SC2)
    return cv2.remap(image, fixed, fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def colour_extent(bgr, xy, off_x, off_y, steps, r0, pip, face, dirs, luma):
    """Where each pip's colour turns nearer its face's than its own along 8 rays from its
    centre `xy` (float64, n x 2): the samples (`_remapped`) at xy + (off_x, off_y) (float64,
    8 x len(steps): ray by ray, at distances `steps`, float32 half pixels), in `bgr` (uint8,
    H x W x 3). `r0` (float64, n) is the radius the response gave, `pip` and `face` (float32,
    n x 3) the colours. A ray ends at the first sample past half of r0 nearer the face; on a
    dark grey pip of a coloured die it goes on past a glint. Returns the mean reach (float32,
    n), the outline (float64, n x 8 x 2: the rays' ends around their middle) and the shift
    (float64, n x 2: from the centre to the outline's middle where it closed all round and
    moved at least a pixel, else 0). `dirs` (float64, 8 x 2) are the rays' directions, `luma`
    (float64, 3) the weights of a colour's brightness."""
    check_frame(bgr, "colour_extent")
    xy, off_x, off_y, r0, dirs, luma = (
        np.asarray(a, np.float64) for a in (xy, off_x, off_y, r0, dirs, luma)
    )
    steps, pip, face = (np.asarray(a, _F32) for a in (steps, pip, face))
    n, n_steps = len(xy), len(steps)
    if n == 0:
        return np.zeros(0, _F32), np.zeros((0, 8, 2)), np.zeros((0, 2))
    if n_steps == 0:  # (a ray that meets no face reaches past the last step: there is none)
        raise ValueError("colour_extent: no steps to sample")
    towards = pip - face
    # Nearer the face than the pip: on the face's side of the plane halfway between the two
    # colours, |c - f| < |c - p|  <=>  c.(p - f) < (|p|^2 - |f|^2) / 2.
    both = np.array((pip, face))  # each worked out for the two at once
    square = _sum3(both * both)
    halfway = (square[0] - square[1]) / _F32(2)
    brightness = _sum3(towards.astype(np.float64) * luma)
    # Every step of every ray at once, (n, 8, steps): what lies past a ray's end changes
    # nothing.
    seen = _remapped(
        bgr,
        (xy[:, :1] + off_x.reshape(1, -1)).reshape(n, -1),
        (xy[:, 1:] + off_y.reshape(1, -1)).reshape(n, -1),
    ).reshape(n, 8, n_steps, 3)
    t = towards[:, None, None, :]
    # (channel by channel: a uint8 colour times a float32 one in a single op is slower)
    along = seen[..., 0] * t[..., 0] + seen[..., 1] * t[..., 1] + seen[..., 2] * t[..., 2]
    past = steps.astype(np.float64) > 0.5 * r0[:, None]
    met = (along < halfway[:, None, None]) & past[:, None, :]
    # Glints are on dark, grey pips of coloured dice (a white pip in the shade of a glossy
    # face is no glint on a dark spot).
    spread = _ptp(both)
    dark = np.flatnonzero((spread[0] <= _F32(0.25) * spread[1]) & (brightness < 0))
    if len(dark):
        met[dark] &= ~_glint(seen[dark], pip[dark], face[dark])
    first = met.argmax(axis=2)
    ended = met.reshape(-1, n_steps)[np.arange(8 * n), first.ravel()].reshape(n, 8)
    reach = np.where(ended, steps[first] - _F32(0.25), steps[-1] + _F32(0.5))
    # Added in float32 as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)).
    pairs = reach[:, 0::2] + reach[:, 1::2]
    fours = pairs[:, 0::2] + pairs[:, 1::2]
    mean = (fours[:, 0] + fours[:, 1]) / _F32(8)
    edge = reach.astype(np.float64)[:, :, None] * dirs
    # cumsum adds ray by ray; + 0.0 makes a sum of -0.0s 0.0, as a sum from 0.0 is.
    middle = (np.cumsum(edge, axis=1)[:, -1] + 0.0) / 8
    # The outline's middle is the pip's centre; the response's peak can sit off it (a glint
    # on a dark pip splits its peak). Trust the outline only where it closed all round, and
    # only a shift bigger than its half-pixel steps can measure.
    moved = np.hypot(middle[:, 0], middle[:, 1])
    trusted = ended.all(axis=1) & (moved >= 1.0) & (moved < 0.5 * mean.astype(np.float64))
    return mean, edge - middle[:, None, :], np.where(trusted[:, None], middle, 0.0)


def ring_agreement(bgr, xy, radius, ring_x, ring_y, pip):
    """A ring of 12 samples round each pip: at xy + radius (ring_x, ring_y) (xy float64 n x 2,
    `radius` n, the ring's directions float64 12), each worked out in float64, rounded to the
    nearest pixel (halves to even) and kept on the frame. Returns the face's colour, the
    ring's median channel by channel (float32 n x 3), the pip's contrast with it (float32 n,
    from `pip` float32 n x 3) and the share of the ring within 0.3 of that contrast plus 8 of
    the face's colour (float64 n), in float32 as NumPy computes them."""
    check_frame(bgr, "ring_agreement")
    xy, reach, ring_x, ring_y = (np.asarray(a, np.float64) for a in (xy, radius, ring_x, ring_y))
    pip = np.asarray(pip, _F32)
    height, width = bgr.shape[:2]
    x = np.minimum(np.maximum(np.rint(xy[:, :1] + reach[:, None] * ring_x), 0), width - 1)
    y = np.minimum(np.maximum(np.rint(xy[:, 1:] + reach[:, None] * ring_y), 0), height - 1)
    ring = bgr.reshape(-1, 3).take((y * width + x).astype(np.intp), axis=0)  # (n, 12, 3)
    ordered = np.sort(ring, axis=1)
    face_bgr = (ordered[:, 5].astype(_F32) + ordered[:, 6]) / _F32(2)
    contrast_k = _off_face(pip, face_bgr)
    within = _F32(0.3) * contrast_k + _F32(8)
    # Channel by channel, each pip's face against its ring (NumPy is slow over rows of three).
    b, g, r = (ring[..., c] - face_bgr[:, c, None] for c in range(3))
    agreeing = (np.sqrt(b * b + g * g + r * r) < within[:, None]).sum(axis=1)
    return face_bgr, contrast_k, agreeing / 12.0


# ---- faces ----


def rays(bgr, table, dirs):
    """Rays out from faces' centres until the colour leaves the face's. `table` (float64,
    m x 8) has a row per ray: centre x, y, start, stop, face colour B, G, R and threshold;
    `dirs` (float64, m x 2) its direction. A ray is sampled at the places np.arange(start,
    stop, 1.0) gives (its step is (start + 1) - start, its second place start + 1), each
    rounded to the nearest pixel (halves to even, as NumPy rounds). Returns for each ray
    (float64, m) the first place off the frame or whose colour is farther from the face's
    than the threshold (squared distance in float32, as NumPy computes it), or inf where
    none is. `bgr` is uint8 H x W x 3."""
    check_frame(bgr, "rays")
    table, dirs = np.asarray(table, np.float64), np.asarray(dirs, np.float64)
    m = len(table)
    height, width = bgr.shape[:2]
    pixels = bgr.reshape(-1, 3)
    start = table[:, 2]
    second = start + 1.0
    count = np.ceil(table[:, 3] - start)
    # A row for each of what the steps need, gathered at once for the rays still going.
    each = np.array((start, second - start, second, count, *table[:, :2].T, *dirs.T))
    # the threshold squared in float64, then compared in float32
    limit = (table[:, 7] * table[:, 7]).astype(_F32)
    face = table[:, 4:7].astype(_F32)
    found = np.full(m, np.inf)
    # Most rays leave the face within a few steps: all are walked a stretch at a time, each
    # stretch eight times the last, and those that have left (or reached their stop) stop.
    # Steps down the first axis, rays along the second.
    todo = np.flatnonzero(count > 0)
    lo, hi = 0.0, 16.0
    while len(todo):
        going = each[:, todo]
        begin, step, at_second, counts = going[:4]
        hi = min(hi, counts.max())
        s = np.arange(lo, hi)[:, None]
        at = begin + s * step
        if lo == 0 and hi > 1:  # np.arange's second place
            at[1] = at_second
        x = np.rint(going[4] + at * going[6]).astype(np.intp)
        y = np.rint(going[5] + at * going[7]).astype(np.intp)
        # (as unsigned, places left of or above the frame wrap round past it)
        off = (x.view(np.uintp) >= width) | (y.view(np.uintp) >= height)
        # A place off the frame is away whatever its colour: any pixel stands in for it.
        colour = pixels.take(y * width + x, axis=0, mode="clip") - face[todo]
        away = (off | (_sum3(colour * colour) > limit[todo])) & (s < counts)
        first = away.argmax(axis=0)
        left = away[first, np.arange(len(todo))]
        found[todo[left]] = at[first[left], left]
        todo = todo[~left & (hi < counts)]
        lo, hi = hi, 8 * hi
    return found


def paths(bgr, xy, r, face, contrast, ii, jj, tolerances):
    """For each pair of pips ii[k], jj[k] (intp): is the straight path between them all face?
    Sampled as faces._along places points (at least two, about every 1.5 px), from 1.8 radii
    plus 2 px off each pip's middle, each rounded to the nearest pixel (halves to even; a
    place off the frame takes the frame's nearest pixel). A path is clear where its worst
    sample is no farther from the mean of the two pips' face colours (`_off_face`) than the
    least of the colour tolerance and the path tolerance times the lesser contrast. `bgr`
    uint8 H x W x 3, `xy` float64 n x 2, `face` float32 n x 3; `r` and `contrast` float32 or
    float64 arrays (n), computed in their own type as NumPy would; `tolerances` (colour,
    path, saturated: a strong colour's (max - min) / max). Returns whether each is clear
    (bool, m); paths too short to sample are. A pip index off the pips (a negative one too,
    which NumPy would take from the end) is an IndexError."""
    check_frame(bgr, "paths")
    colour_tol, path_tol, saturated = (float(v) for v in tolerances)
    p, fc = np.asarray(xy, np.float64), np.asarray(face, _F32)
    i, j = np.asarray(ii, np.intp), np.asarray(jj, np.intp)
    n = len(p)
    # (as unsigned, a negative index is off the pips too)
    if ((i.view(np.uintp) >= n) | (j.view(np.uintp) >= n)).any():
        raise IndexError("paths: a pip index off the pips")
    a = p[i]
    ab = p[j] - a
    d = np.hypot(ab[:, 0], ab[:, 1])
    # a pip's blurred rim, in the radius's own type
    rim = (r * r.dtype.type(1.8) + r.dtype.type(2)).astype(np.float64)
    with np.errstate(all="ignore"):  # pips in one place: not sampled
        t0, t1 = rim[i] / d, 1 - rim[j] / d
    sampled = (t1 > t0).nonzero()[0]
    result = np.ones(len(i), bool)
    if len(sampled):
        i, j, t0, span = i[sampled], j[sampled], t0[sampled], (t1 - t0)[sampled]
        least = np.where(contrast[i] < contrast[j], contrast[i], contrast[j])
        # the tolerances in the contrast's type
        kind = contrast.dtype.type
        colour_tol, path_tol = kind(colour_tol), kind(path_tol)
        lesser = path_tol * least
        limit = np.where(colour_tol < lesser, colour_tol, lesser)
        f = (fc[i] + fc[j]) / _F32(2)
        counts = np.maximum((span * d[sampled] / 1.5).astype(np.intp), 2)
        step = span / (counts - 1)
        starts = counts.cumsum() - counts
        seg = np.arange(len(counts)).repeat(counts)
        t = t0[seg] + (np.arange(len(seg)) - starts[seg]) * step[seg]
        seen = _nearest(bgr, a[sampled][seg] + t[:, None] * ab[sampled][seg])
        off = _off_face(seen, f[seg], _strong(f, _F32(saturated))[seg])
        # the worst, from 0 up, passing over a NaN
        worst = np.fmax(np.fmax.reduceat(off, starts), _F32(0))
        result[sampled] = worst <= limit
    return result


def probes(bgr, points, rows, pip, saturated):
    """Points (float64, m x 2) tested against their faces' colours in `bgr` (uint8, H x W x
    3): each first snapped to 1/2**20 px (so that a place on a half pixel takes the same
    pixel on every build), then rounded to the nearest pixel (halves to even) and kept on
    the frame. `rows` (float32, m x 8) give each point its face colour, pip colour, and the
    limits of a `pip` and a `face` test. With `pip`, a point looks like the pip: farther from
    the face than its limit and nearer the pip than the face; else it has the face's colour
    (`_off_face`, a face of a strong colour by `saturated`) within its limit. Returns the
    answers (bool, m)."""
    check_frame(bgr, "probes")
    points, rows = np.asarray(points, np.float64), np.asarray(rows, _F32)
    seen = _nearest(bgr, np.rint(points * _SNAP) / _SNAP)
    face = rows[:, :3]
    if pip:
        from_face = _off_face(seen, face)
        from_pip = _off_face(seen, rows[:, 3:6])
        return (from_face > rows[:, 6]) & (from_pip < from_face)
    return _off_face(seen, face, _strong(face, _F32(saturated))) < rows[:, 7]


# ---- pip patterns ----


def fit(points, template, solve, source) -> tuple | None:
    """(residual, spacing, angle, squash, x, y) | None

    The pattern of n pips (`template`, float64 n x 2, in pip spacings) fitted to `points`
    (float64 n x 2): turned so its far corner lies on the point farthest from their middle,
    in each of its four quarter turns; in each, template and points matched greedily,
    nearest first; the best turn is the one whose worst match is least (the first of
    equals). With 4 or more pips also a least-squares affine fit through `solve` (float64
    3 x n, the pseudo-inverse of `source`, float64 n x 3: the template with a column of
    ones): its worst error, if less, is the residual, its area the spacing, and its axes'
    ratio the squash. Residual in pip spacings; None where the points all sit in one place.
    """
    # Python's floats for the handful of sums and products, numpy for the 4 x n x n costs
    pt, template, solve, source = (
        np.asarray(a, np.float64) for a in (points, template, solve, source)
    )
    n = len(pt)
    if n < 2 or n > 6:
        raise ValueError(f"fit: 2 to 6 points, not {n}")
    xs, ys = pt[:, 0].tolist(), pt[:, 1].tolist()
    cx = cy = 0.0
    for x, y in zip(xs, ys, strict=True):  # not sum(), which compensates from Python 3.12
        cx += x
        cy += y
    cx /= n
    cy /= n
    rx, ry = pt[:, 0] - cx, pt[:, 1] - cy
    far, far_d = 0, -1.0
    for k, d in enumerate(np.hypot(rx, ry).tolist()):
        if d > far_d:
            far, far_d = k, d
    spacing = far_d / _SQRT2
    if spacing < 1e-6:
        return None
    base = math.atan2(ry[far], rx[far]) - math.pi / 4
    turns = [base + k * (math.pi / 2) for k in range(4)]
    cos_sin = np.array(
        [math.cos(a) * spacing for a in turns] + [math.sin(a) * spacing for a in turns]
    )
    # each turn's template (4 x n): x cos - y sin, x sin + y cos
    turned = cos_sin.reshape(2, 4, 1, 1) * template.T
    px, py = turned[0, :, 0] - turned[1, :, 1], turned[1, :, 0] + turned[0, :, 1]
    cost = np.hypot(px[:, :, None] - rx, py[:, :, None] - ry).reshape(4, n * n)
    # cheapest first, equal costs in the order of their cells (a stable sort)
    ranked = np.argsort(cost, axis=1, kind="stable").tolist()
    cost, cells = cost.tolist(), _CELLS[n]
    best, angle, order = math.inf, 0.0, None
    for k in range(4):
        mine, used, left = [-1] * n, [False] * n, n
        for cell in ranked[k]:
            i, j = cells[cell]
            if mine[i] < 0 and not used[j]:
                mine[i], used[j] = j, True
                left -= 1
                if not left:
                    break
        worst = cost[k][cell] / spacing
        if worst < best:
            best, angle, order = worst, turns[k], mine
    residual, squash = best, 1.0
    if n >= 4:
        # least-squares affine map, template -> image: rows (a, c), (b, d), (tx, ty)
        ox, oy = [xs[o] for o in order], [ys[o] for o in order]
        sol = []
        for weights in solve.tolist():
            sx = sy = 0.0
            for w, x, y in zip(weights, ox, oy, strict=True):
                sx += w * x
                sy += w * y
            sol.append((sx, sy))
        (a, c), (b, d), (ux, uy) = sol
        # singular values of the 2x2 linear part, in closed form
        fro, det = a * a + b * b + c * c + d * d, abs(a * d - b * c)
        gap = fro * fro - 4 * det * det
        big = math.sqrt((fro + math.sqrt(gap if gap > 0.0 else 0.0)) / 2)  # fmax(gap, 0)
        small = det / big if big > 0 else 0.0
        squash = small / big if big > 0 else 0.0
        src = source.tolist()
        ex = [s0 * a + s1 * b + s2 * ux - x for (s0, s1, s2), x in zip(src, ox, strict=True)]
        ey = [s0 * c + s1 * d + s2 * uy - y for (s0, s1, s2), y in zip(src, oy, strict=True)]
        err = 0.0
        for e in np.hypot(ex, ey).tolist():
            if e > err:  # fmax, which passes over a NaN
                err = e
        area = math.sqrt(big * small)
        if area > 0 and err / area < residual:  # fmin, which passes over a NaN
            residual = err / area
        spacing = area
    return residual, spacing, angle, squash, cx, cy
