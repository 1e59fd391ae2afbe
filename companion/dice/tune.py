"""Tune a dice profile on labelled photos: a coordinate search over the reader's thresholds
(the pip search's), and the owner's die size measured on them (the detector's scale).

The objective rewards per-die accuracy and punishes confident errors five times as hard
(a wrong face the reader is sure of costs the table more than a flagged one), so tuning
never buys accuracy with silent mistakes.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from companion.dice.profile import Profile
from companion.dice.scoring import Sample, Score, score

# (section, key): the numbers worth searching; the rest describe dice sizes and timing.
TUNABLE = (
    ("pips", "threshold"),
    ("pips", "min_ring_contrast"),
    ("faces", "colour_tolerance"),
    ("faces", "path_tolerance"),
    ("faces", "max_residual"),
    ("faces", "max_pip_elongation"),
    ("dice", "edge_tolerance"),
    ("dice", "min_edge_score"),
    ("dice", "confidence_threshold"),
    ("dice", "view_squash"),  # how obliquely this camera sees the tray
)
STEPS = (0.8, 1.25)


@dataclass
class TuneResult:
    profile: Profile
    before: list[Score]
    after: list[Score]
    tried: int


def objective(scores: list[Score]) -> float:
    dice = sum(s.dice for s in scores) or 1
    correct = sum(s.correct for s in scores)
    errors = sum(s.confident_errors for s in scores)
    return (correct - 5 * errors) / dice


def _with(profile: Profile, section: str, key: str, value: float) -> Profile | None:
    params = getattr(profile, section)
    limit = type(params).limits[key]
    if limit["integer"]:
        value = round(value)
    value = min(max(value, limit["lo"]), limit["hi"])
    if value == getattr(params, key):
        return None
    return replace(profile, **{section: replace(params, **{key: value})})


def tune(
    sets: dict[str, list[Sample]],
    profile: Profile,
    rounds: int = 2,
    progress: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search each tunable number in turn, keeping any change that improves the objective."""

    def evaluate(p: Profile) -> list[Score]:
        return [score(name, samples, p) for name, samples in sets.items()]

    before = evaluate(profile)
    best, best_scores, best_value = profile, before, objective(before)
    tried = 0
    for _ in range(rounds):
        improved = False
        for section, key in TUNABLE:
            for step in STEPS:
                current = getattr(getattr(best, section), key)
                candidate = _with(best, section, key, current * step)
                if candidate is None:
                    continue
                tried += 1
                scores = evaluate(candidate)
                value = objective(scores)
                if value > best_value + 1e-9:
                    best, best_scores, best_value = candidate, scores, value
                    improved = True
                    if progress:
                        new = getattr(getattr(best, section), key)
                        progress(f"{section}.{key} = {new:g}: objective {value:.4f}")
        if not improved:
            break
    return TuneResult(best, before, best_scores, tried)


def die_share(
    samples: Iterable[Sample], profile: Profile, read: Callable, again: int = 0
) -> float | None:
    """The dice's edge in shares of the frame's longest side (`scale.calibrated_die`): the
    median over the dice `read` finds in the samples where it finds as many as are labelled
    (elsewhere it missed a die or took something else for one, and the sizes cannot be
    trusted); None when no sample tells it. `again`: measured that many more times, read at
    the size found (a reader that reads at the calibrated size tells sizes best near it)."""
    from companion.dice.reader import die_size

    samples = list(samples)
    share = None
    for _ in range(1 + again):
        shares = []
        for sample in samples:
            frame = sample.load()
            reading = read(frame, with_die_share(profile, share), expected=len(sample.faces))
            if len(reading.dice) == len(sample.faces):
                shares += [die_size(d) / max(frame.shape[:2]) for d in reading.dice]
        if not shares:
            break
        share = statistics.median(shares)
    return share


def with_die_share(profile: Profile, share: float | None) -> Profile:
    """`profile` calibrated to dice of this share (None or 0: not calibrated)."""
    share = min(share or 0.0, type(profile.scale).limits["calibrated_die"]["hi"])
    return replace(profile, scale=replace(profile.scale, calibrated_die=round(share, 4)))
