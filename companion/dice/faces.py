"""From pip candidates to die faces: group the pips of one face, fit the pip pattern,
and check that a die's edge surrounds the pattern where a die's edge should be."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import accumulate, combinations, permutations

import numpy as np

from companion.dice import kernels
from companion.dice.pips import Pips, norms, pixels, shade_distance, within
from companion.dice.profile import DiceParams, FaceParams
from companion.dice.synth import PIP_LAYOUT, PIP_OFFSET

# Pip layouts in units of the pip spacing (corner pips at (+-1, +-1)).
TEMPLATES = {n: np.array(pts) / PIP_OFFSET for n, pts in PIP_LAYOUT.items()}
_HALF_FACE = 0.5 / PIP_OFFSET  # the face's half-width in pip spacings
SATURATED = 0.4  # (max - min) / max of a face's B, G, R that is of a strong colour
ROUND_PIP = 1.35  # longest/shortest width of a pip seen from above (a glint included)


@dataclass
class Face:
    face: int
    pips: np.ndarray  # indices into Pips
    centre: np.ndarray
    spacing: float  # pixels per pip spacing (die edge ~ 3.7 spacings)
    angle: float  # radians
    residual: float  # pattern fit error in pip spacings
    squash: float  # short/long axis of the fitted face (1 = seen square-on)
    edge_score: float = 0.0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    contrast: float = 0.0
    missing_pip: bool = False  # something pip-like where the pattern has no pip
    # Read leaving out pips of its group, with a doubtful one, or a 1 with a lone pip like
    # its own on the same die.
    doubtful: bool = False
    # For a doubtful 1: the lone pip like its own on its die, the other pip of a 2 maybe.
    twin: int | None = None
    outline: float = 0.0  # how square the die's outline looks, where measured (1s to 3s)
    # For a face read short of pips: the faces its group makes cut in two, read instead if
    # each has its die's edge around it (two dice touching).
    instead: list[Face] = field(default_factory=list)


def in_box(xy, box: tuple[int, int, int, int]) -> bool:
    """Does the place `xy` lie in the box (x1, y1, x2, y2), its edges included?"""
    return box[0] <= xy[0] <= box[2] and box[1] <= xy[1] <= box[3]


def middle(values: np.ndarray) -> np.ndarray:
    """Median along the first axis; np.median is slow on the handful of values a face has."""
    n = len(values)
    if n <= 2:
        return (values[0] + values[n - 1]) / 2  # one or two values need no sorting
    ordered = values.copy()  # np.sort's copy and sort, without its overhead
    ordered.sort(axis=0)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def _union_find_groups(n: int, pairs: list[tuple[int, int]]) -> list[list[int]]:
    """The groups of 0 to n - 1 that `pairs` link, each in increasing order, the groups in
    the order of their first members."""
    # Each root is its group's smallest member, so a member's parent comes before it.
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs:
        ri, rj = root(i), root(j)
        if ri < rj:
            parent[rj] = ri
        elif rj < ri:
            parent[ri] = rj
    groups: dict[int, list[int]] = {}
    for i, up in enumerate(parent):
        parent[i] = parent[up]  # its parent's root, found already
        groups.setdefault(parent[i], []).append(i)
    return list(groups.values())


def _strong(face_bgr: np.ndarray) -> np.ndarray:
    """Which face colours (n, 3) are of a strong colour, whose lighter shades are swirls.
    Channel by channel, as `ptp` is: quicker than numpy's reduction of short rows."""
    b, g, r = face_bgr[:, 0], face_bgr[:, 1], face_bgr[:, 2]
    brightest = np.maximum(np.maximum(b, g), r)
    return brightest - np.minimum(np.minimum(b, g), r) > SATURATED * brightest


def _along(a, b, t0, t1, d):
    """Points about every 1.5 px along each segment from a + t0 (b - a) to a + t1 (b - a),
    `d` the length of b - a: the points (n, 2), the segment each is on, and its t."""
    counts = np.maximum(2, ((t1 - t0) * d / 1.5).astype(int))
    seg = np.arange(len(a)).repeat(counts)  # array methods: numpy's wrappers cost more
    # k-th of m samples at t0 + k (t1 - t0) / (m - 1), as np.linspace places them
    k = np.arange(len(seg)) - (counts.cumsum() - counts).repeat(counts)
    ts = t0[seg] + k * ((t1 - t0) / (counts - 1))[seg]
    return a[seg] + ts[:, None] * (b - a)[seg], seg, ts


def paths_clear(bgr, pips: Pips, ii: np.ndarray, jj: np.ndarray, fp: FaceParams) -> np.ndarray:
    """For each pair of pips, is the straight path between them all face (no gap, seam or
    background)? Every path is sampled about every 1.5 px, skipping each pip's blurred rim,
    as `_along` places points (kernels.paths)."""
    tolerances = (fp.colour_tolerance, fp.path_tolerance, SATURATED)
    return kernels.paths(bgr, pips.xy, pips.r, pips.face_bgr, pips.contrast, ii, jj, tolerances)


def off_face(seen: np.ndarray, face: np.ndarray) -> np.ndarray:
    """How far colours `seen` (..., 3) are from a face's colour (3,). On a die of a strong
    colour, a lighter swirl of that colour (a marbled die) is still its face; the tray is
    of another colour, the seam between two dice darker."""
    if _strong(face[None])[0]:
        return shade_distance(seen, face, darker=1.0)
    return norms(seen - face)


def _off_face(seen: np.ndarray, face: np.ndarray, strong: np.ndarray) -> np.ndarray:
    """`off_face` of colours `seen` (n, 3) each from its own face (n, 3), told which faces
    are of a strong colour."""
    colour = norms(seen - face)
    if strong.any():  # most paths and rays cross no strong colour
        colour[strong] = shade_distance(seen[strong], face[strong], darker=1.0)
    return colour


def one_die(bgr, twos: list[Face], pips: Pips, fp: FaceParams) -> np.ndarray:
    """For faces of two pips: are they on one die? A 2's other diagonal, where it has no
    pips, is face from near one corner to near the other. Two 1s side by side fit a 2 as
    well, but across them that diagonal runs along the seam and out onto the tray."""
    if not twos:
        return np.zeros(0, bool)
    centre = np.array([face.centre for face in twos], float)
    reach = np.array([0.95 * _HALF_FACE * face.spacing for face in twos])
    turn = np.array([face.angle + math.pi / 4 for face in twos])
    across = np.column_stack([-np.sin(turn), np.cos(turn)]) * reach[:, None]
    # Sampled as paths between pips are, from one end to the other.
    zero, one = np.zeros(len(twos)), np.ones(len(twos))
    pts, face_of, t = _along(centre - across, centre + across, zero, one, 2 * reach)
    h, w = bgr.shape[:2]
    px, py = pts.round().astype(int).T
    px, py = within(px, 0, w - 1), within(py, 0, h - 1)
    idx = [face.pips for face in twos]
    face_bgr = np.array([middle(pips.face_bgr[i]) for i in idx], np.float32)
    contrast = np.array([pips.contrast[i].min() for i in idx])
    seen = pixels(bgr, px, py).astype(np.float32)
    colour = _off_face(seen, face_bgr[face_of], _strong(face_bgr)[face_of])
    limit = np.minimum(fp.colour_tolerance, fp.path_tolerance * contrast)
    # A glint or a swirl may cross one half; the tray lies beyond both ends.
    # Which halves have a sample off the face, counted by half (ufunc.at is slow on NumPy 1.x).
    half = 2 * face_of + (t > 0.5)
    off = np.bincount(half[colour > limit[face_of]], minlength=2 * len(twos))
    return ~(off.reshape(-1, 2) > 0).all(axis=1)


# Every pair i < j of up to _MANY pips, by j and then i: the pairs of the first n come first.
_MANY = 256
_PAIR_J, _PAIR_I = np.tril_indices(_MANY, -1)


def _near_pairs(pips: Pips, reach: float):
    """Pairs i < j of pips no further apart than `reach` times the larger one's radius, row
    by row: (i, j, distance, larger radius, smaller radius). Only those can link, so only
    those are compared."""
    x, y, r = pips.xy[:, 0], pips.xy[:, 1], pips.r
    n = len(r)
    if n <= _MANY:
        i, j = _PAIR_I[: n * (n - 1) // 2], _PAIR_J[: n * (n - 1) // 2]
    else:
        i, j = np.triu_indices(n, 1)
    dx, dy = x[i] - x[j], y[i] - y[j]
    rmax = np.maximum(r[i], r[j])
    limit = reach * rmax
    # np.hypot is slow on many values: it measures only the pairs whose squared distance is
    # in reach, with room to spare for rounding.
    maybe = (dx * dx + dy * dy <= limit * limit * (1 + 1e-9)).nonzero()[0]
    d = np.hypot(dx[maybe], dy[maybe])
    inside = d <= limit[maybe]
    near, d = maybe[inside], d[inside]
    row_by_row = (i[near] * n + j[near]).argsort()
    near, d = near[row_by_row], d[row_by_row]
    i, j = i[near], j[near]
    return i, j, d, rmax[near], np.minimum(r[i], r[j])


def _across_a_middle(bgr, pips: Pips, ii: np.ndarray, jj: np.ndarray, fp: FaceParams):
    """For pairs of pips whose path is not clear: does it cross just a pip of their kind
    halfway, with face between (two corners of a 3, and its middle pip, which a glint makes
    too weak to be grouped)?"""
    if not len(ii):
        return np.zeros(0, bool)
    mid = (pips.xy[ii] + pips.xy[jj]) / 2
    gap = np.hypot(*(pips.xy[None, :, :] - mid[:, None, :]).transpose(2, 0, 1))
    k = gap.argmin(axis=1)
    rows = np.arange(len(ii))
    halfway = gap[rows, k] <= 0.15 * np.hypot(*(pips.xy[jj] - pips.xy[ii]).T)
    halfway &= pips.weak[k] & (pips.elongation[k] <= fp.max_pip_elongation)
    halfway &= pips.polarity[k] == pips.polarity[ii]
    halfway &= np.maximum(pips.r[k], pips.r[ii]) <= fp.radius_ratio * np.minimum(
        pips.r[k], pips.r[ii]
    )
    halfway &= norms(pips.pip_bgr[k] - pips.pip_bgr[ii]) <= 2 * fp.colour_tolerance
    both = halfway.copy()
    both[halfway] = paths_clear(bgr, pips, ii[halfway], k[halfway], fp) & paths_clear(
        bgr, pips, k[halfway], jj[halfway], fp
    )
    return both


def group(bgr, pips: Pips, fp: FaceParams) -> list[np.ndarray]:
    n = len(pips)
    if n == 0:
        return []
    i, j, d, rmax, rmin = _near_pairs(pips, max(fp.link_distance, fp.two_link_distance))
    elong = pips.elongation
    flat = elong <= fp.max_pip_elongation  # longer pips lie on side faces seen edge-on
    sure = flat & ~pips.weak
    shaped = (
        sure[i]
        & sure[j]
        & (np.maximum(elong[i], elong[j]) <= 1.4 * np.minimum(elong[i], elong[j]))
        & (rmax <= fp.radius_ratio * rmin)
        & (pips.polarity[i] == pips.polarity[j])
        & (norms(pips.pip_bgr[i] - pips.pip_bgr[j]) <= 2 * fp.colour_tolerance)
    )
    colour = norms(pips.face_bgr[i] - pips.face_bgr[j])
    link = shaped & (colour <= fp.colour_tolerance) & (d <= fp.link_distance * rmax)
    ii, jj = i[link], j[link]
    clear = paths_clear(bgr, pips, ii, jj, fp)
    ii, jj = ii[clear], jj[clear]
    # The two pips of a 2 are the farthest apart of any face and, blurred, measure small:
    # a pip linked to nothing may reach further, to another such pip. Both are `sure`: a
    # glint may make a pip a little long, a side face seen edge-on makes it longer.
    alone = np.ones(n, bool)
    alone[ii] = alone[jj] = False
    far = shaped & (d <= fp.two_link_distance * rmax) & alone[i] & alone[j]
    # Their faces may differ in shade: a 2's pips are far apart on its face.
    far[far] = shade_distance(pips.face_bgr[i[far]], pips.face_bgr[j[far]]) <= fp.colour_tolerance
    fi, fj = i[far], j[far]
    clear = paths_clear(bgr, pips, fi, fj, fp)
    clear[~clear] = _across_a_middle(bgr, pips, fi[~clear], fj[~clear], fp)
    ii, jj = np.concatenate([ii, fi[clear]]), np.concatenate([jj, fj[clear]])
    pairs = list(zip(ii.tolist(), jj.tolist(), strict=True))
    unsure = set(np.flatnonzero(~sure).tolist())
    return [np.array(g) for g in _union_find_groups(n, pairs) if unsure.isdisjoint(g)]


def merged_groups(pips: Pips, groups: list[np.ndarray], fp: FaceParams) -> list[np.ndarray]:
    """Groups of alike pips that `group` kept apart on face colour or path alone, and that
    together may make one face: on a marbled die the face between and around its pips
    changes colour. Each joins two or more groups (a lone pip is a group), or a group and
    weak pips."""
    n = len(pips)
    if n < 2:
        return []
    i, j, _, rmax, rmin = _near_pairs(pips, fp.link_distance)
    top = pips.elongation <= ROUND_PIP
    alike = (
        top[i]
        & top[j]
        & (rmax <= fp.radius_ratio * rmin)
        & (pips.polarity[i] == pips.polarity[j])
        & (norms(pips.pip_bgr[i] - pips.pip_bgr[j]) <= fp.colour_tolerance)
    )
    i, j = i[alike], j[alike]
    label = np.arange(n) + n  # a weak pip is in no group: its own
    for k, g in enumerate(groups):
        label[g] = k
    other = label[i] != label[j]
    ii, jj = i[other], j[other]
    if not len(ii):
        return []
    # Whole groups join: pairs within each group, then the new links between groups.
    pairs = [(int(g[0]), int(m)) for g in groups for m in g[1:]]
    pairs += list(zip(ii.tolist(), jj.tolist(), strict=True))
    # Most are a lone pip, which joins nothing: the quickest test first.
    label_of, may_start = label.tolist(), set(np.flatnonzero(~pips.weak).tolist())
    return [
        np.array(g)
        for g in _union_find_groups(n, pairs)
        if len(g) >= 2 and len({label_of[k] for k in g}) >= 2 and not may_start.isdisjoint(g)
    ]


AFFINE_SRC = {n: np.hstack([t, np.ones((len(t), 1))]) for n, t in TEMPLATES.items()}
AFFINE_SOLVE = {n: np.linalg.pinv(src) for n, src in AFFINE_SRC.items()}


def fit(points: np.ndarray) -> tuple[float, float, float, float, np.ndarray] | None:
    """Fit the pattern of len(points) pips. Returns (residual, spacing, angle, squash, centre)
    or None when the count has no pattern. Residual and squash use an affine fit when the
    pattern has enough pips, so a face seen at an angle still fits."""
    n = len(points)
    if n not in TEMPLATES or n < 2:
        return None
    found = kernels.fit(points, TEMPLATES[n], AFFINE_SOLVE[n], AFFINE_SRC[n])
    if found is None:
        return None
    residual, spacing, angle, squash, x, y = found
    return residual, spacing, angle, squash, np.array([x, y])


# Each pattern of 4 to 6 pips with one pip left out, and a 6 with two, as complex numbers
# (in pip spacings, the pattern's middle at 0), by (pattern, pips left out); and every order
# of the pips found, for `fit_short`.
_SHORT = {
    (m, k): [
        np.delete(TEMPLATES[m], list(gone), axis=0) @ np.array([1, 1j])
        for gone in combinations(range(m), k)
    ]
    for m, k in ((4, 1), (5, 1), (6, 1), (6, 2))
}
_ORDERS = {n: np.array(list(permutations(range(n)))) for n in (3, 4, 5)}


def _short_patterns(kept: list[np.ndarray]) -> tuple:
    """What `fit_short` needs of each way of leaving pips out, one row each: the pips kept
    about their middle and its conjugate (ways, n), the sum of their squared lengths, and
    their middle."""
    about = np.array([k - k.mean() for k in kept])
    return (
        about,
        about.conj(),
        np.array([(abs(t) ** 2).sum() for t in about]),
        [k.mean() for k in kept],
    )


_SHORT_PATTERNS = {key: _short_patterns(kept) for key, kept in _SHORT.items()}


def fit_short(
    points: np.ndarray, lost: int = 1
) -> tuple[int, float, float, float, np.ndarray] | None:
    """Fit the pattern of `lost` pips more than len(points) (3 to 5), those pips of it not
    found (in the shade, merged with a glint): one, or two of a 6. Returns (pips, residual,
    spacing, angle, centre) of the best fit: turned and scaled, not squashed (too few pips
    tell a squash)."""
    n = len(points)
    if n not in _ORDERS or (n + lost, lost) not in _SHORT:
        return None
    seen = points @ np.array([1, 1j])
    mean = seen.mean()
    found = seen[_ORDERS[n]]  # (orders, n)
    # Every way of leaving pips out at once: (ways, orders) below.
    t, t_conj, size, middles = _SHORT_PATTERNS[n + lost, lost]
    # least-squares turn and scale of the pattern onto each order of the pips
    a = ((found - mean) * t_conj[:, None, :]).sum(axis=2) / size[:, None]
    # (an order whose best scale is nought, the pips no turn of the pattern, fits worst)
    worst = abs(a[:, :, None] * t[:, None, :] + mean - found).max(axis=2)
    worst /= np.maximum(abs(a), 1e-9)
    best = None
    for way, k in enumerate(worst.argmin(axis=1).tolist()):
        if best is None or worst[way, k] < best[0]:
            ak = a[way, k]
            centre = mean - ak * middles[way]
            best = (float(worst[way, k]), float(abs(ak)), float(np.angle(ak)), centre)
    residual, spacing, angle, centre = best
    return n + lost, residual, spacing, angle, np.array([centre.real, centre.imag])


class _Rays:
    """Rays cast from many faces, gathered and sampled at once. `add` takes a block of faces
    (one row each: centre, start, stop, face colour, threshold) and their rays' directions,
    shared (k, 2) or each face's own (m, k, 2), and returns a handle; `run` then
    `result(handle)` gives each face's distances, (m, k)."""

    def __init__(self) -> None:
        self._rays: list[np.ndarray] = []
        self._dirs: list[np.ndarray] = []

    def add(self, centre, dirs, start, stop, face_bgr, threshold) -> tuple[int, int]:
        m, k = len(centre), dirs.shape[-2]
        # One row per face (float32 colours are exact as float64), then one per ray.
        faces = np.empty((m, 8))
        faces[:, :2], faces[:, 2], faces[:, 3] = centre, start, stop
        faces[:, 4:7], faces[:, 7] = face_bgr, threshold
        self._rays.append(faces.repeat(k, axis=0))
        # Directions shared (k, 2) are every face's; (m, k, 2) are each face's own.
        each = dirs if dirs.ndim == 3 else dirs[None].repeat(m, axis=0)
        self._dirs.append(each.reshape(-1, 2))
        return len(self._rays) - 1, k

    def run(self, bgr) -> None:
        self._dist = kernels.rays(bgr, np.concatenate(self._rays), np.concatenate(self._dirs))
        self._ends = list(accumulate(len(r) for r in self._rays))

    def result(self, handle: tuple[int, int]) -> np.ndarray:
        block, k = handle
        end = self._ends[block]
        return self._dist[end - len(self._rays[block]) : end].reshape(-1, k)


class _Probes:
    """Points to test against their faces' colours, gathered from every face and tested at
    once: `pip` (looks like the pip rather than the face) or `face` (has the face's colour).
    `add` takes a block of faces (points (m, ..., 2) and their `colours` rows) and returns a
    handle; `run` then `result(handle)` gives the answers, shaped as the points without
    their last axis."""

    def __init__(self) -> None:
        self._todo: dict[str, list[tuple]] = {"pip": [], "face": []}

    @staticmethod
    def colours(face_bgr, contrast, pip_bgr) -> np.ndarray:
        """A row per face of what its probes are tested against, worked out once for all its
        probes: face colour, pip colour, then the limits of `pip` and `face` (worked out in
        float64, then compared in float32)."""
        rows = np.empty((len(face_bgr), 8), np.float32)
        rows[:, :3], rows[:, 3:6] = face_bgr, pip_bgr
        rows[:, 6], rows[:, 7] = 0.5 * contrast, np.minimum(0.25 * contrast, 30.0)
        return rows

    def add(self, kind: str, points, colours) -> tuple:
        todo = self._todo[kind]
        per_face = points.size // (2 * len(points))
        todo.append((points.reshape(-1, 2), colours.repeat(per_face, axis=0)))
        return kind, len(todo) - 1, points.shape[:-1]

    def run(self, bgr) -> None:
        self._answers = {
            kind: self._test(bgr, todo, kind == "pip") for kind, todo in self._todo.items()
        }

    def result(self, handle: tuple) -> np.ndarray:
        kind, k, shape = handle
        return self._answers[kind][k].reshape(shape)

    @staticmethod
    def _test(bgr, todo: list[tuple], pip: bool) -> list[np.ndarray]:
        """The answers for each block of points, each point with its face's `colours` row.
        A probe often lies on a half pixel exactly (pips lie on a grid of half pixels), where
        the last bit of a fitted face's spacing or angle, in which BLAS and libm builds
        differ, would tip it into the pixel on either side: kernels.probes first snaps places
        to 1/2**20 px (exactly, a power of two), so every build takes the same pixel."""
        if not todo:
            return []
        points = np.concatenate([pts for pts, _ in todo])
        faces = np.concatenate([f for _, f in todo])
        answer = kernels.probes(bgr, points, faces, pip, SATURATED)
        ends = list(accumulate(len(pts) for pts, _ in todo))
        return [answer[e - len(pts) : e] for (pts, _), e in zip(todo, ends, strict=True)]


_GRID = {(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
# Where a face of n pips has none, in pip spacings.
_EMPTY = {
    n: np.array(sorted(_GRID - {(round(u), round(v)) for u, v in t}), float)
    for n, t in TEMPLATES.items()
}
# (where another pip would be, a point between it and the found pips) around a fitted 2
_BEYOND_TWO = np.array(
    [
        [(3, 3), (2, 2)],
        [(-3, -3), (-2, -2)],
        [(1, -3), (0, -2)],
        [(3, -1), (2, 0)],
        [(-1, 3), (0, 2)],
        [(-3, 1), (-2, 0)],
    ],
    float,
)
_AXES = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]], float)
_DIAG = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], float) / math.sqrt(2)
_EIGHT = np.vstack([_AXES, _DIAG])
_SIXTEEN = np.array([(math.cos(a), math.sin(a)) for a in np.arange(16) * math.pi / 8])
_CIRCLE32 = np.array([(math.cos(a), math.sin(a)) for a in np.arange(32) * math.pi / 16])


def _kept_middles(values: np.ndarray, keep: np.ndarray, default: np.ndarray) -> np.ndarray:
    """`middle(row[kept])` of each row of (m, k) finite values, `default` where none is kept."""
    ordered = np.where(keep, values, np.inf)
    ordered.sort(axis=1)  # the kept ones first
    n = keep.sum(axis=1)
    rows = np.arange(len(values))
    mid = (ordered[rows, np.maximum(n - 1, 0) // 2] + ordered[rows, n // 2]) / 2
    return np.where(n > 0, mid, default)


class _PipRows:
    """The pips of many faces, one row per face padded to the most pips: `middles` and
    `largest` of a pip value per face, all faces at once."""

    def __init__(self, faces: list[Face]) -> None:
        self.counts = np.array([len(face.pips) for face in faces])
        self.valid = np.arange(self.counts.max()) < self.counts[:, None]
        self.padding = ~self.valid
        self.idx = np.zeros(self.valid.shape, int)
        self.idx[self.valid] = np.concatenate([face.pips for face in faces])
        # Where each row's middle two values lie once sorted (one and the same for odd counts)
        self.at_middle = np.arange(len(faces)), (self.counts - 1) // 2, self.counts // 2

    def _rows(self, values: np.ndarray, pad: float) -> np.ndarray:
        got = values[self.idx]
        got[self.padding] = pad
        return got

    def middles(self, values: np.ndarray) -> np.ndarray:
        """`middle(values[face.pips])` of each face (its pips first, the padding after)."""
        if self.valid.shape[1] == 1:
            return values[self.idx[:, 0]]  # the middle of one value is that value
        ordered = self._rows(values, np.inf)
        ordered.sort(axis=1)
        rows, low, high = self.at_middle
        return (ordered[rows, low] + ordered[rows, high]) / 2

    def largest(self, values: np.ndarray) -> np.ndarray:
        return self._rows(values, -np.inf).max(axis=1)


class _Block:
    """Faces measured together, a row for each: `cast` their rays, then `ask` their probes,
    then `conclude`."""

    def __init__(self, faces: list[Face], pips: Pips, dp: DiceParams) -> None:
        self.faces, self.pips, self.dp = faces, pips, dp
        self.rows = _PipRows(faces)
        self.centre = np.array([face.centre for face in faces], float)
        # The middles of the pips' face colour, pip colour, contrast and radius (all float32,
        # as the middles are worked out in), sorted all at once.
        table = [pips.face_bgr, pips.pip_bgr, pips.contrast[:, None], pips.r[:, None]]
        mid = self.rows.middles(np.concatenate(table, axis=1))
        self.face_bgr, self.pip_bgr = mid[:, :3], mid[:, 3:6]
        self.contrast, self.pip_r = mid[:, 6].astype(float), mid[:, 7]
        self.threshold = np.maximum(dp.edge_min, dp.edge_tolerance * self.contrast)

    def _cast(self, rays: _Rays, dirs, start, stop) -> tuple[int, int]:
        return rays.add(self.centre, dirs, start, stop, self.face_bgr, self.threshold)

    def _finish(self, dist, dirs, good, missing) -> None:
        """Each face's edge score, box (from its rays, `good` or not) and flags."""
        # Where a ray met no edge, the box reaches as far as the rays that met it (in most
        # blocks every ray met one).
        reach = dist
        finite = np.isfinite(dist)
        if not finite.all():
            r_max = self.rows.largest(self.pips.r).astype(float)
            fallback = _kept_middles(dist, good, 3.0 * r_max)
            reach = np.where(finite, dist, fallback[:, None])
        pts = self.centre[:, None, :] + reach[..., None] * dirs
        low, high = pts.min(axis=1).astype(int), np.ceil(pts.max(axis=1)).astype(int)
        boxes = np.concatenate([low, high], axis=1)
        for face, score, box, contrast, miss in zip(
            self.faces,
            (good.sum(axis=1) / good.shape[1]).tolist(),  # np.mean's value, quicker
            boxes.tolist(),
            self.contrast.tolist(),
            missing.tolist(),
            strict=True,
        ):
            face.edge_score, face.box, face.contrast, face.missing_pip = (
                score,
                tuple(box),
                contrast,
                miss,
            )


def _squashes(dist: np.ndarray, good: np.ndarray) -> list[float]:
    """`_squash_of` the outline that the `good` rays of each row of (m, 16) distances along
    `_SIXTEEN` draw. Rows with as many good rays are worked out together."""
    if not len(dist):
        return []
    counts = good.sum(axis=1)
    groups, outlines = [], []
    for count in sorted(set(counts.tolist())):
        rows = (counts == count).nonzero()[0]
        groups.append(rows)
        at = good[rows]
        # The good rays' directions, taken by their columns (np.broadcast_to is slow).
        dirs_at = _SIXTEEN[at.nonzero()[1]].reshape(-1, count, 2)
        outlines.append(dist[rows][at].reshape(-1, count, 1) * dirs_at)
    squash = np.empty(len(dist))
    squash[np.concatenate(groups)] = _squash_of(outlines)
    return squash.tolist()


def _squash_of(outlines: list[np.ndarray]) -> np.ndarray:
    """Short over long axis of each outline of each block (m, points, 2), all their spreads'
    axes at once."""
    spreads = []
    for outline in outlines:
        # about its middle (np.mean's value, quicker)
        about = outline - outline.sum(axis=1, keepdims=True) / outline.shape[1]
        spreads.append(about.transpose(0, 2, 1) @ about)
    low, high = np.linalg.eigvalsh(np.concatenate(spreads)).T  # each matrix's own
    return np.sqrt(np.maximum(low, 0.0) / high)


class _Ones(_Block):
    """Lone pips: the middle of a 1, or one pip of a face whose other pips were missed?"""

    def cast(self, rays: _Rays) -> None:
        _, hi = self.dp.one_pip_size
        self.pip = self.rows.idx[:, 0]
        r = self.r = self.pips.r[self.pip].astype(float)
        self.edge_rays = self._cast(rays, _SIXTEEN, 2.0 * r + 2, hi * r + 2)
        # From just past the pip, for what lies next to it.
        self.near_rays = self._cast(rays, _SIXTEEN, 1.3 * r + 1, hi * r + 2)

    def ask(self, rays: _Rays, probes: _Probes) -> None:
        r, centre = self.r, self.centre[:, None, :]
        colours = _Probes.colours(self.face_bgr, self.contrast, self.pips.pip_bgr[self.pip])
        # A lone pip with other pips around it is a face whose other pips were missed.
        # Walk out from just past the pip: is the first thing met a spot of pip colour
        # with face again beyond it (another pip), rather than the die's edge?
        near = rays.result(self.near_rays)
        reach = np.where(np.isfinite(near), near, 0.0)
        # Two steps past where the ray stopped, and one most of a pip's width past it: a
        # seam between two dice touching is dark like a pip, but thin.
        across = np.empty((len(r), 3))  # (np.column_stack is slow)
        across[:, 0], across[:, 1], across[:, 2] = 1.0, 2.0, 1 + 0.8 * r
        steps = (reach[..., None] + across[:, None, :])[..., None]
        ahead = centre[:, :, None, :] + steps * _SIXTEEN[:, None, :]
        beyond = centre + (reach + (2.2 * r)[:, None] + 1)[..., None] * _SIXTEEN
        # A pip is one colour inside; a whole small die taken for a pip has its pips in it.
        inner = centre + (0.55 * r)[:, None, None] * _EIGHT
        # The middle pip of a 3 or 5 has its corner pips about 0.7 of the way to the
        # die's edge, in the directions of its corners.
        edge = rays.result(self.edge_rays)
        to_edge = _kept_middles(edge, np.isfinite(edge), np.zeros(len(edge)))
        corners = centre + (0.7 * to_edge)[:, None, None] * _CIRCLE32
        self.asked = (
            probes.add("pip", ahead, colours),
            probes.add("face", beyond, colours),
            probes.add("pip", inner, colours),
            probes.add("pip", corners, colours),
        )

    def conclude(self, rays: _Rays, probes: _Probes) -> None:
        lo, _ = self.dp.one_pip_size
        dist, near = rays.result(self.edge_rays), rays.result(self.near_rays)
        finite = np.isfinite(dist)
        good = (dist >= lo * self.r[:, None]) & finite
        # Rays that meet edges at wildly different distances did not find one die's
        # edge; one short ray (a shading step on the face) is not enough to say so.
        ordered = dist.copy()
        ordered.sort(axis=1)  # the finite ones first
        n = finite.sum(axis=1)
        second_last = ordered[np.arange(len(dist)), np.maximum(n - 2, 0)]
        good &= ~((n >= 12) & (second_last > 3.0 * ordered[:, 1]))[:, None]
        like_ahead, face_beyond, inside_pip, at_corners = (probes.result(h) for h in self.asked)
        met = np.isfinite(near) & like_ahead[..., :2].any(axis=2) & like_ahead[..., 2] & face_beyond
        # A ray that meets no face before it stops is still on the pip (past a glint on it,
        # which made the pip measure small), not at another pip.
        met &= near > (1.3 * self.r + 1)[:, None]
        # A 1 sits in the middle of its face: opposite edges are as far. A pip whose face
        # extends much further on one side is a corner pip of a face whose others hid.
        both = finite[:, :8] & finite[:, 8:]
        a, b = np.where(both, dist[:, :8], 0.0), np.where(both, dist[:, 8:], 0.0)
        lopsided = (both & (np.abs(a - b) > 0.35 * (a + b))).any(axis=1)
        missing = met.any(axis=1) | lopsided
        missing |= ((~inside_pip).sum(axis=1) >= 2) | (at_corners.sum(axis=1) >= 3)
        # Rays that leave the face at once, all round, saw no die's edge: the face around
        # the pip is not of one colour (a glossy or marbled die), and tells nothing.
        at_once = dist <= (2.0 * self.r + 2)[:, None]
        missing |= at_once.sum(axis=1) >= 12
        # Nor does a ray that leaves it at once here and there (a shade on a white face): the
        # others draw the die's outline, if most of it, lopsided or not.
        shaped = good & ~at_once
        drawn = (shaped.sum(axis=1) >= 12).nonzero()[0]
        # How square a 1's die looks, from its outline rather than from its pip, which a
        # glint can make look long. (Not for a pip with a lopsided face around it: a pip on
        # a side face has the whole die around it.)
        outlined = ((good.sum(axis=1) >= 12) & ~lopsided).nonzero()[0]
        # Both outlines' squashes at once, the drawn ones first.
        squashes = _squashes(
            np.concatenate([dist[drawn], dist[outlined]]),
            np.concatenate([shaped[drawn], good[outlined]]),
        )
        for k, squash in zip(drawn.tolist(), squashes[: len(drawn)], strict=True):
            self.faces[k].outline = squash
        for k, squash in zip(outlined.tolist(), squashes[len(drawn) :], strict=True):
            self.faces[k].squash = squash
        self._finish(dist, _SIXTEEN, good, missing)


def _empty_table() -> tuple[np.ndarray, np.ndarray]:
    """_EMPTY of the faces of two pips or more as one table, a row per face value padded
    to the longest (value, point, xy), and which of its points are real."""
    at = np.zeros((7, max(len(e) for n, e in _EMPTY.items() if n > 1), 2))
    real = np.zeros(at.shape[:2], bool)
    for n, empty in _EMPTY.items():
        if n > 1:
            at[n, : len(empty)], real[n, : len(empty)] = empty, True
    return at, real


_EMPTY_AT, _EMPTY_REAL = _empty_table()


class _Patterns(_Block):
    """Faces of two pips or more: does the die's edge lie where the pattern puts it, and is
    anything pip-like where the pattern has no pip?"""

    def cast(self, rays: _Rays) -> None:
        s = np.array([face.spacing for face in self.faces], float)
        # Each face's rotation, transposed: rows (cos, sin) and (-sin, cos). From math's cos
        # and sin, which numpy's may differ from in the last bit.
        cos = np.array([math.cos(face.angle) for face in self.faces])
        sin = np.array([math.sin(face.angle) for face in self.faces])
        self.turn = np.empty((len(s), 2, 2))
        self.turn[:, 0, 0], self.turn[:, 0, 1] = cos, sin
        self.turn[:, 1, 0], self.turn[:, 1, 1] = -sin, cos
        self.spacing, self.half = s, _HALF_FACE * s
        self.dirs = np.concatenate([_AXES @ self.turn, _DIAG @ self.turn], axis=1)  # (m, 8, 2)
        half = self.half
        self.axes_rays = self._cast(rays, self.dirs[:, :4], 1.45 * s, 1.6 * half + 2)
        self.diag_rays = self._cast(rays, self.dirs[:, 4:], 1.85 * s, 1.6 * half * 1.3 + 2)

    def ask(self, rays: _Rays, probes: _Probes) -> None:
        n = self.n = np.array([face.face for face in self.faces])
        centre = self.centre[:, None, :]
        colours = _Probes.colours(self.face_bgr, self.contrast, self.pip_bgr)
        to_image = self.turn * self.spacing[:, None, None]  # pip spacings -> pixels
        self.asked = {"empty": probes.add("pip", centre + _EMPTY_AT[n] @ to_image, colours)}
        self.twos = (n == 2).nonzero()[0]
        if len(self.twos):
            # Two pips of a 3 (centre and corner) or two side by side of a 4, 5 or 6 also
            # fit a smaller 2: a pip beyond them, with face between, means more than two.
            c, at, mine = centre[self.twos], to_image[self.twos], colours[self.twos]
            beyond, between = c + _BEYOND_TWO[:, 0] @ at, c + _BEYOND_TWO[:, 1] @ at
            self.asked["beyond"] = probes.add("pip", beyond, mine)
            self.asked["between"] = probes.add("face", between, mine)

    def conclude(self, rays: _Rays, probes: _Probes) -> None:
        half = self.half[:, None]
        d_axes, d_diag = rays.result(self.axes_rays), rays.result(self.diag_rays)
        good = np.concatenate(
            [
                (d_axes >= 0.7 * half) & np.isfinite(d_axes),
                (d_diag >= 0.85 * half) & np.isfinite(d_diag),
            ],
            axis=1,
        )
        answer = {what: probes.result(handle) for what, handle in self.asked.items()}
        empty = answer["empty"] & _EMPTY_REAL[self.n]
        beyond = np.zeros(len(good), bool)
        if len(self.twos):
            beyond[self.twos] = (answer["beyond"] & answer["between"]).any(axis=1)
        missing = empty.any(axis=1) | beyond
        dist = np.concatenate([d_axes, d_diag], axis=1)
        # A face of three pips or fewer has no pattern to tell how square it looks: its
        # pips do, which a glint makes look long. Where the die's edge lies all round, the
        # outline tells too.
        outlined = ((self.n <= 3) & good.all(axis=1)).nonzero()[0]
        if len(outlined):
            # All their rays are good: no need to pick them out.
            squashes = _squash_of([dist[outlined, :, None] * self.dirs[outlined]]).tolist()
            for k, squash in zip(outlined.tolist(), squashes, strict=True):
                self.faces[k].outline = squash
        self._finish(dist, self.dirs, good, missing)


def measure(bgr, faces: list[Face], pips: Pips, dp: DiceParams) -> None:
    """Check each face against the image around it. Sets `edge_score` (share of rays that
    meet the die's edge where the pattern says it is), `box`, `contrast`, and `missing_pip`
    (something pip-like where the pattern has no pip: a 3 whose middle pip hid would read as
    a 2, so the face cannot be trusted) and, from the die's outline, `squash` for a 1 on an
    even face and `outline` for a 1, 2 or 3. The 1s are measured together, and the other
    faces together; all faces' rays, then all their probes, are sampled at once."""
    ones = [face for face in faces if face.face == 1]
    others = [face for face in faces if face.face != 1]
    blocks = [kind(of, pips, dp) for kind, of in ((_Ones, ones), (_Patterns, others)) if of]
    if not blocks:
        return
    rays, probes = _Rays(), _Probes()
    for block in blocks:
        block.cast(rays)
    rays.run(bgr)
    for block in blocks:
        block.ask(rays, probes)
    probes.run(bgr)
    for block in blocks:
        block.conclude(rays, probes)
