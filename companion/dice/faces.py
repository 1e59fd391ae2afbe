"""From pip candidates to die faces: group the pips of one face, fit the pip pattern,
and check that a die's edge surrounds the pattern where a die's edge should be."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.dice.pips import Pips
from companion.dice.profile import DiceParams, FaceParams
from companion.dice.synth import PIP_LAYOUT, PIP_OFFSET

# Pip layouts in units of the pip spacing (corner pips at (+-1, +-1)).
TEMPLATES = {n: np.array(pts) / PIP_OFFSET for n, pts in PIP_LAYOUT.items()}
_HALF_FACE = 0.5 / PIP_OFFSET  # the face's half-width in pip spacings
ROUND_PIP = 1.25  # longest/shortest width of a pip seen from above


def _within(a: np.ndarray, lo, hi) -> np.ndarray:
    """np.clip without its per-call overhead (it is called on small arrays, often)."""
    return np.minimum(np.maximum(a, lo), hi)


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


def middle(values: np.ndarray) -> np.ndarray:
    """Median along the first axis; np.median is slow on the handful of values a face has."""
    ordered = np.sort(values, axis=0)
    n = len(values)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def _union_find_groups(n: int, pairs: list[tuple[int, int]]) -> list[np.ndarray]:
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in pairs:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[ri] = rj
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return [np.array(g) for g in groups.values()]


def _paths_clear(bgr, pips: Pips, ii: np.ndarray, jj: np.ndarray, fp: FaceParams) -> np.ndarray:
    """For each pair of pips, is the straight path between them all face (no gap, seam or
    background)? Every path is sampled about every 1.5 px, skipping each pip's blurred rim."""
    a, b = pips.xy[ii], pips.xy[jj]
    d = np.hypot(*(b - a).T)
    t0 = (1.8 * pips.r[ii] + 2) / d
    t1 = 1 - (1.8 * pips.r[jj] + 2) / d
    clear = np.ones(len(ii), bool)
    todo = np.flatnonzero(t1 > t0)
    if not len(todo):
        return clear
    t0, t1, d = t0[todo], t1[todo], d[todo]
    counts = np.maximum(2, ((t1 - t0) * d / 1.5).astype(int))
    pair = np.repeat(np.arange(len(todo)), counts)
    # k-th of m samples at t0 + k (t1 - t0) / (m - 1), as np.linspace places them
    k = np.arange(len(pair)) - np.repeat(np.cumsum(counts) - counts, counts)
    ts = t0[pair] + k * ((t1 - t0) / (counts - 1))[pair]
    src, dst = a[todo][pair], b[todo][pair]
    pts = src + ts[:, None] * (dst - src)
    px = np.round(pts[:, 0]).astype(int)
    py = np.round(pts[:, 1]).astype(int)
    i, j = ii[todo], jj[todo]
    face = (pips.face_bgr[i] + pips.face_bgr[j]) / 2
    limit = np.minimum(
        fp.colour_tolerance, fp.path_tolerance * np.minimum(pips.contrast[i], pips.contrast[j])
    )
    colour = np.linalg.norm(bgr[py, px].astype(np.float32) - face[pair], axis=1)
    worst = np.zeros(len(todo), np.float32)
    np.maximum.at(worst, pair, colour)
    clear[todo] = worst <= limit
    return clear


def group(bgr, pips: Pips, fp: FaceParams) -> list[np.ndarray]:
    n = len(pips)
    if n == 0:
        return []
    xy, r = pips.xy, pips.r
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    rmax = np.maximum(r[:, None], r[None, :])
    rmin = np.minimum(r[:, None], r[None, :])
    colour = np.linalg.norm(pips.face_bgr[:, None, :] - pips.face_bgr[None, :, :], axis=2)
    pip_colour = np.linalg.norm(pips.pip_bgr[:, None, :] - pips.pip_bgr[None, :, :], axis=2)
    elong = pips.elongation
    flat = elong <= fp.max_pip_elongation  # longer pips lie on side faces seen edge-on
    alike = (
        flat[:, None]
        & flat[None, :]
        & (np.maximum.outer(elong, elong) <= 1.4 * np.minimum.outer(elong, elong))
        & (rmax <= fp.radius_ratio * rmin)
        & (colour <= fp.colour_tolerance)
        & (pips.polarity[:, None] == pips.polarity[None, :])
        & (pip_colour <= 2 * fp.colour_tolerance)
    )
    ii, jj = np.nonzero(np.triu(alike & (d <= fp.link_distance * rmax), 1))
    clear = _paths_clear(bgr, pips, ii, jj, fp)
    ii, jj = ii[clear], jj[clear]
    # The two pips of a 2 are the farthest apart of any face and, blurred, measure small:
    # a round pip linked to nothing may reach further, to another such pip. Round, because
    # in an oblique view a top pip and a side pip of one die can look like a 2.
    alone = elong <= ROUND_PIP
    alone[ii] = alone[jj] = False
    far = alike & (d <= fp.two_link_distance * rmax) & alone[:, None] & alone[None, :]
    fi, fj = np.nonzero(np.triu(far, 1))
    clear = _paths_clear(bgr, pips, fi, fj, fp)
    ii, jj = np.concatenate([ii, fi[clear]]), np.concatenate([jj, fj[clear]])
    pairs = list(zip(ii.tolist(), jj.tolist(), strict=True))
    return [g for g in _union_find_groups(n, pairs) if flat[g].all()]


def _rot(a: float) -> np.ndarray:
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


_AFFINE_SRC = {n: np.hstack([t, np.ones((len(t), 1))]) for n, t in TEMPLATES.items()}
_AFFINE_SOLVE = {n: np.linalg.pinv(src) for n, src in _AFFINE_SRC.items()}


def fit(points: np.ndarray) -> tuple[float, float, float, float, np.ndarray] | None:
    """Fit the pattern of len(points) pips. Returns (residual, spacing, angle, squash, centre)
    or None when the count has no pattern. Residual and squash use an affine fit when the
    pattern has enough pips, so a face seen at an angle still fits."""
    n = len(points)
    if n not in TEMPLATES or n < 2:
        return None
    tpl = TEMPLATES[n]
    centre = points.mean(axis=0)
    rel = points - centre
    far = int(np.argmax(np.hypot(rel[:, 0], rel[:, 1])))
    spacing = float(np.hypot(*rel[far])) / math.sqrt(2)
    if spacing < 1e-6:
        return None
    base = math.atan2(rel[far, 1], rel[far, 0]) - math.pi / 4
    # The four ways the pattern can sit (quarter turns), all at once: (4, n, 2) predictions.
    angles = base + np.arange(4) * (math.pi / 2)
    cos, sin = np.cos(angles) * spacing, np.sin(angles) * spacing
    px = tpl[:, 0] * cos[:, None] - tpl[:, 1] * sin[:, None]
    py = tpl[:, 0] * sin[:, None] + tpl[:, 1] * cos[:, None]
    costs = np.hypot(px[:, :, None] - rel[:, 0], py[:, :, None] - rel[:, 1])  # (4, n, n)
    best = None
    ranked = np.argsort(costs.reshape(4, -1), axis=1).tolist()
    cost_of = costs.tolist()
    for k in range(4):
        order = _assign(ranked[k], n)
        residual = max(cost_of[k][i][j] for i, j in enumerate(order)) / spacing
        if best is None or residual < best[0]:
            best = (residual, float(angles[k]), order)
    residual, angle, order = best
    order = np.array(order)
    squash = 1.0
    if n >= 4:
        matched = points[order]
        sol = _AFFINE_SOLVE[n] @ matched  # least-squares affine map, template -> image
        a, b, c, d = sol[0, 0], sol[1, 0], sol[0, 1], sol[1, 1]
        # singular values of the 2x2 linear part, in closed form
        fro = a * a + b * b + c * c + d * d
        det = abs(a * d - b * c)
        big = math.sqrt((fro + math.sqrt(max(fro * fro - 4 * det * det, 0.0))) / 2)
        small = det / big if big > 0 else 0.0
        squash = small / big if big > 0 else 0.0
        err = np.hypot(*(_AFFINE_SRC[n] @ sol - matched).T).max()
        area = math.sqrt(big * small)
        residual = min(residual, float(err) / area) if area > 0 else residual
        spacing = area
    return residual, spacing, angle, squash, centre


def _assign(ranked: list[int], n: int) -> list[int]:
    """Template point -> detected point, greedily by increasing distance (n <= 6). `ranked`
    is the flat (template * n + detected) cost matrix's indices, cheapest first."""
    order = [-1] * n
    used = [False] * n
    left = n
    for flat in ranked:
        i, j = divmod(flat, n)
        if order[i] < 0 and not used[j]:
            order[i] = j
            used[j] = True
            left -= 1
            if not left:
                break
    return order


def _rays(bgr, centre, face_bgr, directions, start, stop, threshold):
    """Distance along each ray where the colour first leaves the face colour (inf if never)."""
    h, w = bgr.shape[:2]
    steps = np.arange(start, stop, 1.0)
    pts = centre[None, None, :] + steps[None, :, None] * directions[:, None, :]
    pix = np.round(pts).astype(int)
    clipped = _within(pix, 0, (w - 1, h - 1))
    outside = (pix != clipped).any(axis=-1)
    diff = bgr[clipped[..., 1], clipped[..., 0]].astype(np.float32) - face_bgr
    away = (np.einsum("...c,...c->...", diff, diff) > threshold * threshold) | outside
    hit = away.argmax(axis=1)
    return np.where(away.any(axis=1), steps[hit], np.inf)


_GRID = {(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
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


def _pip_like(bgr, points, face_bgr, pip_bgr, contrast) -> np.ndarray:
    """Which points look like a pip rather than the face."""
    h, w = bgr.shape[:2]
    px = _within(np.round(points[..., 0]).astype(int), 0, w - 1)
    py = _within(np.round(points[..., 1]).astype(int), 0, h - 1)
    colour = bgr[py, px].astype(np.float32)
    from_face = np.linalg.norm(colour - face_bgr, axis=-1)
    from_pip = np.linalg.norm(colour - pip_bgr, axis=-1)
    return (from_face > 0.5 * contrast) & (from_pip < from_face)


def _face_like(bgr, points, face_bgr, contrast) -> np.ndarray:
    h, w = bgr.shape[:2]
    px = _within(np.round(points[..., 0]).astype(int), 0, w - 1)
    py = _within(np.round(points[..., 1]).astype(int), 0, h - 1)
    distance = np.linalg.norm(bgr[py, px].astype(np.float32) - face_bgr, axis=-1)
    return distance < min(0.25 * contrast, 30.0)


def check_missing(bgr, face: Face, pips: Pips) -> None:
    """Look where the fitted pattern has no pip: a pip there means pips were missed (a 3
    whose middle pip hid would read as a 2), so the face cannot be trusted."""
    if face.face == 1:
        return  # done along the edge rays, where the die's extent is known
    idx = face.pips
    face_bgr = middle(pips.face_bgr[idx])
    pip_bgr = middle(pips.pip_bgr[idx])
    used = {(round(u), round(v)) for u, v in TEMPLATES[face.face]}
    empty = np.array(sorted(_GRID - used), float)
    to_image = (_rot(face.angle) * face.spacing).T
    pts = face.centre + empty @ to_image
    face.missing_pip = bool(_pip_like(bgr, pts, face_bgr, pip_bgr, face.contrast).any())
    if face.face == 2:
        # Two pips of a 3 (centre and corner) or two side by side of a 4, 5 or 6 also fit a
        # smaller 2: a pip beyond them, with face between, means more pips than two.
        beyond = face.centre + _BEYOND_TWO[:, 0] @ to_image
        between = face.centre + _BEYOND_TWO[:, 1] @ to_image
        pip_there = _pip_like(bgr, beyond, face_bgr, pip_bgr, face.contrast)
        face_between = _face_like(bgr, between, face_bgr, face.contrast)
        face.missing_pip |= bool((pip_there & face_between).any())


_AXES = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]], float)
_DIAG = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], float) / math.sqrt(2)
_EIGHT = np.vstack([_AXES, _DIAG])
_SIXTEEN = np.array([(math.cos(a), math.sin(a)) for a in np.arange(16) * math.pi / 8])


def measure_edges(bgr, face: Face, pips: Pips, dp: DiceParams) -> None:
    """Find the die's edge around a face: sets `edge_score` (share of rays that meet the
    edge where the pattern says it is) and `box`."""
    idx = face.pips
    face_bgr = middle(pips.face_bgr[idx])
    contrast = float(middle(pips.contrast[idx]))
    threshold = max(dp.edge_min, dp.edge_tolerance * contrast)
    if face.face == 1:
        r = float(pips.r[idx[0]])
        lo, hi = dp.one_pip_size
        dirs = _SIXTEEN
        start = 2.0 * r + 2
        dist = _rays(bgr, face.centre, face_bgr, dirs, start, hi * r + 2, threshold)
        good = (dist >= lo * r) & np.isfinite(dist)
        # Rays that meet edges at wildly different distances did not find one die's edge;
        # one short ray (a shading step on the face) is not enough to say so.
        finite = np.sort(dist[np.isfinite(dist)])
        if len(finite) >= 12 and finite[-2] > 3.0 * finite[1]:
            good &= False
        # A lone pip with other pips around it is a face whose other pips were missed.
        # Walk out from just past the pip: is the first thing met a spot of pip colour with
        # face again beyond it (another pip), rather than the die's edge?
        near = _rays(bgr, face.centre, face_bgr, dirs, 1.3 * r + 1, hi * r + 2, threshold)
        met = np.isfinite(near)
        reach = np.where(met, near, 0.0)[:, None]
        ahead = face.centre + (reach + np.array([[1.0, 2.0]]))[..., None] * dirs[:, None, :]
        beyond = face.centre + (reach[:, 0] + 2.2 * r + 1)[:, None] * dirs
        like = _pip_like(bgr, ahead, face_bgr, pips.pip_bgr[idx[0]], contrast).any(axis=1)
        met &= like & _face_like(bgr, beyond, face_bgr, contrast)
        face.missing_pip = bool(met.any())
        # A 1 sits in the middle of its face: opposite edges are as far. A pip whose face
        # extends much further on one side is a corner pip of a face whose others hid.
        a, b = dist[:8], dist[8:]
        both = np.isfinite(a) & np.isfinite(b)
        lopsided = np.abs(a[both] - b[both]) > 0.35 * (a[both] + b[both])
        face.missing_pip |= bool(lopsided.any())
        # A pip is one colour inside; a whole small die taken for a pip has its pips in it.
        inner = face.centre + 0.55 * r * _EIGHT
        pip_bgr = pips.pip_bgr[idx[0]]
        inside_pip = _pip_like(bgr, inner, face_bgr, pip_bgr, contrast)
        face.missing_pip |= bool((~inside_pip).sum() >= 2)
    else:
        s = face.spacing
        rot = _rot(face.angle)
        half = _HALF_FACE * s
        axes = _AXES @ rot.T
        diag = _DIAG @ rot.T
        d_axes = _rays(bgr, face.centre, face_bgr, axes, 1.45 * s, 1.6 * half + 2, threshold)
        d_diag = _rays(bgr, face.centre, face_bgr, diag, 1.85 * s, 1.6 * half * 1.3 + 2, threshold)
        good = np.concatenate(
            [
                (d_axes >= 0.7 * half) & np.isfinite(d_axes),
                (d_diag >= 0.85 * half) & np.isfinite(d_diag),
            ]
        )
        dirs = np.vstack([axes, diag])
        dist = np.concatenate([d_axes, d_diag])
    face.edge_score = float(good.mean())
    face.contrast = contrast
    fallback = float(middle(dist[good])) if good.any() else 3.0 * float(pips.r[idx].max())
    reach = np.where(np.isfinite(dist), dist, fallback)
    pts = face.centre[None, :] + reach[:, None] * dirs
    x1, y1 = pts.min(axis=0)
    x2, y2 = pts.max(axis=0)
    face.box = (int(x1), int(y1), math.ceil(x2), math.ceil(y2))
