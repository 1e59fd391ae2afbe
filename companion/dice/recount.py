"""A second look at a die. The pips it was read by tell the colours of its face and of
its pips; the pips the frame-wide search lost (a pip beside a glint on the die's rim, a
small pip on a marbled die, a faint one in the shade) are found again as spots of that pip
colour on that face. The reader takes that count for a die it flags for a check, and for a
1, 2 or 3 it read for sure that shows more pips than it was read by, then flagged."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable

import numpy as np

from companion.dice import faces as facefit
from companion.dice import kernels
from companion.dice.pips import Pips, norms, ring_colours
from companion.dice.profile import Profile

PIP_COLOUR = 0.45  # farthest a pip's pixel lies from the pip's colour, times its contrast
PIP_AREA = (0.5, 2.0)  # least and most area of a pip found again, times the face's pips'
ROUND = 2.2  # longest/shortest side of the box around a pip found again
FILL = 0.3  # least share of that box it fills (a disc 0.79, the shade along a rim far less)
APART = 2.2  # nearest two pips lie, in pip radii
# Least share of a ring round a spot (where no pip crosses it) that has the face's colour: a
# pip by the die's rim has the rim across part of its ring, a spot on the tray the tray.
FACE_RING = 0.45
# Farthest a pip found again lies from the face's middle, in die edges: a 1 read by a corner
# pip of a 4 has the far corner 0.76 die edges off, and guesses its die's size from a pip
# that may be smaller than a 1's.
REACH = 1.1
# Least and most pip spacing of a whole face, in pip radii: a die's pips never touch (a
# glint or the shaded rim beside a 1's pip is no second pip).
SPACING = (1.7, 4.5)
# Most pip spacing, in pip radii, of four pips read as a 6 with two pips lost: a 6's pips
# are big for their spacing (on the photos, such 6s measured 2.3 to 3.5), and a 3 with a
# pip of the die beside it fits a 6 two short too, spread wider (4.1 on a synthetic tray).
TWO_LOST_SPACING = 3.5


def _spots(frame, centre, half, pip_bgr, contrast, own_xy):
    """The spots of the pip's colour within `half` px of `centre`: centres (frame pixels), and
    box width, height and area (whole pixels); and the area of the spot at or beside each of
    `own_xy` (the face's pips, measured as the spots are), 0 where there is none: the biggest
    spot in the 3 x 3 pixels around it. The pip's colour is that of its most extreme pixel,
    and the one at its middle may be a glint, or of neither colour on a small blurred pip."""
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 1), min(h, int(centre[1] + half) + 1)
    corner = np.array([x0, y0])
    own = np.rint(own_xy).astype(np.intp) - corner
    limit = (PIP_COLOUR * contrast) ** 2
    centres, boxes, own_area = kernels.spots(frame, x0, y0, x1, y1, pip_bgr, limit, own)
    return centres + corner, boxes, own_area


def _pip_like(boxes: np.ndarray, known: float) -> np.ndarray:
    """Which spots (box width, height and area) have a pip's area (`PIP_AREA` times `known`,
    the face's pips'), roundness and fill. A window has a few spots: quicker tested one by one
    in plain Python than by a dozen array calls."""
    lo, hi = PIP_AREA[0] * known, PIP_AREA[1] * known
    return np.array(
        [
            i
            for i, (w, h, a) in enumerate(boxes.tolist())
            if lo <= a <= hi and max(w, h) <= ROUND * min(w, h) and a >= FILL * (w * h)
        ],
        int,
    )


def recounted(
    frame,
    face: facefit.Face,
    pips: Pips,
    taken: np.ndarray,
    profile: Profile,
    face_of: Callable[[np.ndarray, Pips, Profile], facefit.Face | None],
    short: bool = False,
) -> facefit.Face | None:
    """The face that `face` and the spots of its pips' colour around it make, if they fit
    a pattern of more pips (None otherwise). A spot counts as a pip if it has the size and
    roundness of the face's own pips, lies apart from every pip the dice were read by
    (`taken`), inside a ring of the face's colour, and the path to the face's pips is all
    face. `face_of` fits a face to pips. With `short`, pips that fit no pattern may fit one
    of a pip more, one still lost (in the shade, on a glint), or a 6 of two more: for a die
    read for a check."""
    own = face.pips
    if face.face >= 6:
        return None
    pip_bgr = facefit.middle(pips.pip_bgr[own])
    face_bgr = facefit.middle(pips.face_bgr[own])
    off = pip_bgr - face_bgr
    contrast = float(np.sqrt(off.dot(off)))  # np.linalg.norm's work, without its overhead
    reach = REACH * face.spacing / facefit.PIP_OFFSET
    if face.face == 2:
        # Two pips read as a 2 may be no corners across a face but neighbours along its edge
        # (of a 4) or in a column (of a 6): reaching twice as far takes in a whole 6.
        reach *= 2
    xy, boxes, own_area = _spots(frame, face.centre, reach, pip_bgr, contrast, pips.xy[own])
    if not own_area.all():
        return None  # its own pips are not spots of their colour: the colour tells nothing
    new = _pip_like(boxes, statistics.median(own_area.tolist()))
    new = new[np.hypot(*(xy[new] - face.centre).T) <= reach]
    if not len(new):
        return None  # most often: no spot need be measured against the pips read
    gap = xy[new, None] - pips.xy[taken]
    new = new[(np.hypot(gap[..., 0], gap[..., 1]) > APART * pips.r[taken]).all(axis=1)]
    if not len(new):
        return None
    radius = np.sqrt(boxes[new, 2] / math.pi)
    ring = ring_colours(frame, xy[new], radius, profile.pips)
    face_like = facefit.off_face(ring, face_bgr) <= profile.faces.colour_tolerance
    # the face's other pips, close by on a small die, cross the ring too
    pip_like = norms(ring - pip_bgr) < PIP_COLOUR * contrast
    inside = face_like.sum(axis=1) / np.maximum((~pip_like).sum(axis=1), 1)
    keep = inside >= FACE_RING
    new, radius = new[keep], radius[keep]
    k = len(new)
    if not k or len(own) + k > 6:
        return None
    wh = boxes[new, :2]
    more = Pips(
        np.concatenate([pips.xy, xy[new]]),
        np.concatenate([pips.r, radius]),
        np.concatenate([pips.polarity, np.full(k, pips.polarity[own[0]])]),
        np.concatenate([pips.contrast, np.full(k, contrast)]),
        np.concatenate([pips.elongation, wh.max(axis=1) / wh.min(axis=1)]),
        np.concatenate([pips.face_bgr, face_bgr[None].repeat(k, axis=0)]),
        np.concatenate([pips.pip_bgr, pip_bgr[None].repeat(k, axis=0)]),
        np.concatenate([pips.weak, np.zeros(k, bool)]),
    )
    added = len(pips) + np.arange(k)
    on_face = added[_reached(frame, more, own, added, profile)]
    if not len(on_face):
        return None
    every = np.concatenate([own, on_face])
    whole = face_of(every, more, profile)
    r = float(facefit.middle(pips.r[own]))
    if whole is None and short:
        whole = short_face(every, more, profile, r)
    if whole is None or not spaced(whole, r):
        return None
    return whole


def spaced(face: facefit.Face, r: float) -> bool:
    """Are the pips of `face` spaced as a die's pips of radius `r` can be (`SPACING`)?"""
    return SPACING[0] * r <= face.spacing <= SPACING[1] * r


def _edge(face: facefit.Face) -> float:
    return face.spacing / facefit.PIP_OFFSET


def box_of(face: facefit.Face) -> tuple[int, int, int, int]:
    """The box of the die a face counted again lies on, from its pattern: no edge of it was
    measured."""
    half = _edge(face) / 2
    (x, y) = face.centre
    return (int(x - half), int(y - half), math.ceil(x + half), math.ceil(y + half))


def short_face(idx: np.ndarray, pips: Pips, profile: Profile, r: float) -> facefit.Face | None:
    """The face of one pip more than `idx` that they fit, if any; or, for four pips, a 6
    of two more (`TWO_LOST_SPACING`). Three pips at the corners of a right angle fit three
    corners of a 4; but where that 4's pips would lie closer than pips of radius `r` can,
    they are two corners and the middle of a 5, whose pips lie sqrt(2) times as far apart."""
    most = profile.faces.max_residual
    fitted = facefit.fit_short(pips.xy[idx])
    if (fitted is None or fitted[1] > most) and len(idx) == 4:
        two = facefit.fit_short(pips.xy[idx], lost=2)
        if two is not None and two[1] <= most and two[2] <= TWO_LOST_SPACING * r:
            fitted = two
    if fitted is None or fitted[1] > most:
        return None
    face, residual, spacing, angle, centre = fitted
    if face == 4 and spacing < SPACING[0] * r:
        points = pips.xy[idx]
        gaps = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1)).sum(axis=1)
        face, centre = 5, points[int(gaps.argmin())]  # the middle: nearest the other two
        spacing, angle = spacing * math.sqrt(2), angle + math.pi / 4
    return facefit.Face(face, idx, centre, spacing, angle, residual, 1.0)


def _reached(frame, pips: Pips, own: np.ndarray, added: np.ndarray, profile: Profile):
    """Which of the spots `added` are on the face of the pips `own`: reached from them by
    paths all face, from pip to pip."""
    every = np.concatenate([own, added])
    a, b = added.repeat(len(every)), np.concatenate([every] * len(added))
    other = a != b
    clear = np.zeros(len(a), bool)
    clear[other] = facefit.paths_clear(frame, pips, a[other], b[other], profile.faces)
    clear = clear.reshape(len(added), len(every))
    reached = np.zeros(len(every), bool)
    reached[: len(own)] = True
    while True:
        now = clear[:, reached].any(axis=1)
        if (now == reached[len(own) :]).all():
            return now
        reached[len(own) :] = now
