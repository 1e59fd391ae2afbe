"""Read the dice in one camera frame with the learned detector:
`read(frame, profile, expected=None) -> Reading`.

1. a hand in the tray: no reading (scene.py), unless the table told how many dice it asked
   for and every one is seen (a tray of a skin's colour looks like a hand; reading.py);
2. the detector finds the dice at the scale that brings them to its die size (detector.py):
   in one pass at the calibrated die size (`scale.calibrated_die`), else after passes that
   search for the dice's size;
3. each die's face probabilities, calibrated on held-out photos, decide: a die is read
   hands-free only when the detector is sure a die is there (less sure will do when the
   table told how many dice it asked for and as many are seen), sure of its face, and the
   frame does not cut it; anything else is flagged for a check, never dropped or guessed:
   a doubtful die, a cocked die, something that may be a die, a count other than the one
   the table asked for (seeing fewer, the likeliest faint places, or places beside a die
   that may be a touching die, are proposed as doubted dice to make up the count);
4. a roll flagged only for doubt is read hands-free when the pip search (reader.py), which
   finds and reads dice its own way (pips counted, a classifier of its own), at the size the
   detector measured them, reads the same dice (for sure, unless the table told the count;
   told it, the doubted dice alike and for sure where they lie will do, and a doubted die
   more than told where it sees no die at all is none, and a die fewer is made up by one it
   adds for sure):
   two readers that fail differently seldom agree on a wrong roll. It costs a second read of
   the flagged rolls alone.

A die the frame cuts is flagged: its face may be cut too, and other dice may lie beyond the
frame. But when the table told how many dice it asked for and all of them are seen, a die whose
edge lies a little past the frame (the profile's `frame_overhang`: its pips are still in view)
is read like any other.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from companion.dice import detector, network
from companion.dice.profile import Profile
from companion.dice.reading import (
    COCKED,
    MADE_UP,
    OK,
    UNCERTAIN,
    Die,
    Reading,
    hand_or_refused,
    through_hand,
    verdict,
)


@lru_cache(maxsize=1)
def default_profile() -> Profile:
    from companion.dice.profile import load

    return load()


def read(frame: np.ndarray, profile: Profile | None = None, expected: int | None = None) -> Reading:
    """Read the dice in a BGR frame. `expected` is how many dice the table asked for."""

    profile = profile or default_profile()
    hand = hand_or_refused(frame, profile.scene, expected)
    if hand is not None and expected is None:
        return hand
    model = detector.model()
    # With the places beside dice: told the count, they may make it up; not told, one likely
    # a die makes the roll checked (decided).
    found = model.find(frame, profile.scale.die_pixels(frame.shape), beside=True)
    dice = profile.dice
    reading = decided(
        found, frame.shape, model.settings, expected, dice.max_dice, dice.frame_overhang
    )
    return through_hand(hand, seconded(frame, profile, reading))


def seconded(frame: np.ndarray, profile: Profile, reading: Reading) -> Reading:
    """`reading`, hands-free if the pip search reads the same roll (`_agrees`): only a roll
    flagged for nothing but doubt, never for a cocked die or one the frame cuts. Told the
    count, a roll of as many dice, doubted faces or a place that may be a die, and the pip
    search's values are enough, sure or not (the count guards against a die both readers
    miss), unless both are unsure of a die and either gives its face less than even odds;
    or, the roll flagged for its doubted faces alone, the pip search sure of each where it
    lies, whatever else it sees; or, seeing a die more than told, one of them doubted, the
    roll without it (`_without_doubted_extra`); or, seeing a die fewer, the roll and the die
    the pip search adds (`_with_missed_die`). Not told, a roll of doubted faces alone, and
    the pip search sure of it (its sureness, which a place that may be a die takes away, is
    then the only guard)."""
    told = reading.expected is not None
    if told and len(reading.dice) == reading.expected + 1:
        return _without_doubted_extra(frame, profile, reading)
    if told and len(reading.dice) == reading.expected - 1:
        return _with_missed_die(frame, profile, reading)
    overhang = profile.dice.frame_overhang if told else 0.0
    if (
        reading.ok
        or not reading.dice
        or (told and len(reading.dice) != reading.expected)
        or (not told and reading.problems != _own_problems(reading, profile))
        or any(COCKED in d.flags or _cut_off(d.box, frame.shape, overhang) for d in reading.dice)
    ):
        return reading
    other = _second_opinion(frame, profile, reading.dice, reading.expected)
    if not _agrees(reading, other, profile) or not (told or other.ok):
        return reading
    if told and any(_by_chance(d, _nearest(d, other.dice)) for d in reading.dice):
        return reading
    return _hands_free(reading.dice, reading)


def _second_opinion(
    frame: np.ndarray, profile: Profile, dice: Sequence[Die], expected: int | None
) -> Reading:
    """The pip search's reading, at the size the detector measured `dice`: the pip search's
    own measure, from pips where it finds no outline (coloured dice on a dark tray), drifts
    with resolution."""
    from companion.dice.reader import die_size
    from companion.dice.reader import read as pip_search

    return pip_search(frame, profile, expected, statistics.median(die_size(d) for d in dice))


def _hands_free(dice: Sequence[Die], reading: Reading) -> Reading:
    """The roll of `dice`, none flagged, that the pip search seconded `reading` as."""
    dice = sorted((replace(d, flags=()) for d in dice), key=lambda d: (d.centre[1], d.centre[0]))
    return Reading(
        tuple(dice), OK, (), reading.expected, {**reading.extras, "seconded_by": "pip-search"}
    )


def _without_doubted_extra(frame: np.ndarray, profile: Profile, reading: Reading) -> Reading:
    """Told the count and seeing a die more, one of them doubted and the others sure: the
    roll without the doubted one, if the pip search sees no die at all where it lies (a die
    of another game, a token or a die's side taken for a die; a stray die of the roll's own
    kind it would see) and reads each of the others alike where they lie. Otherwise
    `reading`, for a check."""
    doubted = [d for d in reading.dice if d.flagged]
    rest = [d for d in reading.dice if not d.flagged]
    fewer = verdict(rest, reading.expected, profile.dice.max_dice)
    if (
        len(doubted) != 1
        or COCKED in doubted[0].flags
        or _cut_off(doubted[0].box, frame.shape)
        or not fewer.ok
        or reading.problems != _own_problems(reading, profile)
    ):
        return reading
    other = _second_opinion(frame, profile, rest, reading.expected)
    if not other.is_reading or _seen_at(doubted[0], other.dice):
        return reading
    if not all(_read_alike(d, other.dice) for d in rest):
        return reading
    return _hands_free(rest, reading)


def _with_missed_die(frame: np.ndarray, profile: Profile, reading: Reading) -> Reading:
    """Told the count and seeing a die fewer (nothing faint to make it up): the roll and the
    die the pip search adds, if it reads as many dice as told, each of the detector's alike
    where it lies (not both unsure of it, either giving it less than even odds) and the one
    it adds for sure (a touching pair the detector saw as one die it sees as two). Otherwise
    `reading`."""
    if (
        not reading.dice
        or any(COCKED in d.flags or _cut_off(d.box, frame.shape) for d in reading.dice)
        or reading.problems != _own_problems(reading, profile)
    ):
        return reading
    other = _second_opinion(frame, profile, reading.dice, reading.expected)
    if len(other.dice) != reading.expected:
        return reading
    for d in reading.dice:
        seen = _read_alike(d, other.dice)
        if not seen or any(_by_chance(d, o) for o in seen):
            return reading
    added = [o for o in other.dice if not any(o in _seen_at(d, other.dice) for d in reading.dice)]
    if len(added) != 1 or added[0].flagged:
        return reading
    return _hands_free((*reading.dice, added[0]), reading)


def _seen_at(die: Die, dice: Sequence[Die]) -> list[Die]:
    """The `dice` within half an edge of `die`'s centre."""
    from companion.dice.reader import die_size

    return [o for o in dice if math.dist(o.centre, die.centre) < 0.5 * die_size(die)]


def _read_alike(die: Die, dice: Sequence[Die]) -> list[Die]:
    """The `dice` where `die` lies, if there are any and all read its face; else none."""
    seen = _seen_at(die, dice)
    return seen if all(o.face == die.face for o in seen) else []


def _agrees(reading: Reading, other: Reading, profile: Profile) -> bool:
    """Does the pip search (`other`) read the roll as the detector does? The same values and
    count; or, told the count and the roll flagged for nothing but its own doubted dice,
    each doubted die read alike for sure by one die of the pip search's alone where it lies,
    and none read otherwise for sure where a die the detector is sure of lies: what the pip
    search takes for a die elsewhere (a die of another game, a die's side) leaves the roll
    as it is."""
    if other.values == reading.values and len(other.dice) == len(reading.dice):
        return True
    if reading.expected is None or not other.is_reading:
        return False
    if reading.problems != _own_problems(reading, profile):
        return False
    from companion.dice.reader import die_size

    for die in reading.dice:
        near = _seen_at(die, other.dice)
        if not die.flagged:
            if any(o.face != die.face and not o.flagged for o in near):
                return False
            continue
        # Alone: a second die of the pip search's on it, other than one where another die of
        # the roll lies (a die touching it), is the die's side, or half of it.
        around = [
            o
            for o in other.dice
            if math.dist(o.centre, die.centre) < 0.75 * die_size(die)
            and not any(d is not die and o in _seen_at(d, other.dice) for d in reading.dice)
        ]
        if len(around) != 1 or near != around or near[0].face != die.face or near[0].flagged:
            return False
    return True


def _by_chance(die: Die, other: Die) -> bool:
    """May the two readers' reads of a die agree by chance? When neither is sure of it and
    either gives its face less than even odds: then the other must be sure (a glint in the
    middle of a 2, a 3 to both, each unsure)."""
    return die.flagged and other.flagged and min(die.confidence, other.confidence) < 0.5


def _nearest(die: Die, dice: tuple[Die, ...]) -> Die:
    return min(dice, key=lambda d: math.dist(d.centre, die.centre))


def _own_problems(reading: Reading, profile: Profile) -> tuple[str, ...]:
    """What the roll's own dice flag it for, with nothing else in view."""
    return verdict(list(reading.dice), reading.expected, profile.dice.max_dice).problems


def decided(
    found: list[detector.Found],
    shape: tuple[int, ...],
    s: detector.Settings,
    expected: int | None,
    max_dice: int,
    overhang: float = 0.0,
) -> Reading:
    """The reading of the dice the detector found in a frame of `shape`, by the thresholds
    `s`: what `read` reports, and what the detector's thresholds are fitted on. `overhang`:
    the share of a die's edge that may lie past the frame when as many dice are seen as the
    table told."""
    placed = [f for f in found if f.presence >= s.present and not f.beside]
    faint = sorted(
        (f for f in found if s.maybe <= f.presence and (f.beside or f.presence < s.present)),
        key=lambda f: -f.presence,
    )
    # Told how many dice there are and seeing fewer, the likeliest faint places and places
    # beside dice make up the count: doubted dice, which the table checks (or a second
    # reader confirms).
    short = 0 if expected is None else expected - len(placed)
    filling = faint[:short] if 0 < short <= len(faint) else []
    # Told how many dice there are, and seeing as many, a faint place is less likely a die,
    # and each of them more likely one.
    told = expected is not None and len(placed) + len(filling) == expected
    sure_at = s.sure_told if told else s.sure_present
    past = overhang if told else 0.0
    dice = [_die(f, shape, s, sure_at, past) for f in placed]
    dice += [_die(f, shape, s, math.inf, past) for f in filling]
    dice.sort(key=lambda d: (d.centre[1], d.centre[0]))
    lowest = s.maybe_told if told else s.maybe
    # Not told the count, a place beside a die that is likely a die too: a touching pair seen
    # as one die (the side faces of oblique views, also beside dice, are seldom this likely).
    beside = s.beside_maybe if expected is None else math.inf
    maybe = sum(f.presence >= (beside if f.beside else lowest) for f in faint[len(filling) :])
    reading = verdict(dice, expected, max_dice, maybe)
    if filling:  # a hand may hide the dice these stand for (reading.through_hand)
        reading.extras[MADE_UP] = len(filling)
    return reading


def _die(
    f: detector.Found, shape: tuple[int, ...], s: detector.Settings, sure_at: float, past: float
) -> Die:
    p = network.probabilities(f.logits, s.temperature)
    box = f.box
    if int(np.argmax(p)) == detector.COCKED and p[detector.COCKED] >= s.accept:
        return Die(None, box, f.centre, float(p[detector.COCKED]), (COCKED,))
    face = int(np.argmax(p[:6]))
    sure = f.presence >= sure_at and p[face] >= s.accept and not _cut_off(box, shape, past)
    return Die(face + 1, box, f.centre, float(p[face]), () if sure else (UNCERTAIN,))


def _cut_off(box: tuple[int, int, int, int], shape: tuple[int, ...], past: float = 0.0) -> bool:
    """Does the die's outline reach the frame's edge, or lie more than `past` of its edge
    beyond it? Then only part of it is in view."""
    x1, y1, x2, y2 = box
    m = past * (x2 - x1)
    return x1 <= -m or y1 <= -m or x2 >= shape[1] + m or y2 >= shape[0] + m
