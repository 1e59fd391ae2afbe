"""What `companion dice bench` counts: rolls read hands-free, silent errors, one-tap
proposals, and per-die accuracy that counts an extra die as an error."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.dice import synth
from companion.dice.reading import CHECK, OK, UNCERTAIN, Die, Reading
from companion.dice.scoring import Sample, Score, synthetic_scenes


def _reading(faces: list[int], status: str = OK) -> Reading:
    flags = (UNCERTAIN,) if status == CHECK else ()
    dice = tuple(Die(f, (0, 0, 10, 10), (5.0, 5.0), 0.9, flags) for f in faces)
    return Reading(dice, status, ("look",) if status == CHECK else ())


def _score(*rolls: tuple[list[int], Reading]) -> dict:
    score = Score("set")
    for n, (truth, reading) in enumerate(rolls):
        score.add(Sample(f"roll-{n}", tuple(truth)), reading, 1.0)
    return score.summary()


def test_an_accepted_right_roll_is_hands_free_and_an_accepted_wrong_one_a_silent_error():
    s = _score(
        ([1, 2, 3], _reading([3, 2, 1])),
        ([1, 2, 3], _reading([1, 2, 4])),
        ([4, 4], _reading([4, 4, 4])),  # an extra die, accepted: silent
        ([5, 6], _reading([5])),  # a missing die, accepted: silent
    )
    assert s["hands_free_rate"] == 0.25
    assert s["silent_error_rate"] == 0.75
    assert s["proposal_right_rate"] == 0.0


def test_a_flagged_roll_proposing_the_right_values_and_count_is_one_tap_not_hands_free():
    s = _score(
        ([2, 5], _reading([5, 2], CHECK)),
        ([2, 5], _reading([5, 3], CHECK)),
        ([2, 5], _reading([2, 5, 1], CHECK)),
    )
    assert s["hands_free_rate"] == 0.0
    assert s["silent_error_rate"] == 0.0
    assert round(s["proposal_right_rate"], 4) == 0.3333


def test_hands_free_is_also_given_for_rolls_of_each_size():
    s = _score(
        ([1, 2], _reading([2, 1])),
        ([1, 2, 3, 4, 5], _reading([1, 2, 3, 4, 6])),
        ([3] * 7, _reading([3] * 7)),
        ([6] * 12, _reading([6] * 12, CHECK)),
    )
    assert s["hands_free_by_dice"] == {
        "up to 5": {"rolls": 2, "hands_free_rate": 0.5, "silent_error_rate": 0.5},
        "6-9": {"rolls": 1, "hands_free_rate": 1.0, "silent_error_rate": 0.0},
        "10 or more": {"rolls": 1, "hands_free_rate": 0.0, "silent_error_rate": 0.0},
    }
    assert list(_score(([4], _reading([4])))["hands_free_by_dice"]) == ["up to 5"]


def test_per_die_accuracy_counts_extra_dice_as_errors():
    # 2 right of 2 labelled, but 4 dice read: 2 of max(2, 4).
    assert _score(([6, 6], _reading([6, 6, 1, 1], CHECK)))["per_die_accuracy"] == 0.5
    # 1 right of 3 labelled, 1 read: 1 of max(3, 1).
    assert round(_score(([1, 2, 3], _reading([1], CHECK)))["per_die_accuracy"], 4) == 0.3333
    assert _score(([1, 2, 3], _reading([3, 1, 2])))["per_die_accuracy"] == 1.0


def test_the_bench_s_rendered_trays_have_things_that_are_not_dice_lying_off_the_dice():
    trays = list(synthetic_scenes(30, seed=0))
    assert sum(len(scene.things) for _, scene, _ in trays) >= 20
    assert {t.kind for _, scene, _ in trays for t in scene.things} == set(synth.THING_KINDS)
    for _, scene, _ in trays:
        for t in scene.things:
            assert all(
                math.hypot(t.x - d.x, t.y - d.y) > 0.8 * (d.size + t.size) for d in scene.dice
            )
    scene = next(scene for _, scene, _ in trays if scene.things)
    bare = synth.render(replace(scene, things=()), np.random.default_rng(0))
    drawn = synth.render(scene, np.random.default_rng(0))
    assert np.abs(drawn.astype(int) - bare).max() > 60  # they are drawn


def test_a_thing_of_no_known_kind_is_refused():
    with pytest.raises(ValueError, match="disc"):
        synth.ThingSpec("die", 10, 10, 30)


def test_a_glossy_die_catches_the_lamp_in_white_streaks_on_its_top_face():
    """Smoky and marbled dice shine where a lamp catches them: small white streaks that look
    like pips, some of them on a pip's rim."""
    die = synth.DieSpec(5, 320, 240, 80, 20, *synth.FINISHED_STYLES["smoke-red"])
    tray = synth.Scene(dice=(die,), noise=0.0, blur=0.0)
    plain = synth.render(tray, np.random.default_rng(0)).astype(int)
    glossy = synth.render(replace(tray, dice=(replace(die, gloss=4),)), np.random.default_rng(0))
    streaks = (glossy.min(axis=2) > 200) & (np.abs(glossy - plain).max(axis=2) > 100)
    ys, xs = np.nonzero(streaks)
    assert len(ys) > 20
    assert np.hypot(xs - 320, ys - 240).max() < 0.5 * math.sqrt(2) * 80  # on the die


def test_finished_dice_are_dressed_at_the_odds_asked_and_a_seed_s_scene_stays_as_it_was():
    faces = [1, 2, 3, 4, 5, 6]
    before = synth.random_scene(faces, np.random.default_rng(5))
    assert synth.random_scene(faces, np.random.default_rng(5), finish=0.0) == before
    finished = synth.random_scene(faces, np.random.default_rng(5), finish=1.0)
    pips = {p for _, p in synth.FINISHED_STYLES.values()}
    assert all(d.pips in pips for d in finished.dice)
    assert any(d.gloss or d.marble != 1.0 or d.sheen != 1.0 for d in finished.dice)
