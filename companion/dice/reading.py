"""What the dice reader reports: dice with faces, positions, confidence and flags."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

UNCERTAIN = "uncertain"  # the face is a best guess a person should check
COCKED = "cocked"  # the die leans (against the tray wall): reroll it, no face is read


@dataclass(frozen=True)
class Die:
    """One die: its top `face` (None when it cannot be told), box (x1, y1, x2, y2) and centre
    in frame pixels, a confidence 0-1 and flags (`UNCERTAIN`, `COCKED`)."""

    face: int | None
    box: tuple[int, int, int, int]
    centre: tuple[float, float]
    confidence: float
    flags: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.flags)

    def to_json(self) -> dict:
        return {
            "face": self.face,
            "box": list(self.box),
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
            "confidence": round(self.confidence, 3),
            "flags": list(self.flags),
        }


# Reading.status values
OK = "ok"  # every die read with confidence, and the count is the one asked for
CHECK = "check"  # dice were read but something needs a look: see `problems`
EMPTY = "empty"  # no dice in view: no reading
HAND = "hand"  # a hand is in the tray: no reading

# Reading.extras: how many of the dice are places that may be dice, proposed to make up the
# count the table asked for
MADE_UP = "made_up"
# and, on a HAND reading told the count, the dice read as they lie: what looks like a hand may
# be a tray of a skin's colour, and a hand that stays still long enough is read past
BENEATH = "beneath"


@dataclass(frozen=True)
class Reading:
    dice: tuple[Die, ...] = ()
    status: str = EMPTY
    problems: tuple[str, ...] = ()
    expected: int | None = None
    extras: dict = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == OK

    @property
    def is_reading(self) -> bool:
        """False for an empty tray or a hand in view: nothing to report to the table."""
        return self.status in (OK, CHECK)

    @property
    def values(self) -> list[int]:
        """Faces of the dice that have one, sorted (cocked dice have none)."""
        return sorted(d.face for d in self.dice if d.face is not None)

    @property
    def doubted(self) -> tuple[int, ...]:
        """Places in `values` of the dice not read for sure, so a person checks those first
        (of dice showing the same face, the sure ones come first)."""
        faced = sorted((d.face, d.flagged) for d in self.dice if d.face is not None)
        return tuple(i for i, (_, flagged) in enumerate(faced) if flagged)

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "values": self.values,
            "expected": self.expected,
            "problems": list(self.problems),
            "dice": [d.to_json() for d in self.dice],
        }


def verdict(dice: list[Die], expected: int | None, max_dice: int, maybe: int = 0) -> Reading:
    """The reading of these dice: ok only if each is read for sure, nothing else in view may
    be a die (`maybe` places that may), the count is the one asked for and no more than
    `max_dice`; otherwise what needs a look is named in `problems`."""
    problems = []
    if expected is not None and len(dice) != expected:
        problems.append(f"asked for {expected} dice, saw {len(dice)}")
    if len(dice) > max_dice:
        problems.append(f"{len(dice)} dice is more than a roll ({max_dice})")
    cocked = sum(COCKED in d.flags for d in dice)
    uncertain = sum(UNCERTAIN in d.flags for d in dice)
    if cocked:
        problems.append(f"{cocked} cocked {'die' if cocked == 1 else 'dice'}: reroll")
    if uncertain:
        problems.append(f"{uncertain} {'die' if uncertain == 1 else 'dice'} not read for sure")
    if maybe:
        problems.append(f"{maybe} more {'thing' if maybe == 1 else 'things'} may be dice")
    if not dice:
        return Reading((), EMPTY, tuple(problems), expected)
    return Reading(tuple(dice), CHECK if problems else OK, tuple(problems), expected)


MIN_FRAME_SIDE = 16  # pixels: no die can be read in a smaller frame


def frame_problem(image: Any, smallest: int = MIN_FRAME_SIDE) -> str | None:
    """What makes `image` no camera frame the dice can be read from (an H x W x 3 BGR image
    of bytes, at least `smallest` pixels a side), in words; None for a good one."""
    import numpy as np

    if not isinstance(image, np.ndarray):
        return f"it is {type(image).__name__}, not an image"
    if image.ndim != 3 or image.shape[2] != 3:
        return f"it has shape {image.shape}, not height x width x 3 colours"
    if image.dtype != np.uint8:
        return f"its pixels are {image.dtype}, not bytes (uint8)"
    if min(image.shape[:2]) < smallest:
        return f"it is {image.shape[1]}x{image.shape[0]} pixels, too small to read dice in"
    return None


def hand_or_refused(frame: Any, scene: Any, expected: int | None) -> Reading | None:
    """What every reader checks first: a frame that is no H x W x 3 BGR image of bytes, or
    too small (`frame_problem`), is refused (ValueError); a hand in the tray (`scene`: the
    profile's scene settings) gives a HAND reading, which `through_hand` keeps or sets aside
    once the dice are read; None: read the dice."""
    from companion.dice.scene import hand_in_view

    problem = frame_problem(frame)
    if problem is not None:
        raise ValueError(f"a frame is an H x W x 3 BGR image of bytes (uint8): {problem}")
    hand = hand_in_view(frame, scene)
    if hand is None:
        return None
    problems = ("a hand is in the tray",)
    return Reading(status=HAND, expected=expected, problems=problems, extras={HAND: hand})


def through_hand(hand: Reading | None, reading: Reading) -> Reading:
    """`reading`, or the HAND reading `hand_or_refused` gave (`hand`) but for a roll whose
    every die the table asked for is seen, none made up from places that may be dice
    (`MADE_UP`) and none that the hand may partly hide: a hand that hides none of the dice
    asked for changes nothing, and what looks like a hand may be a tray or table of a skin's
    colour (tan leather, red felt), which would otherwise stop every roll. Not told the
    count, a hand could hide a whole die: the roll waits. The HAND reading keeps `reading`
    in its extras (BENEATH)."""
    if hand is None:
        return reading
    seen = reading.is_reading and len(reading.dice) == reading.expected
    hides = any(hand.extras[HAND].may_hide(d) for d in reading.dice)
    if seen and not reading.extras.get(MADE_UP) and not hides:
        return reading
    return replace(hand, extras={**hand.extras, BENEATH: reading})
