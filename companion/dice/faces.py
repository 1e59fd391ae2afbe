"""From pip candidates to die faces: group the pips of one face, fit the pip pattern,
and check that a die's edge surrounds the pattern where a die's edge should be."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from companion.dice.pips import Pips, pixels, shade_distance
from companion.dice.profile import DiceParams, FaceParams
from companion.dice.synth import PIP_LAYOUT, PIP_OFFSET

# Pip layouts in units of the pip spacing (corner pips at (+-1, +-1)).
TEMPLATES = {n: np.array(pts) / PIP_OFFSET for n, pts in PIP_LAYOUT.items()}
_HALF_FACE = 0.5 / PIP_OFFSET  # the face's half-width in pip spacings
SATURATED = 0.4  # (max - min) / max of a face's B, G, R that is of a strong colour
ROUND_PIP = 1.35  # longest/shortest width of a pip seen from above (a glint included)


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
    seen_as: int = 0  # what the pips seen around it (but not found) make it: a 3 or 5


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
    seen = pixels(bgr, px, py).astype(np.float32)
    colour = np.linalg.norm(seen - face[pair], axis=1)
    # On a die of a strong colour, a lighter swirl of that colour (a marbled die) is still
    # its face; the tray is of another colour, the seam between two dice darker.
    strong = (face.max(axis=1) - face.min(axis=1)) > SATURATED * face.max(axis=1)
    on = strong[pair]
    colour[on] = shade_distance(seen[on], face[pair][on], darker=1.0)
    worst = np.zeros(len(todo), np.float32)
    np.maximum.at(worst, pair, colour)
    clear[todo] = worst <= limit
    return clear


def _near_pairs(pips: Pips, reach: float):
    """Pairs i < j of pips no further apart than `reach` times the larger one's radius, row
    by row: (i, j, distance, larger radius, smaller radius). Only those can link, so only
    those are compared."""
    xy, r = pips.xy, pips.r
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    i, j = np.nonzero(np.triu(d <= reach * np.maximum(r[:, None], r[None, :]), 1))
    return i, j, d[i, j], np.maximum(r[i], r[j]), np.minimum(r[i], r[j])


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
        & (np.linalg.norm(pips.pip_bgr[i] - pips.pip_bgr[j], axis=1) <= 2 * fp.colour_tolerance)
    )
    colour = np.linalg.norm(pips.face_bgr[i] - pips.face_bgr[j], axis=1)
    link = shaped & (colour <= fp.colour_tolerance) & (d <= fp.link_distance * rmax)
    ii, jj = i[link], j[link]
    clear = _paths_clear(bgr, pips, ii, jj, fp)
    ii, jj = ii[clear], jj[clear]
    # The two pips of a 2 are the farthest apart of any face and, blurred, measure small:
    # a round pip linked to nothing may reach further, to another such pip. Round, because
    # in an oblique view a top pip and a side pip of one die can look like a 2.
    alone = elong <= ROUND_PIP
    alone[ii] = alone[jj] = False
    far = shaped & (d <= fp.two_link_distance * rmax) & alone[i] & alone[j]
    # Their faces may differ in shade: a 2's pips are far apart on its face.
    far[far] = shade_distance(pips.face_bgr[i[far]], pips.face_bgr[j[far]]) <= fp.colour_tolerance
    fi, fj = i[far], j[far]
    clear = _paths_clear(bgr, pips, fi, fj, fp)
    ii, jj = np.concatenate([ii, fi[clear]]), np.concatenate([jj, fj[clear]])
    pairs = list(zip(ii.tolist(), jj.tolist(), strict=True))
    return [g for g in _union_find_groups(n, pairs) if sure[g].all()]


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
        & (np.linalg.norm(pips.pip_bgr[i] - pips.pip_bgr[j], axis=1) <= fp.colour_tolerance)
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
    joined = _union_find_groups(n, pairs)
    return [g for g in joined if len(set(label[g].tolist())) >= 2 and not pips.weak[g].all()]


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
    centre = points.sum(axis=0) / n  # np.mean's value, without its overhead
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
    ranked = np.argsort(costs.reshape(4, -1), axis=1).tolist()
    orders = np.array([_assign(ranked[k], n) for k in range(4)])
    worst = costs[np.arange(4)[:, None], np.arange(n), orders].max(axis=1) / spacing
    k = int(np.argmin(worst))  # the first of equals, as a strict comparison keeps it
    residual, angle, order = float(worst[k]), float(angles[k]), orders[k]
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


def _rays(bgr, sets: list[tuple]) -> list[np.ndarray]:
    """For each set of rays (centre, face colour, directions, start, stop, threshold): the
    distance along each ray where the colour first leaves the face colour (inf if never).
    Every ray of every set is sampled at once, at whole steps from `start` up to `stop`."""
    h, w = bgr.shape[:2]
    steps = [np.arange(start, stop, 1.0) for _, _, _, start, stop, _ in sets]
    counts = [len(rays) for _, _, rays, _, _, _ in sets]
    of_set = np.repeat(np.arange(len(sets)), counts)
    grid = np.zeros((len(sets), max(len(st) for st in steps)))
    valid = np.zeros(grid.shape, bool)
    for k, st in enumerate(steps):
        grid[k, : len(st)] = st
        valid[k, : len(st)] = True
    grid, valid = grid[of_set], valid[of_set]  # (rays, longest ray)
    dirs = np.vstack([rays for _, _, rays, _, _, _ in sets])
    centre = np.array([c for c, *_ in sets])[of_set]
    px = np.round(centre[:, :1] + grid * dirs[:, :1]).astype(int)
    py = np.round(centre[:, 1:] + grid * dirs[:, 1:]).astype(int)
    cx, cy = _within(px, 0, w - 1), _within(py, 0, h - 1)
    face_bgr = np.array([f for _, f, *_ in sets], np.float32)[of_set]
    # The threshold is squared as a Python float, then compared in float32 (as numpy does
    # with a float32 array and a Python float).
    limit = np.array([t * t for *_, t in sets], np.float32)[of_set]
    diff = pixels(bgr, cx, cy).astype(np.float32) - face_bgr[:, None, :]
    away = (np.einsum("...c,...c->...", diff, diff) > limit[:, None]) | (px != cx) | (py != cy)
    away &= valid
    hit = away.argmax(axis=1)
    dist = np.where(away.any(axis=1), grid[np.arange(len(grid)), hit], np.inf)
    ends = np.cumsum(counts).tolist()
    return [dist[e - c : e] for c, e in zip(counts, ends, strict=True)]


class _Probes:
    """Points to test against a face's colours, gathered from every face and tested at once:
    `pip_like` (looks like the pip rather than the face) or `face_like` (has the face's
    colour). `add` returns a handle; `run` then `result(handle)` gives the answers."""

    def __init__(self) -> None:
        self._pip: list[tuple] = []
        self._face: list[tuple] = []

    def add(self, kind: str, points, face_bgr, contrast: float, pip_bgr=None) -> tuple:
        todo = self._pip if kind == "pip" else self._face
        todo.append((points, face_bgr, pip_bgr, contrast))
        return kind, len(todo) - 1, points.shape[:-1]

    def run(self, bgr) -> None:
        self._answers = {
            "pip": self._test(bgr, self._pip, pip=True),
            "face": self._test(bgr, self._face, pip=False),
        }

    def result(self, handle: tuple) -> np.ndarray:
        kind, k, shape = handle
        return self._answers[kind][k].reshape(shape)

    @staticmethod
    def _test(bgr, todo: list[tuple], pip: bool) -> list[np.ndarray]:
        if not todo:
            return []
        h, w = bgr.shape[:2]
        counts = [pts.size // 2 for pts, *_ in todo]
        points = np.vstack([pts.reshape(-1, 2) for pts, *_ in todo])
        px = _within(np.round(points[:, 0]).astype(int), 0, w - 1)
        py = _within(np.round(points[:, 1]).astype(int), 0, h - 1)
        colour = pixels(bgr, px, py).astype(np.float32)
        face_bgr = np.repeat(np.array([f for _, f, _, _ in todo], np.float32), counts, axis=0)
        from_face = np.linalg.norm(colour - face_bgr, axis=-1)
        # Limits are worked out as Python floats, then compared in float32.
        if pip:
            pip_bgr = np.repeat(np.array([p for _, _, p, _ in todo], np.float32), counts, axis=0)
            from_pip = np.linalg.norm(colour - pip_bgr, axis=-1)
            limit = np.repeat(np.array([0.5 * c for *_, c in todo], np.float32), counts)
            answer = (from_face > limit) & (from_pip < from_face)
        else:
            limit = np.repeat(np.array([min(0.25 * c, 30.0) for *_, c in todo], np.float32), counts)
            answer = from_face < limit
        ends = np.cumsum(counts).tolist()
        return [answer[e - c : e] for c, e in zip(counts, ends, strict=True)]


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


def _middle_of(around: np.ndarray) -> int:
    """The face a lone pip is the middle of, from which of the points on a circle around it
    look like pips: 5 for four runs a quarter turn apart, 3 for two opposite, else 0."""
    n = len(around)
    if around.all() or not around.any():
        return 0
    # Runs of pip-like points, read from the start of one.
    start = int(np.argmin(around))
    ring = np.roll(around, -start)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ring.astype(int), [0]])))
    centres = (edges[0::2] + edges[1::2] - 1) / 2 + start
    widths = edges[1::2] - edges[0::2]
    if widths.max() > n // 6:
        return 0  # a run that long is no pip
    gaps = np.diff(np.concatenate([centres, [centres[0] + n]])) * (360 / n)
    if len(centres) == 4 and np.all(np.abs(gaps - 90) <= 25):
        return 5
    if len(centres) == 2 and np.all(np.abs(gaps - 180) <= 30):
        return 3
    return 0


def measure(bgr, faces: list[Face], pips: Pips, dp: DiceParams) -> None:
    """Check each face against the image around it. Sets `edge_score` (share of rays that
    meet the die's edge where the pattern says it is), `box`, `contrast`, and `missing_pip`
    (something pip-like where the pattern has no pip: a 3 whose middle pip hid would read as
    a 2, so the face cannot be trusted), `seen_as` (the 3 or 5 those pips make) and, for a
    1 on an even face, `squash` from the die's outline. All faces' rays, then all their
    probes, are sampled at once."""
    if not faces:
        return
    lo, hi = dp.one_pip_size
    colours, sets = [], []
    for face in faces:
        idx = face.pips
        face_bgr = middle(pips.face_bgr[idx])
        face.contrast = float(middle(pips.contrast[idx]))
        threshold = max(dp.edge_min, dp.edge_tolerance * face.contrast)
        colours.append(face_bgr)
        if face.face == 1:
            r = float(pips.r[idx[0]])
            sets.append((face.centre, face_bgr, _SIXTEEN, 2.0 * r + 2, hi * r + 2, threshold))
            # From just past the pip, for what lies next to it.
            sets.append((face.centre, face_bgr, _SIXTEEN, 1.3 * r + 1, hi * r + 2, threshold))
        else:
            rot = _rot(face.angle)
            half = _HALF_FACE * face.spacing
            s = face.spacing
            sets.append((face.centre, face_bgr, _AXES @ rot.T, 1.45 * s, 1.6 * half + 2, threshold))
            sets.append(
                (face.centre, face_bgr, _DIAG @ rot.T, 1.85 * s, 1.6 * half * 1.3 + 2, threshold)
            )
    dists = _rays(bgr, sets)
    probes = _Probes()
    asked = []
    for k, face in enumerate(faces):
        idx, face_bgr, contrast = face.pips, colours[k], face.contrast
        if face.face == 1:
            r = float(pips.r[idx[0]])
            pip_bgr = pips.pip_bgr[idx[0]]
            # A lone pip with other pips around it is a face whose other pips were missed.
            # Walk out from just past the pip: is the first thing met a spot of pip colour
            # with face again beyond it (another pip), rather than the die's edge?
            near = dists[2 * k + 1]
            reach = np.where(np.isfinite(near), near, 0.0)[:, None]
            ahead = face.centre + (reach + np.array([[1.0, 2.0]]))[..., None] * _SIXTEEN[:, None, :]
            beyond = face.centre + (reach[:, 0] + 2.2 * r + 1)[:, None] * _SIXTEEN
            # A pip is one colour inside; a whole small die taken for a pip has its pips in it.
            inner = face.centre + 0.55 * r * _EIGHT
            # The middle pip of a 3 or 5 has its corner pips about 0.7 of the way to the
            # die's edge, in the directions of its corners.
            edge = dists[2 * k]
            to_edge = float(middle(edge[np.isfinite(edge)])) if np.isfinite(edge).any() else 0.0
            corners = face.centre + 0.7 * to_edge * _CIRCLE32
            asked.append(
                (
                    probes.add("pip", ahead, face_bgr, contrast, pip_bgr),
                    probes.add("face", beyond, face_bgr, contrast),
                    probes.add("pip", inner, face_bgr, contrast, pip_bgr),
                    probes.add("pip", corners, face_bgr, contrast, pip_bgr),
                )
            )
        else:
            pip_bgr = middle(pips.pip_bgr[idx])
            to_image = (_rot(face.angle) * face.spacing).T
            empty = face.centre + _EMPTY[face.face] @ to_image
            handles = [probes.add("pip", empty, face_bgr, contrast, pip_bgr)]
            if face.face == 2:
                # Two pips of a 3 (centre and corner) or two side by side of a 4, 5 or 6 also
                # fit a smaller 2: a pip beyond them, with face between, means more than two.
                beyond = face.centre + _BEYOND_TWO[:, 0] @ to_image
                between = face.centre + _BEYOND_TWO[:, 1] @ to_image
                handles.append(probes.add("pip", beyond, face_bgr, contrast, pip_bgr))
                handles.append(probes.add("face", between, face_bgr, contrast))
            if face.face in (2, 4):
                # A 3 or 5 whose middle pip was not found (on a small die its ring crosses
                # its neighbours): pip colour all over the middle, none towards the edges'
                # middles, where a 3 or 5 has no pips.
                r = float(middle(pips.r[idx]))
                core = face.centre + 0.5 * r * np.vstack([[0.0, 0.0], _AXES])
                around = face.centre + 2.0 * r * (_AXES @ _rot(face.angle).T)
                handles.append(probes.add("pip", core, face_bgr, contrast, pip_bgr))
                handles.append(probes.add("pip", around, face_bgr, contrast, pip_bgr))
            asked.append(tuple(handles))
    probes.run(bgr)
    for k, face in enumerate(faces):
        answers = [probes.result(h) for h in asked[k]]
        if face.face == 1:
            r = float(pips.r[face.pips[0]])
            dist, near = dists[2 * k], dists[2 * k + 1]
            dirs = _SIXTEEN
            good = (dist >= lo * r) & np.isfinite(dist)
            # Rays that meet edges at wildly different distances did not find one die's
            # edge; one short ray (a shading step on the face) is not enough to say so.
            finite = np.sort(dist[np.isfinite(dist)])
            if len(finite) >= 12 and finite[-2] > 3.0 * finite[1]:
                good &= False
            like_ahead, face_beyond, inside_pip, at_corners = answers
            met = np.isfinite(near) & like_ahead.any(axis=1) & face_beyond
            face.missing_pip = bool(met.any())
            # A 1 sits in the middle of its face: opposite edges are as far. A pip whose face
            # extends much further on one side is a corner pip of a face whose others hid.
            a, b = dist[:8], dist[8:]
            both = np.isfinite(a) & np.isfinite(b)
            lopsided = np.abs(a[both] - b[both]) > 0.35 * (a[both] + b[both])
            face.missing_pip |= bool(lopsided.any())
            face.missing_pip |= bool((~inside_pip).sum() >= 2)
            face.missing_pip |= bool(at_corners.sum() >= 3)
            face.seen_as = _middle_of(at_corners)
            if good.sum() >= 12 and not lopsided.any():
                # How square a 1's die looks, from its outline rather than from its pip,
                # which a glint can make look long. (Not for a pip with a lopsided face
                # around it: a pip on a side face has the whole die around it.)
                outline = dist[good, None] * dirs[good]
                outline -= outline.mean(axis=0)
                low, high = np.linalg.eigvalsh(outline.T @ outline)
                face.squash = math.sqrt(max(low, 0.0) / high)
        else:
            half = _HALF_FACE * face.spacing
            d_axes, d_diag = dists[2 * k], dists[2 * k + 1]
            good = np.concatenate(
                [
                    (d_axes >= 0.7 * half) & np.isfinite(d_axes),
                    (d_diag >= 0.85 * half) & np.isfinite(d_diag),
                ]
            )
            dirs = np.vstack([sets[2 * k][2], sets[2 * k + 1][2]])
            dist = np.concatenate([d_axes, d_diag])
            beyond = face.face == 2 and bool((answers[1] & answers[2]).any())
            face.missing_pip = bool(answers[0].any()) or beyond
            if face.face in (2, 4):
                core, around = answers[-2:]
                centre = np.flatnonzero((_EMPTY[face.face] == 0).all(axis=1))
                others = np.delete(answers[0], centre)
                if core.all() and not around.any() and not others.any() and not beyond:
                    face.seen_as = face.face + 1
        face.edge_score = float(good.mean())
        fallback = float(middle(dist[good])) if good.any() else 3.0 * float(pips.r[face.pips].max())
        reach = np.where(np.isfinite(dist), dist, fallback)
        pts = face.centre[None, :] + reach[:, None] * dirs
        x1, y1 = pts.min(axis=0)
        x2, y2 = pts.max(axis=0)
        face.box = (int(x1), int(y1), math.ceil(x2), math.ceil(y2))
