"""Read the dice in one camera frame: `read(frame, profile, expected=None) -> Reading`.

The pipeline is classical and cheap enough for a Raspberry Pi 4:
1. pip candidates: black/white top-hat of each colour channel (pips.py);
2. pips whose face colour matches and whose connecting path stays on the face are grouped,
   and each group must fit a die's pip pattern, or one short of a pip (of two, a 6's) that
   the shade or a glare streak hid, flagged (faces.py);
3. the die's edge must lie around the pattern where the pattern puts it; pips on the side
   faces seen in oblique views are squashed and are left out;
4. anything doubtful is flagged, never silently dropped or guessed: a group that fits no
   pattern, a cocked die, a count other than the one the table asked for;
5. a die's pips are counted again, as spots of its pips' colour on its face (recount.py):
   a die flagged for a check takes that count; so does a 1, 2 or 3 read for sure that shows
   more pips than it was read by, flagged for a check.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import replace
from functools import lru_cache

import numpy as np

from companion.dice import faces as facefit
from companion.dice import pips as pipfind
from companion.dice.profile import Profile
from companion.dice.reading import (
    COCKED,
    UNCERTAIN,
    Die,
    Reading,
    hand_or_refused,
    through_hand,
    verdict,
)
from companion.dice.recount import SPACING, box_of, recounted, short_face, spaced

ONE_PIP_RADIUS = 0.12  # a lone pip's radius, in die edges (it is often bigger)
CLEAR_ONE = (3.0, 1.2)  # contrast (times a pip's least) and longest shape of a clear small 1
PAINTED_HUE = 20.0  # how much more colourful (B, G, R spread) a small 1's pip is than its face
SIDE_FACE_ELONGATION = 1.25  # a side face's pips look this much longer than its top's
SIDE_FACE_MAYBE = 1.15  # or this much longer, grouped with its top (sure if in the shade)
SIDE_FACE_REACH = 1.3  # farthest a side face's middle lies from its top's, in die edges
SIDE_FACE_SHADE = 0.9  # or at most this bright (B + G + R) as its top, in the same colour,
SIDE_FACE_SLANT = 1.15  # in a view slanted so that top faces' pips look this long (median)
SIDE_PIP_SHRINK = 0.85  # or its pips at most this big or of this contrast, times the top's
LEANING_PIP = (1.55, 2.0)  # longest, biggest (times its pips') a leaning die's other face's look
ONE_PIP_BIGGER = 1.4  # a 1's pip is up to this much bigger than its die's other pips
# The most pips of a die read for sure whose pips are counted again: a die that lost pips
# and was read for sure was read as a 1, 2 or 3 on every photo; counting the 4s and 5s as
# well costs as much time again and caught none.
SURE_RECOUNT = 3
GLANCING_PIP = 0.75  # a side seen at a glancing angle has pips smaller than this times its top's


@lru_cache(maxsize=1)
def default_profile() -> Profile:
    from companion.dice.profile import load

    return load()


def _splits(points: np.ndarray):
    """Ways to cut a cluster of pips in two by a straight line: along and across its long
    axis, at every gap between pips (touching dice linked as one)."""
    centred = points - points.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    for axis in axes:
        # An axis points either way, and LAPACK builds differ in which: the one whose larger
        # part is positive, and a stable sort, cut the same on every build, in one order.
        if axis[np.abs(axis).argmax()] < 0:
            axis = -axis
        order = np.argsort(centred @ axis, kind="stable")
        n = len(points)
        for k in range(max(1, n - 6), min(6, n - 1) + 1):  # a die shows at most 6 pips
            yield order[:k], order[k:]


def _apart(a: facefit.Face, b: facefit.Face) -> bool:
    """Two faces far enough apart to be on two dice."""
    return math.dist(a.centre, b.centre) >= 0.8 * max(_size(a), _size(b))


def _face_of(idx: np.ndarray, pips: pipfind.Pips, profile: Profile) -> facefit.Face | None:
    n = len(idx)
    if n == 1:
        i = idx[0]
        r = float(pips.r[i])
        doubtful = False
        if r < profile.dice.one_pip_min_radius:
            # A die's single pip is its biggest: a smaller lone spot is a speck, unless it
            # is round and stands out clearly (the 1 of a small die far from the camera),
            # or is round and of a hue of its own: a painted pip (red on a black die), faint
            # and blurred small, where a grey speck, print or glint has none. That one is a
            # 1 for a check.
            contrast, longest = CLEAR_ONE
            clear = (
                r >= profile.dice.clear_one_pip_min_radius
                and pips.contrast[i] >= contrast * profile.pips.min_ring_contrast
            )
            doubtful = (
                not clear
                and r >= profile.pips.min_radius
                and pipfind.ptp(pips.pip_bgr[i]) - pipfind.ptp(pips.face_bgr[i]) >= PAINTED_HUE
            )
            if pips.elongation[i] > longest or not (clear or doubtful):
                return None
        return facefit.Face(
            face=1,
            pips=idx,
            centre=pips.xy[i].astype(float),
            spacing=r / ONE_PIP_RADIUS * facefit.PIP_OFFSET,
            angle=0.0,
            residual=0.0,
            squash=1.0 / float(pips.elongation[i]),
            doubtful=doubtful,
        )
    result = facefit.fit(pips.xy[idx])
    if result is None:
        return None
    residual, spacing, angle, squash, centre = result
    if residual > profile.faces.max_residual or squash < profile.faces.side_squash:
        return None  # no pattern, or a side face seen edge-on
    if n <= 3:
        squash = 1.0 / float(facefit.middle(pips.elongation[idx]))
    return facefit.Face(n, idx, centre, spacing, angle, residual, squash)


def _like(own: np.ndarray, among: np.ndarray, pips: pipfind.Pips, profile: Profile) -> np.ndarray:
    """Those of the pips `among` like the pips `own`: of their polarity and colour, and 0.6 to
    1.6 times their size. Only the few pips near a face are looked at, often none."""
    if not len(among):
        return among
    r = float(facefit.middle(pips.r[own]))
    size = pips.r[among]
    among = among[
        (pips.polarity[among] == pips.polarity[own[0]]) & (size >= 0.6 * r) & (size <= 1.6 * r)
    ]
    if not len(among):
        return among  # as often as not: no colour to measure
    colour = facefit.middle(pips.pip_bgr[own])
    return among[pipfind.norms(pips.pip_bgr[among] - colour) <= 2 * profile.faces.colour_tolerance]


def _short_of(idx: np.ndarray, pips: pipfind.Pips, profile: Profile) -> facefit.Face | None:
    """The face of a pip more that a group of 3 to 5 round pips fits, or a 6 of two more
    (`short_face`), its lost pips in the shade or under a glare streak: for a check. The
    group cut in two makes a 2 (which any two pips fit) and the rest, two dice only where
    each has its die's edge around it (`_short_or_cut`). Not where a pip looks long: a
    slanted view's side has long pips, and they fit with its top's as well."""
    if not 3 <= len(idx) <= 5 or (pips.elongation[idx] > facefit.ROUND_PIP).any():
        return None
    r = float(facefit.middle(pips.r[idx]))
    face = short_face(idx, pips, profile, r)
    if face is None or not spaced(face, r):
        return None
    face.doubtful = True
    return face


def _faces_of_group(idx: np.ndarray, pips: pipfind.Pips, profile: Profile) -> list:
    """The faces one group of pips makes: one face, two touching faces, a top face whose
    group took in pips of the side below it, or an unreadable cluster (returned as the index
    array itself)."""
    if facefit.middle(pips.elongation[idx]) > profile.faces.max_pip_elongation:
        return []  # a side face seen at a grazing angle, not a top face
    faces = _whole(idx, pips, profile)
    if faces:
        return faces
    short = _short_of(idx, pips, profile)
    if short is not None and len(idx) > 3:
        return [short]
    split = _split(idx, pips, profile) if 3 <= len(idx) <= 12 else None
    if short is not None:
        short.instead = split or []  # three pips: a 1 and a 2 as well (`_short_or_cut`)
        return [short, *short.instead]
    if split is not None:
        return split
    face = _without_odd(idx, pips, profile)
    if face is not None:
        return [face]
    return [idx]


def _whole(idx: np.ndarray, pips: pipfind.Pips, profile: Profile) -> list[facefit.Face]:
    """The face all the pips `idx` make; or, if some look like the side below the others,
    the top face and that side, for the reader to tell whether the die lies flat in a
    slanted view or leans (a 4 with the 2 of its side fits a 6). Only where some pips look
    longer than others, and some are on a darker face or smaller or dimmer."""
    face = _face_of(idx, pips, profile)
    if face is None:
        return []
    if len(idx) >= 3 and _maybe_with_side(idx, pips):
        split = _split(idx, pips, profile, sides_only=True)
        if split is not None:
            return split
    return [face]


def _maybe_with_side(idx: np.ndarray, pips: pipfind.Pips) -> bool:
    """Do some of the pips `idx` look longer than others (`SIDE_FACE_MAYBE`), and some are on
    a darker face or smaller or dimmer, as a side's below a top face's do?"""
    el = pips.elongation[idx].tolist()  # a few values: quicker in plain Python
    if max(el) < SIDE_FACE_MAYBE * min(el):
        return False  # checked first: the other measures are seldom needed
    shade, r, contrast = pips.face_bgr[idx].sum(axis=1), pips.r[idx], pips.contrast[idx]
    return bool(
        shade.min() < SIDE_FACE_SHADE * shade.max()
        or r.min() <= SIDE_PIP_SHRINK * r.max()
        or contrast.min() <= SIDE_PIP_SHRINK * contrast.max()
    )


def _split(idx: np.ndarray, pips: pipfind.Pips, profile: Profile, sides_only: bool = False):
    """The likeliest faces a group of pips makes cut in two: two dice's faces, or one die's
    top face without the side below it; or, if `sides_only`, only a top face and its side,
    both. None if no cut fits."""
    best = None
    for a, b in _splits(pips.xy[idx]):
        if sides_only:
            # A side's pips look longer than its top's: no cut is worth fitting without.
            el = [facefit.middle(pips.elongation[idx[half]]) for half in (a, b)]
            if max(el) < SIDE_FACE_MAYBE * min(el):
                continue
        parts = _halves(idx[a], idx[b], pips, profile)
        if parts is None:
            continue
        maybe = False
        if not _apart(*parts):
            # Not two dice; but one die's top face and the side below it may be.
            top, maybe = _top_of(parts, pips, profile, sides_only)
            if top is None:
                continue
            if not sides_only:
                parts = [replace(top, doubtful=top.doubtful or maybe)]
        elif sides_only:
            continue
        score = sum(p.residual + _unlike(p.pips, pips) for p in parts)
        score += 0.2 * sum(p.face == 1 for p in parts)
        if best is None or (maybe, score) < best[0]:
            best = ((maybe, score), parts)
    return None if best is None else best[1]


def _halves(a: np.ndarray, b: np.ndarray, pips: pipfind.Pips, profile: Profile):
    """The faces the two halves `a` and `b` of a group make, or None if either makes none.
    The half likelier to make none is fitted first, the other only if it fits: a lone pip
    (quick to look at, and often a speck), else the bigger half (two pips fit a 2 anywhere)."""
    swap = len(b) == 1 or (len(a) > 1 and len(b) > len(a))
    first = _face_of(b if swap else a, pips, profile)
    if first is None:
        return None
    second = _face_of(a if swap else b, pips, profile)
    if second is None:
        return None
    return [second, first] if swap else [first, second]


def _top_of(pair: list[facefit.Face], pips: pipfind.Pips, profile: Profile, fits_whole: bool):
    """The top face of two faces too close to be two dice's, the other its side, and whether
    that is doubtful; (None, False) if neither looks like the other's side. A side looks so
    by its clearly longer pips. Two faces this close cannot both be tops, so a side whose
    pips look only a little longer still makes the other a top, a doubtful one; and if the
    two faces `fits_whole` as one face, a side must look so and be in the shade too. A top so
    found has 3 pips or more: two fit a 2 anywhere."""
    below = _just_below(pair)
    if not fits_whole:
        sides = _sides(pair, pips, profile, False, below=below)
        if sides:
            return pair[1 - min(sides)], False
    for k in _sides(pair, pips, profile, False, SIDE_FACE_MAYBE, below):
        top = pair[1 - k]
        if len(top.pips) < 3:
            continue
        if not fits_whole:
            return top, True
        if _in_shade(pair[k], top, pips, profile):
            return top, False
    return None, False


def _without_odd(idx: np.ndarray, pips: pipfind.Pips, profile: Profile) -> facefit.Face | None:
    """The face a cluster with no pattern makes without its pips of much less contrast than
    the rest (a pip on a side face, dimmer in the shade, grouped with the top face's)."""
    if len(idx) < 3:
        return None
    odd = pips.contrast[idx] < 0.75 * facefit.middle(pips.contrast[idx])
    if not odd.any() or (~odd).sum() < 2:
        return None
    face = _face_of(idx[~odd], pips, profile)
    if face is not None:
        face.doubtful = True
    return face


def _unlike(idx: np.ndarray, pips: pipfind.Pips) -> float:
    """How much the pips of one face differ in size and shape (a face's pips are alike; a
    side face's, seen at a slant, are smaller and longer than its top face's)."""
    r, el = pips.r[idx], pips.elongation[idx]
    return float(pipfind.ptp(r) / r.mean() + pipfind.ptp(el) / el.mean())


def _short_or_cut(faces: list[facefit.Face], profile: Profile) -> list[facefit.Face]:
    """The faces, measured, with each face read short of pips or the faces its group cut
    in two makes `instead` left out: the short face, unless each of the cut's has its die's
    edge around it (a 1 beside a 2 is three corners of a 4 as well)."""
    least = profile.dice.min_edge_score
    left_out = set()
    for f in faces:
        if f.instead:
            if all(cut.edge_score >= least for cut in f.instead):
                left_out.add(id(f))
            else:
                left_out.update(id(cut) for cut in f.instead)
    return [f for f in faces if id(f) not in left_out]


def _ones_of_twos(frame, faces: list[facefit.Face], pips: pipfind.Pips, profile: Profile) -> dict:
    """The two 1s each 2 among the faces may be instead, by the 2's id: two 1s side by side
    fit a 2 as well. Only where the 2 does not lie on one die and its pips are as far apart
    as two dice' middles."""
    twos = [f for f in faces if f.face == 2]
    on_two = [
        f
        for f, one in zip(twos, facefit.one_die(frame, twos, pips, profile.faces), strict=True)
        if not one
    ]
    ones = {id(f): [_face_of(own[None], pips, profile) for own in f.pips] for f in on_two}
    return {key: pair for key, pair in ones.items() if None not in pair and _apart(*pair)}


def _split_twos(faces: list[facefit.Face], ones: dict, profile: Profile) -> list:
    """The faces, each standing 2 with two 1s (measured) in `ones` replaced by those of them
    that stand, where one of the 1s at least is whole (no pip beside it, its die's edge as
    far all round): a 2 on a marbled die may look like two dice too."""
    least = profile.dice.min_edge_score
    split = {}
    for f in faces:
        if f.face == 2 and f.edge_score >= least and id(f) in ones:
            standing = [one for one in ones[id(f)] if one.edge_score >= least]
            if any(not one.missing_pip for one in standing):
                split[id(f)] = standing
    return [f for f in faces if id(f) not in split] + [
        one for pair in split.values() for one in pair
    ]


def _confidence(face: facefit.Face, profile: Profile) -> float:
    fit = max(0.0, 1.0 - face.residual / profile.faces.max_residual)
    if face.face <= 2:
        fit = 0.8  # one or two pips always fit: the edge check carries the weight
    missing = 0.3 if face.missing_pip or face.doubtful else 1.0
    return float(face.edge_score * (0.6 + 0.4 * fit) * missing)


def _just_below(faces: list[facefit.Face]) -> np.ndarray:
    """below[i, j]: does face i lie where a slanted camera sees a side of face j's die? Just
    below face j's middle, by at least half as much as beside it (even a side turned almost
    across the view is), within `SIDE_FACE_REACH` die edges."""
    centres = np.array([f.centre for f in faces], float).reshape(-1, 2)
    sizes = np.array([_size(f) for f in faces])
    across, down = (
        np.abs(centres[:, None, 0] - centres[None, :, 0]),
        centres[:, None, 1] - centres[None, :, 1],
    )
    reach = SIDE_FACE_REACH * np.maximum(sizes[:, None], sizes[None, :])
    return (down > 0.5 * across) & (np.hypot(across, down) <= reach)


def _looks_like_side(
    f: facefit.Face,
    top: facefit.Face,
    pips: pipfind.Pips,
    profile: Profile,
    slanted: bool,
    longer_by: float = SIDE_FACE_ELONGATION,
) -> bool:
    """Does face `f`, just below `top`, look like a side of its die? Its pips look clearly
    (`longer_by` times) longer than the top's. Or, in a view `slanted` enough that top faces
    look squashed as much as sides, it is a darker shade of the top's colour."""
    longer = facefit.middle(pips.elongation[f.pips]) / facefit.middle(pips.elongation[top.pips])
    if longer >= longer_by:
        return True
    if not slanted:
        return False  # a view nearly square-on shows a side only at a glancing angle
    return _in_shade(f, top, pips, profile)


def _in_shade(f: facefit.Face, top: facefit.Face, pips: pipfind.Pips, profile: Profile) -> bool:
    """Is face `f` a darker shade of `top`'s colour, as a side is (the light falls from above)?"""
    colour, top_colour = (
        facefit.middle(pips.face_bgr[f.pips]),
        facefit.middle(pips.face_bgr[top.pips]),
    )
    return bool(
        colour.sum() < SIDE_FACE_SHADE * top_colour.sum()
        and pipfind.shade_distance(colour, top_colour) <= profile.faces.colour_tolerance
    )


def _sides(
    faces: list[facefit.Face],
    pips: pipfind.Pips,
    profile: Profile,
    slanted: bool,
    longer_by: float = SIDE_FACE_ELONGATION,
    below: np.ndarray | None = None,
) -> set[int]:
    """Indices of the faces that are a side of another's die. `below` is `_just_below(faces)`
    where the caller has it already (it asks more than once)."""
    if below is None:
        below = _just_below(faces)
    return {
        i
        for i, j in np.argwhere(below).tolist()
        if _looks_like_side(faces[i], faces[j], pips, profile, slanted, longer_by)
    }


def _size(face: facefit.Face) -> float:
    """The die's edge length implied by its pips."""
    return face.spacing / facefit.PIP_OFFSET


def read(
    frame: np.ndarray,
    profile: Profile | None = None,
    expected: int | None = None,
    edge: float | None = None,
) -> Reading:
    """Read the dice in a BGR frame. `expected` is how many dice the table asked for; `edge`
    the dice's edge in frame pixels, when another reader measured it.

    The pip search proposes dice on the frame brought to a canonical die size (`propose`);
    the face classifier reads each proposed die from the full frame and says how sure it is.
    """
    from companion.dice import faceclass

    profile = profile or default_profile()
    hand = hand_or_refused(frame, profile.scene, expected)
    if hand is not None and expected is None:
        return hand
    proposed = propose(frame, profile, expected, edge)
    dice = _classified(frame, list(proposed.dice), faceclass.model())
    reading = verdict(dice, expected, profile.dice.max_dice)
    reading.extras.update(proposed.extras)
    return through_hand(hand, reading)


def _classified(frame: np.ndarray, proposed: list[Die], model) -> list[Die]:
    """The proposed dice as the face classifier reads them (`decided`)."""
    if not proposed:
        return []
    crops = np.stack([model.crop(frame, d.centre, die_size(d)) for d in proposed])
    return decided(frame, proposed, model.probabilities(crops), model.settings)


def decided(frame: np.ndarray, proposed: list[Die], probabilities: np.ndarray, settings) -> list:
    """The proposed dice with the classifier's `probabilities` (one row of CLASSES each): a
    die it is sure is none (a side face, a speck, a pattern on a box) is left out; a die is
    read for sure at or above `settings.accept`, or `settings.agreed` when the pip search
    read the same face for sure; a die the frame cuts never is."""
    from companion.dice import faceclass

    dice = []
    for d, p in zip(proposed, probabilities, strict=True):
        best = int(np.argmax(p))
        if best == faceclass.NO_DIE and p[best] >= settings.accept:
            continue
        face = int(np.argmax(p[:6]))
        agreed = best == face and d.face == face + 1 and not d.flags
        need = settings.agreed if agreed else settings.accept
        sure = best != faceclass.NO_DIE and p[best] >= need and not _cut_off(d, frame)
        # A die the pip search saw leaning is never read for sure: if the classifier is
        # not sure of a face either, it is cocked (reroll); if it is, the table checks it.
        leaning = COCKED in d.flags
        if (best == faceclass.COCKED and sure) or (leaning and not sure):
            dice.append(replace(d, face=None, confidence=float(p[best]), flags=(COCKED,)))
        elif leaning:
            dice.append(replace(d, face=face + 1, confidence=float(p[face]), flags=(UNCERTAIN,)))
        elif sure:
            dice.append(replace(d, face=face + 1, confidence=float(p[face]), flags=()))
        else:
            # For a check, the pip search's face where it was sure of it (it is seldom wrong
            # then), else the classifier's best.
            if d.face and not d.flags:
                face = d.face - 1
            dice.append(replace(d, face=face + 1, confidence=float(p[face]), flags=(UNCERTAIN,)))
    return dice


def die_size(die: Die) -> float:
    """A die's edge in pixels, from its outline's box."""
    x1, y1, x2, y2 = die.box
    return max(math.sqrt(max(x2 - x1, 1) * max(y2 - y1, 1)), 4.0)


def propose(
    frame: np.ndarray, profile: Profile, expected: int | None = None, edge: float | None = None
) -> Reading:
    """The dice the pip search finds, in `frame`'s pixels. Given the dice's `edge` (the
    detector's measure), one search on the frame brought to dice `scale.measured_die` across;
    else searched on the frame brought to `scale.longest_side`, then, where the dice found
    there are bigger or smaller than `scale.die_size` by more than `scale.tolerance` times,
    again at the scale they give (the pip search measures a die by its outline where it finds
    one, else by its pips, which span less of it). Never finer than the frame brought to
    `scale.longest_side`: looking finer at a photo shows its grain and the grain of its dice
    as pips."""
    p = profile.scale
    first = min(1.0, p.longest_side / max(frame.shape[:2]))
    if edge:
        factor = min(p.measured_die / edge, first)
        reading = _search(_resized(frame, factor), profile, expected)
    else:
        factor = first
        for _ in range(2):
            reading = _search(_resized(frame, factor), profile, expected)
            sizes = [die_size(d) for d in reading.dice if d.face]
            if not sizes:
                # No die at this scale: dice far bigger than the search's (a camera close
                # over the tray) show no pips it can see; look once more at a fraction.
                if factor * max(frame.shape[:2]) <= 2 * p.longest_side / p.tolerance**2:
                    break
                factor /= p.tolerance**2
                continue
            seen = statistics.median(sizes)
            if 1 / p.tolerance <= seen / p.die_size <= p.tolerance:
                break
            wanted = min(factor * p.die_size / seen, first)
            if abs(wanted - factor) < 0.05 * factor:
                break
            factor = wanted
    if factor == 1.0:
        return reading
    dice = tuple(
        replace(
            d,
            box=tuple(round(v / factor) for v in d.box),
            centre=(d.centre[0] / factor, d.centre[1] / factor),
        )
        for d in reading.dice
    )
    extras = {**reading.extras, "scale": factor}
    return Reading(dice, reading.status, reading.problems, expected, extras)


def _resized(frame: np.ndarray, factor: float) -> np.ndarray:
    """`frame` shrunk by `factor` (at most 1), averaged over areas."""
    import cv2

    if factor == 1.0:
        return frame
    size = (max(round(frame.shape[1] * factor), 16), max(round(frame.shape[0] * factor), 16))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def _search(frame: np.ndarray, profile: Profile, expected: int | None) -> Reading:
    """The pip search's reading of a frame whose dice are about `scale.die_size` across."""
    # The whole-frame passes and the loops take a frame as one block of memory: a camera's
    # frame can be a view with padded rows.
    frame = np.ascontiguousarray(frame)
    search = profile.pips
    if expected:
        # A roll of many dice shows many pips: the search measures more of its peaks.
        most = max(search.max_peaks, search.peaks_per_die * expected)
        search = replace(search, max_peaks=most)
    pips = pipfind.find(frame, search)
    groups = facefit.group(frame, pips, profile.faces)
    candidates: list[facefit.Face] = []
    unreadable: list[np.ndarray] = []
    for idx in groups:
        for item in _faces_of_group(idx, pips, profile):
            if isinstance(item, facefit.Face):
                candidates.append(item)
            elif len(item) >= 4:
                unreadable.append(item)
    for idx in facefit.merged_groups(pips, groups, profile.faces):
        # Two pips fit a 2 wherever they lie: two 1s side by side are not one.
        if 3 <= len(idx) <= 6:
            candidates.extend(_whole(idx, pips, profile))
    ones = _ones_of_twos(frame, candidates, pips, profile)
    facefit.measure(
        frame, candidates + [one for pair in ones.values() for one in pair], pips, profile.dice
    )
    candidates = _short_or_cut(candidates, profile)
    candidates = _split_twos(candidates, ones, profile)
    found = [f for f in candidates if f.edge_score >= profile.dice.min_edge_score]
    # Where two faces overlap, they are one die's top face and a side face (oblique views):
    # keep the top, which the side lies below, and whose pips are the roundest. A lone pip
    # off its die's middle counts as a little less round: it is as likely the corner of a
    # die standing out from the tray.
    elongation = {id(f): float(facefit.middle(pips.elongation[f.pips])) for f in found}
    # How slanted the view is, the top faces tell: not the sides that look clearly longer.
    below = _just_below(found)
    longer = _sides(found, pips, profile, False, below=below)
    tops = [elongation[id(f)] for i, f in enumerate(found) if i not in longer]
    slanted = bool(tops) and facefit.middle(np.array(tops)) >= SIDE_FACE_SLANT
    on_side = {
        id(found[i])
        for i in (_sides(found, pips, profile, True, below=below) if slanted else longer)
    }
    found.sort(
        key=lambda f: (
            id(f) in on_side,
            round(elongation[id(f)] / 0.2) + (f.face == 1 and f.missing_pip),
            -len(f.pips),
            -_confidence(f, profile),
        )
    )
    middle = (frame.shape[1] / 2, frame.shape[0] / 2)
    kept = _one_per_place(found, on_side, pips, profile, middle, slanted)
    tops = [f for f in kept if id(f) not in on_side]
    dice = _dice_of(frame, tops, kept, pips, profile)
    # Only part of a die the frame cuts is in view (or it is no die: a spot at the frame's
    # edge, its outline the frame's).
    dice = [
        replace(d, flags=(UNCERTAIN,)) if d.face and not d.flags and _cut_off(d, frame) else d
        for d in dice
    ]
    for idx in unreadable:
        pts = pips.xy[idx]
        (x1, y1), (x2, y2) = pts.min(axis=0), pts.max(axis=0)
        box = (int(x1), int(y1), math.ceil(x2), math.ceil(y2))
        centre = (float(pts[:, 0].mean()), float(pts[:, 1].mean()))
        if not any(facefit.in_box(centre, k.box) for k in kept):
            dice.append(Die(None, box, centre, 0.0, (UNCERTAIN,)))
    dice.sort(key=lambda d: (d.centre[1], d.centre[0]))
    reading = verdict(dice, expected, profile.dice.max_dice)
    # What was looked at, for annotated images and tuning (in the searched frame's pixels).
    reading.extras.update(pips=pips, groups=groups, candidates=candidates)
    return reading


def _one_per_place(
    found: list[facefit.Face],
    on_side: set[int],
    pips: pipfind.Pips,
    profile: Profile,
    middle: tuple[float, float],
    slanted: bool,
) -> list[facefit.Face]:
    """The faces to keep, first come first kept, where faces overlap (one die's top face and
    a side face, or one face read twice). `on_side` holds the ids of the sides of dice,
    `middle` is the frame's, and `slanted` says whether the camera looks at the tray slantwise.
    Pips like a kept face's on its die, but not on that face, make it doubtful:
    - a die shows one 1: a lone pip like a kept 1's (the two pips of a 2 that did not link,
      a glare streak between them);
    - a die that shows a second face with pips leans, against the tray wall or another die,
      unless that face lies where a flat die shows a side (`_side_ward`) and looks like one,
      seen at a glancing angle: its pips long or small."""
    # Where each kept face lies and its die's size, as plain floats: looked at for every pair.
    kept: list[facefit.Face] = []
    places: list[tuple[tuple[float, float], float]] = []
    overlap = profile.dice.overlap
    for f in found:
        centre, size = _centre(f), _size(f)
        over = [
            k
            for k, (at, edge) in zip(kept, places, strict=True)
            if math.dist(centre, at) <= overlap * max(size, edge)
        ]
        if not over:
            kept.append(f)
            places.append((centre, size))
        if id(f) in on_side:
            continue
        for k in over:
            if id(k) in on_side:
                continue
            if f.face == 1 and k.face == 1 and len(_like(k.pips, f.pips, pips, profile)):
                k.doubtful = True
                if k.twin is None:
                    k.twin = int(f.pips[0])
            if k.doubtful:
                continue
            own = set(k.pips.tolist())  # a few pips: quicker than np.setdiff1d
            others = np.array([i for i in f.pips.tolist() if i not in own], dtype=np.intp)
            if not len(others):
                continue
            if _side_ward(f, k, middle) and (
                facefit.middle(pips.r[others]) < GLANCING_PIP * _pip_size(k, pips)
                or _looks_like_side(f, k, pips, profile, slanted)
            ):
                continue
            k.doubtful = _on_its_die(others, k, pips, profile)
    return kept


def _side_ward(f: facefit.Face, top: facefit.Face, middle: tuple[float, float]) -> bool:
    """Does face `f` lie where a camera sees a side of the flat die whose top is `top`:
    below it (a slanted camera), or towards the frame's middle (a camera looking down sees
    the sides that face it, more of them the nearer it is)? By at least half as much as
    beside it, as in `_just_below`."""
    dx, dy = f.centre[0] - top.centre[0], f.centre[1] - top.centre[1]
    if dy > 0.5 * abs(dx):
        return True
    ux, uy = middle[0] - top.centre[0], middle[1] - top.centre[1]
    return dx * ux + dy * uy > 0.5 * abs(dx * uy - dy * ux)


def _pip_size(face: facefit.Face, pips: pipfind.Pips) -> float:
    """The radius of the pips on the other faces of the die that shows `face`: its pips',
    or for a 1, whose pip is often bigger, less."""
    r = float(facefit.middle(pips.r[face.pips]))
    return r / ONE_PIP_BIGGER if face.face == 1 else r


def _on_its_die(
    others: np.ndarray, face: facefit.Face, pips: pipfind.Pips, profile: Profile
) -> bool:
    """Are the pips `others` on a face of the die that shows `face`: of its pips' polarity,
    at most `LEANING_PIP` as long and as big as its pips (`_pip_size`) and at least 0.6
    times as big, their colour and their face's shades of its (a face turned away from the
    light is darker, white pips on it grey)?"""
    own = face.pips
    longest, biggest = LEANING_PIP
    r = _pip_size(face, pips)
    tolerance = profile.faces.colour_tolerance
    return bool(
        (pips.polarity[others] == pips.polarity[own[0]]).all()
        and (pips.elongation[others] <= longest).all()
        and ((pips.r[others] >= 0.6 * r) & (pips.r[others] <= biggest * r)).all()
        and (
            pipfind.shade_distance(pips.pip_bgr[others], facefit.middle(pips.pip_bgr[own]))
            <= 2 * tolerance
        ).all()
        and (
            pipfind.shade_distance(pips.face_bgr[others], facefit.middle(pips.face_bgr[own]))
            <= tolerance
        ).all()
    )


def _cut_off(die: Die, frame: np.ndarray) -> bool:
    """Does the die's outline reach the frame's edge?"""
    x1, y1, x2, y2 = die.box
    return x1 <= 0 or y1 <= 0 or x2 >= frame.shape[1] or y2 >= frame.shape[0]


def _dice_of(
    frame, tops: list[facefit.Face], kept: list[facefit.Face], pips: pipfind.Pips, profile: Profile
) -> list[Die]:
    """The dice whose top faces are `tops`, each read, cocked or flagged for a check, the
    flagged ones and the 1s to 3s read for sure with their pips counted again (`recount`).
    `kept` are the faces kept (one per place), the sides of dice among them: they too show
    how the view squashes a die."""
    # A flat die looks as squashed as the camera's view makes it (the other dice show how
    # much, else the profile says); a cocked die looks more squashed than that, in its pip
    # pattern and in each pip (a 6 with close columns has a narrow pattern but round pips).
    round_pips = [1 / float(facefit.middle(pips.elongation[f.pips])) for f in kept]
    squashes = [f.squash for f in kept if f.face >= 2] or round_pips
    many = len(kept) >= 3
    # statistics.median gives np.median's value of a short list, without its overhead
    reference = statistics.median(squashes) if many else profile.dice.view_squash
    pip_reference = statistics.median(round_pips) if many else 0.95

    def is_cocked(f: facefit.Face) -> bool:
        # With three pips or fewer the squash is the pips' own, which is noisier.
        squashed = (profile.dice.cocked_squash - 0.08 * (f.face <= 3)) * reference
        return (
            f.squash < squashed  # seldom: the pips' squash is worked out only then
            and 1 / float(facefit.middle(pips.elongation[f.pips])) < pip_reference - 0.05
            # A glint makes pips look long, not the die: its outline, where measured (not 0).
            and not f.outline >= squashed
        )

    cocked = [f for f in tops if is_cocked(f)]
    taken = np.zeros(len(pips), bool)  # the pips the dice are read by
    for f in tops:
        taken[f.pips] = True
    dice: list[Die] = []
    for f in tops:
        conf = _confidence(f, profile)
        if conf < profile.dice.min_confidence:
            continue  # more likely not a die at all; a missed die shows in the count
        centre = _centre(f)
        if any(f is c for c in cocked):
            dice.append(Die(None, f.box, centre, conf, (COCKED,)))
        elif any(math.dist(f.centre, c.centre) < _size(c) / c.squash**0.5 for c in cocked):
            continue  # the side a cocked die shows, not another die
        else:
            doubtful = conf < profile.dice.confidence_threshold
            if doubtful:
                again = recounted(frame, f, pips, taken, profile, _face_of, short=True)
                if again is None and f.twin is not None:
                    again = _two_of(frame, f, pips, taken, profile)
            elif f.face <= SURE_RECOUNT:
                # More spots of its pips' colour on its face than it was read by: for a
                # check, as counted. On the photos the count was right for 11 of the 12 dice
                # so flagged on the top-down trays; on the webcam's, a side's pip beside a 1
                # made it a 2 three times.
                # Spots that fit a pattern only with pips still lost do not count here: on
                # the webcam photos those one pip short flagged 4 dice read right for sure,
                # and caught none read wrong.
                again = recounted(frame, f, pips, taken, profile, _face_of)
            else:
                again = None
            if again is not None:
                # where the die is, its pips counted again tell: a face read short of a pip
                # may have been fitted to another pattern (three pips of a 5 to a 4)
                dice.append(Die(again.face, box_of(again), _centre(again), conf, (UNCERTAIN,)))
            else:
                dice.append(Die(f.face, f.box, centre, conf, (UNCERTAIN,) if doubtful else ()))
    return dice


def _two_of(
    frame, one: facefit.Face, pips: pipfind.Pips, taken: np.ndarray, profile: Profile
) -> facefit.Face | None:
    """The 2 (or more, counted again) that a doubtful 1 and its twin make, the twin then
    marked `taken`: two pips alike that did not link, a swirl of a marbled die or a glint
    between them. Not a 1's pip and a glint beside it: that lies closer than a 2's pips can
    (two corners, pip spacings at least `SPACING[0]` pip radii), or is of another size."""
    both = np.array([one.pips[0], one.twin])
    r = pips.r[both]
    if r.max() > profile.faces.radius_ratio * r.min():
        return None
    if math.dist(*pips.xy[both]) < 2 * math.sqrt(2) * SPACING[0] * r.max():
        return None
    two = _face_of(both, pips, profile)
    if two is None:
        return None
    taken[one.twin] = True  # the 2's pip now: no spot to count again
    return recounted(frame, two, pips, taken, profile, _face_of, short=True) or two


def _centre(f: facefit.Face) -> tuple[float, float]:
    return (float(f.centre[0]), float(f.centre[1]))
