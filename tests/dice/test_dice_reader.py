"""The dice reader on rendered trays: faces, styles, touching and rotated dice, flags."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.dice import synth
from companion.dice.reader import read
from companion.dice.reading import CHECK, COCKED, HAND, OK

from . import scenes


@pytest.mark.parametrize("style", sorted(synth.DIE_STYLES))
def test_every_face_of_every_die_style_is_read(style):
    rng = np.random.default_rng(sorted(synth.DIE_STYLES).index(style))
    surface = "white-sheet" if style in ("black", "purple", "blue") else "felt-blue"
    dice = [
        scenes.die(face, 110 + 200 * (i % 3), 130 + 220 * (i // 3), style, size=44, angle=17.0 * i)
        for i, face in enumerate(range(1, 7))
    ]
    reading = read(synth.render(scenes.tray(dice, surface), rng), expected=6)
    assert reading.status == OK, reading.problems
    assert reading.values == [1, 2, 3, 4, 5, 6]
    by_position = sorted(reading.dice, key=lambda d: (d.centre[1] > 240, d.centre[0]))
    assert [d.face for d in by_position] == [1, 2, 3, 4, 5, 6]


def test_a_roll_of_many_dice_has_as_many_more_pips_searched():
    """The pip search measures the strongest peaks only, as many as the profile says, and
    more for each die the table asks for: a roll of five 6s on a search too small for
    thirty pips is read whole, as it is not without the share for each die."""
    from companion.dice.reader import default_profile

    dice = [scenes.die(6, 90 + 115 * k, 240, size=44, angle=10.0 * k) for k in range(5)]
    frame = synth.render(scenes.tray(dice), np.random.default_rng(0))
    profile = default_profile()
    small = replace(profile, pips=replace(profile.pips, max_peaks=20, peaks_per_die=12))
    assert read(frame, small, expected=5).values == [6] * 5
    none_per_die = replace(small, pips=replace(small.pips, peaks_per_die=0))
    assert read(frame, none_per_die, expected=5).values != [6] * 5


def test_dice_positions_come_with_each_face():
    rng = np.random.default_rng(5)
    scene = scenes.tray([scenes.die(5, 150, 120), scenes.die(2, 480, 360)])
    reading = read(synth.render(scene, rng))
    faces_at = {d.face: d.centre for d in reading.dice}
    assert np.hypot(*np.subtract(faces_at[5], (150, 120))) < 8
    assert np.hypot(*np.subtract(faces_at[2], (480, 360))) < 8
    for d in reading.dice:
        x1, y1, x2, y2 = d.box
        assert x1 < d.centre[0] < x2 and y1 < d.centre[1] < y2
        assert 0 < d.confidence <= 1


@pytest.mark.parametrize(
    "style, surface, shift, angle",
    [
        ("black", "felt-blue", 0.0, 0),
        ("black", "wood-light", 0.4, 25),
        ("orange", "felt-green", 0.0, 25),
        ("ivory", "felt-blue", 0.0, 0),
    ],
)
def test_two_1s_side_by_side_are_two_1s_not_a_2(style, surface, shift, angle):
    # Two 1s touching fit a 2's pattern; the seam between them is dark like a pip, or on
    # black dice as dark as the face.
    size, turn = 40, math.radians(angle)
    along, aside = size + 1, shift * size  # the second die beside the first, shifted
    second = (
        250 + along * math.cos(turn) - aside * math.sin(turn),
        200 + along * math.sin(turn) + aside * math.cos(turn),
    )
    dice = [
        scenes.die(1, 250, 200, style, size=size, angle=angle),
        scenes.die(1, *second, style, size=size, angle=angle + 2),
        scenes.die(2, 460, 330, style, size=size, angle=20),
    ]
    reading = read(synth.render(scenes.tray(dice, surface), np.random.default_rng(3)), expected=3)
    assert reading.values == [1, 1, 2], reading.problems
    assert reading.ok, reading.problems


@pytest.mark.parametrize("y", [8, 14])
def test_a_die_the_frame_cuts_is_not_read_for_sure(y):
    # Only part of the die is in view: the pip seen may be one of several.
    dice = [scenes.die(1, 300, y, size=40, angle=10), scenes.die(3, 200, 300, size=40, angle=5)]
    reading = read(synth.render(scenes.tray(dice), np.random.default_rng(1)), expected=2)
    cut = [d for d in reading.dice if d.centre[1] < 60]
    assert len(cut) == 1 and cut[0].flagged
    assert reading.status == CHECK
    assert [d.face for d in reading.dice if not d.flagged] == [3]


def test_a_three_with_glints_on_its_pips_is_never_read_as_a_sure_1():
    # Glints make the pips of a 3 in a row look long: its middle one too long to be grouped.
    dice = [
        scenes.die(3, 330, 390, size=48, angle=130, pip_glare=True),
        scenes.die(5, 150, 150, size=48, angle=10, pip_glare=True),
    ]
    scene = scenes.tray(dice, "grey", keystone=0.05)
    reading = read(synth.render(scene, np.random.default_rng(2)), expected=2)
    assert reading.values == [3, 5] or reading.status == CHECK
    assert 1 not in [d.face for d in reading.dice if not d.flagged]


def test_random_trays_with_touching_dice():
    rng = np.random.default_rng(99)
    for _ in range(6):
        faces = [int(f) for f in rng.integers(1, 7, 6)]
        scene = synth.random_scene(faces, rng, touching=True, view_tilt=0.0)
        reading = read(synth.render(scene, rng), expected=len(faces))
        # Never silently wrong: either every face is right, or the reading asks for a look.
        assert reading.values == sorted(faces) or reading.status == CHECK


@pytest.mark.parametrize("seed", [73, 155, 199, 210])
def test_a_random_tray_finds_room_for_eight_big_touching_dice(seed):
    """Dice placed one by one at random can leave no room for the last: the tray is laid out
    again rather than failing (a bench or the simulated camera would stop on it)."""
    rng = np.random.default_rng(seed)
    scene = synth.random_scene([6] * 8, rng, size=56.0, touching=True)
    assert len(scene.dice) == 8
    for a, b in itertools.combinations(scene.dice, 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) >= 56.0


def test_a_hand_on_a_skin_coloured_table_is_still_seen():
    rng = np.random.default_rng(6)
    hand = synth.HandSpec(x=300, y=320, angle=-80, width=180, skin=(80, 110, 160))
    scene = scenes.tray([scenes.die(2, 100, 100)], "wood-light", hand=hand)
    assert read(synth.render(scene, rng)).status == HAND
    # ...and the bare wood table alone is not a hand.
    assert read(synth.render(replace(scene, hand=None), rng)).status == OK


@pytest.mark.parametrize(
    ("texture_seed", "gradient", "towards"),
    [(843979408, 0.25, 230), (843979408, 0.3, 230), (1, 0.3, 135)],
)
def test_light_falling_unevenly_on_wood_is_no_hand_but_a_hand_there_is(
    texture_seed, gradient, towards
):
    """Light falling strongly across light wood makes a corner of the frame a lighter or
    darker shade of the wood, and skin-coloured: taken for a hand, it kept a whole tray of
    dice from being read. It fades into the wood around it; a hand, a dark one included,
    has an edge."""
    light = dict(light=0.98, light_gradient=gradient, light_angle=towards)
    scene = scenes.tray(
        [scenes.die(3, 320, 240, "blue")], "wood-light", texture_seed=texture_seed, **light
    )
    scene = replace(scene, keystone=0.055, blur=0.75, noise=2.2)
    rng = np.random.default_rng(0)
    reading = read(synth.render(scene, rng), expected=1)
    assert reading.status == OK, reading.problems
    assert reading.values == [3]
    hand = synth.HandSpec(x=300, y=320, angle=-80, width=180, skin=(80, 110, 160))
    assert read(synth.render(replace(scene, hand=hand), rng)).status == HAND


def test_a_tray_wall_lit_unlike_the_tray_is_not_a_hand():
    """Light falling across a wooden tray makes its walls a skin-coloured band round the
    frame's edge: thin, not a hand, and the dice are read."""
    dice = [
        scenes.die(f, 200 + 80 * i, 240, "yellow", size=42, angle=9 * i)
        for i, f in enumerate((3, 5, 6))
    ]
    scene = scenes.tray(
        dice, "wood-light", tray_wall=21, light=1.05, light_gradient=0.24, light_angle=308
    )
    reading = read(synth.render(scene, np.random.default_rng(389)), expected=3)
    assert reading.status == OK, reading.problems
    assert reading.values == [3, 5, 6]


def test_cocked_die_is_flagged_not_guessed():
    rng = np.random.default_rng(12)
    cocked = scenes.die(4, 320, 50, size=44, tilt=42, tilt_dir=90, cocked=True)
    flat = [
        scenes.die(f, 140 + 120 * i, 300, size=44, angle=20 * i) for i, f in enumerate((2, 5, 6))
    ]
    reading = read(
        synth.render(scenes.tray([*flat, cocked], "felt-green", tray_wall=22), rng), expected=4
    )
    assert reading.status == CHECK
    flagged = [d for d in reading.dice if COCKED in d.flags]
    assert len(flagged) == 1
    assert flagged[0].face is None
    assert abs(flagged[0].centre[0] - 320) < 20
    assert reading.values == [2, 5, 6]
    assert any("cocked" in p for p in reading.problems)


@pytest.mark.parametrize(
    ("face", "style", "lean", "towards"),
    [
        (1, "black", 35, 90),
        (1, "red", 35, 90),
        (2, "white", 42, 90),
        (3, "ivory", 35, 90),
        (3, "red", 50, 90),
        (1, "ivory", 35, 270),
        (2, "red", 35, 270),
        (3, "white", 42, 270),
    ],
)
def test_a_leaning_die_whose_top_face_looks_flat_is_not_read_for_sure(face, style, lean, towards):
    """A 1, 2 or 3 has no pattern that shows how squashed it looks, and a die leaning 35-50
    degrees squashes its pips too little to tell. The die shows a second face with pips:
    above its top face when it leans away from the wall (`towards` 90), below it, as a flat
    die's side would be, when it leans against the wall (270), but with pips as big and as
    round as the top's (a 1's pip is bigger than its die's others), and white pips in the
    shade looking grey. It is read for a check."""
    rng = np.random.default_rng([face, lean])
    leaning = scenes.die(face, 320, 50, style, size=44, angle=-4.0, tilt=lean, tilt_dir=towards)
    flat = [
        scenes.die(f, 160 + 160 * i, 320, style, size=44, angle=25.0 * i)
        for i, f in enumerate((2, 5, 6))
    ]
    reading = read(synth.render(scenes.tray([*flat, leaning], tray_wall=22), rng), expected=4)
    at_wall = [d for d in reading.dice if d.centre[1] < 150]
    assert at_wall and all(d.flagged for d in at_wall)
    assert sorted(d.face for d in reading.dice if d.centre[1] >= 150) == [2, 5, 6]
    assert reading.status == CHECK


@pytest.mark.parametrize("expected", [2, 4])
def test_count_other_than_asked_is_flagged(expected):
    rng = np.random.default_rng(2)
    scene = scenes.tray([scenes.die(1, 150, 150), scenes.die(6, 300, 300), scenes.die(3, 480, 180)])
    reading = read(synth.render(scene, rng), expected=expected)
    assert reading.status == CHECK
    assert reading.values == [1, 3, 6]  # nothing cropped to fit the count
    assert f"asked for {expected} dice, saw 3" in reading.problems
    assert read(synth.render(scene, rng), expected=3).status == OK


def test_twenty_five_dice():
    rng = np.random.default_rng(25)
    faces = [int(f) for f in rng.integers(1, 7, 25)]
    scene = synth.random_scene(
        faces, rng, size=34, view_tilt=0.0, style="white", surface="felt-green"
    )
    reading = read(synth.render(scene, rng), expected=25)
    assert reading.values == sorted(faces), reading.problems


def test_a_lone_cocked_die_is_flagged_too():
    """A die leaning against the wall is never read for sure: cocked (reroll), or, where the
    face classifier is sure of the face it sees, that face proposed for a check."""
    rng = np.random.default_rng(13)
    cocked = scenes.die(5, 320, 52, size=46, tilt=46, tilt_dir=90, cocked=True)
    reading = read(synth.render(scenes.tray([cocked], "felt-blue", tray_wall=22), rng), expected=1)
    assert reading.status == CHECK
    assert [d.flagged for d in reading.dice] == [True]


def test_touching_dice_in_an_oblique_view_hide_only_the_far_die_side():
    """The camera looks from the near edge: a near die covers a far die's side, never the
    other way round, whichever order the scene lists them in."""
    s = 44
    far, near = scenes.die(1, 300, 200, size=s), scenes.die(6, 300, 200 + s * 0.92, size=s)
    one_way = synth.render(scenes.tray([far, near], view_tilt=0.4), np.random.default_rng(4))
    other_way = synth.render(scenes.tray([near, far], view_tilt=0.4), np.random.default_rng(4))
    assert np.array_equal(one_way, other_way)
    reading = read(one_way, expected=2)
    assert reading.values == [1, 6], reading.problems


def test_white_pips_by_the_edge_of_blue_dice_are_read():
    """A pip by a die's edge can peak off its middle in one channel; measured from there it
    looked long and was left out of its face (a 4 read as a 3, or lost)."""
    dice = [
        scenes.die(f, 90 + 115 * i, 240, "blue", size=40, angle=30 + 3 * i)
        for i, f in enumerate((3, 4, 5, 6, 2))
    ]
    scene = scenes.tray(dice, "felt-green", blur=0.37, shadow=0.5)
    reading = read(synth.render(scene, np.random.default_rng(30)), expected=5)
    assert reading.values == [2, 3, 4, 5, 6], reading.problems
    assert reading.ok


def test_ones_with_a_glint_on_the_pip_are_all_seen():
    """One short edge ray (a shading step on the face) does not make a lone pip's die
    vanish: five 1s with glints, seen slightly from the side, are five dice."""
    dice = [
        scenes.die(1, 90 + 115 * i, 240, "ivory", size=50, angle=45 + 7 * i, pip_glare=True)
        for i in range(5)
    ]
    scene = scenes.tray(dice, "wood-light", view_tilt=0.11, light_gradient=0.2)
    reading = read(synth.render(scene, np.random.default_rng(45)), expected=5)
    assert reading.values == [1, 1, 1, 1, 1], reading.problems


@pytest.mark.parametrize("style", ["purple", "red", "ivory"])
def test_small_dice_whose_one_has_an_ordinary_pip_are_read(style):
    """Many dice give the 1 a pip no bigger than the others'; on small dice that pip is a
    few pixels across and is still a 1, not a speck."""
    dice = [
        scenes.die(
            1 + i % 6,
            80 + 80 * (i % 7),
            150 + 150 * (i // 7),
            style,
            size=34,
            angle=11 * i,
            one_pip=0.065,
        )
        for i in range(12)
    ]
    surface = "white-sheet" if style != "ivory" else "felt-blue"
    reading = read(
        synth.render(scenes.tray(dice, surface, blur=0.6), np.random.default_rng(7)), expected=12
    )
    assert reading.values == sorted(1 + i % 6 for i in range(12)), reading.problems


def test_white_pips_on_small_dice_darker_than_the_tray_in_one_channel():
    """A small blue die on blue felt is a dark spot in red: its corner pips are pips on
    it, not glints on a pip."""
    dice = [
        scenes.die(f, 80 + 96 * i, 240, "blue", size=30, angle=20 + 9 * i)
        for i, f in enumerate((4, 5, 6, 2, 3, 4))
    ]
    reading = read(
        synth.render(scenes.tray(dice, "felt-blue"), np.random.default_rng(74)), expected=6
    )
    assert reading.values == [2, 3, 4, 4, 5, 6], reading.problems


def test_a_flat_one_whose_pip_looks_long_is_not_taken_for_cocked():
    """A glint or blur can make a 1's pip look long, as a cocked die's would; the die's
    outline, seen square, says it lies flat. (A tray where that happened.)"""
    rng = np.random.default_rng(92)
    faces = [int(f) for f in rng.integers(1, 7, 6)]
    faces[0] = 1
    scene = synth.random_scene(faces, rng)
    reading = read(synth.render(scene, rng), expected=6)
    assert reading.values == sorted(faces), reading.problems
    assert reading.ok


def test_a_one_whose_long_pip_has_a_shade_beside_it_is_not_taken_for_cocked(monkeypatch):
    """A shade on a white face, just beside a 1's pip, ends two rays at once: the face
    looks lopsided around the pip, so its outline does not say how square the die looks,
    and a glint makes the pip look long, as a cocked die's would. The other rays draw a
    square outline: the die lies flat, and is read as a 1 for a check."""
    from companion.dice.pips import Pips
    from companion.dice.reading import UNCERTAIN

    frame = np.full((200, 200, 3), 150, np.uint8)
    cv2.rectangle(frame, (78, 78), (122, 122), (215, 220, 215), -1)
    shade = np.array([[78, 104], [92, 104], [78, 122]], np.int32)
    cv2.fillPoly(frame, [shade], (190, 195, 190))
    cv2.circle(frame, (100, 100), 4, (20, 20, 20), -1)
    frame = cv2.GaussianBlur(frame, (3, 3), 0.8)
    pips = Pips(
        xy=np.array([[100.0, 100.0]]),
        r=np.array([3.6]),
        polarity=-np.ones(1),
        contrast=np.array([300.0]),
        elongation=np.array([1.54]),
        face_bgr=np.array([[215.0, 220.0, 215.0]]),
        pip_bgr=np.array([[20.0, 20.0, 20.0]]),
        weak=np.zeros(1, bool),
    )
    dice = scenes.proposed(monkeypatch, frame, pips)
    assert [(d.face, d.flags) for d in dice] == [(1, (UNCERTAIN,))]


@pytest.mark.parametrize("seed", [0, 1])
def test_twos_with_a_glint_on_each_pip_are_twos(seed):
    """A glint makes a pip look a little long; the two far-apart pips of a 2 still link."""
    dice = [
        scenes.die(2, 110 + 140 * i, 240, "white", size=44, angle=20 * i, pip_glare=True)
        for i in range(4)
    ]
    reading = read(synth.render(scenes.tray(dice, "grey"), np.random.default_rng(seed)), expected=4)
    assert reading.values == [2, 2, 2, 2], reading.problems


@pytest.mark.parametrize("style", ["red", "ivory"])
def test_a_six_on_a_small_die_turned_to_a_corner_is_read_whole(style):
    """A small die turned near 45 degrees puts its middle pips by the rim, where the ring of
    face around them crosses the rim: they still complete the 6 (not a 4, not unreadable)."""
    dice = [
        scenes.die(6, 160 + 160 * i, 240, style, size=26, angle=a) for i, a in enumerate((40, 45))
    ]
    for seed in range(3):
        reading = read(synth.render(scenes.tray(dice), np.random.default_rng(seed)), expected=2)
        assert reading.status == OK and reading.values == [6, 6], reading.problems


@pytest.mark.parametrize("seed", [1, 3, 4, 6, 17])
def test_the_middle_pip_of_a_six_s_row_is_no_pip_s_rim(seed):
    """On two touching blue 6s, blurred, a row's middle pip has its neighbours' blurred rims
    in the ring of face around it: it is a pip still (the pair was read as one unreadable
    cluster of 11 pips)."""
    white = (240, 240, 240)
    scene = synth.Scene(
        dice=(
            synth.DieSpec(face=6, x=259.4, y=170.8, size=36.4, angle=105.2, body=(180, 70, 31),
                          pips=white, pip_glare=True),
            synth.DieSpec(face=6, x=293.4, y=180.0, size=33.7, angle=104.8, body=(175, 73, 31),
                          pips=white),
        ),
        surface=(45, 75, 110), texture="wood", texture_seed=957930088, light=1.07,
        light_gradient=0.08, light_angle=244.3, shadow=0.46, view_tilt=0.107, keystone=0.078,
        blur=0.84, noise=2.86,
    )  # fmt: skip
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=2)
    assert reading.status == OK and reading.values == [6, 6], reading.problems


@pytest.mark.parametrize("style", ["green", "red", "teal-gold"])
def test_a_face_brighter_at_one_corner_is_read(style):
    """Marbled and glossy dice brighten across the face: a 2's two pips sit on face shades
    far apart, and the darker corner of a small die stands out from a white sheet like a
    big dark pip. Neither splits the face or hides a pip."""
    dice = [
        scenes.die(
            face, 120 + 200 * (i % 3), 140 + 200 * (i // 3), style, size=36, angle=30, sheen=s
        )
        for i, (face, s) in enumerate([(2, 1.5), (3, 1.5), (5, 1.5), (2, 1.8), (3, 1.8), (5, 1.8)])
    ]
    frame = synth.render(scenes.tray(dice, "white-sheet"), np.random.default_rng(3))
    reading = read(frame, expected=6)
    assert reading.values == [2, 2, 3, 3, 5, 5], reading.problems


def test_sheen_brightens_a_face_towards_one_corner_in_its_own_hue():
    die = scenes.die(1, 320, 240, "green", size=60, sheen=1.8)
    frame = synth.render(scenes.tray([die], noise=0.0, blur=0.0), np.random.default_rng(0))
    dim, bright = frame[222, 302].astype(float), frame[258, 338].astype(float)
    assert 1.3 < bright[1] / dim[1] < 1.8
    assert np.allclose(bright / bright[1], dim / dim[1], atol=0.06)  # the same green


@pytest.mark.parametrize(
    ("face", "style", "size", "angle", "surface"),
    [
        (6, "orange", 20, 15, "white-sheet"),
        (6, "red", 28, 45, "felt-green"),
    ],
)
def test_close_pips_on_a_small_die_are_all_found(face, style, size, angle, surface):
    """On a small 6 the face around a pip is a thin band between its neighbours, and the
    ring of face looked at around each pip crosses them: the pips are found all the same,
    in every frame."""
    scene = scenes.tray([scenes.die(face, 320, 240, style, size=size, angle=angle)], surface)
    for seed in range(5):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=1)
        assert reading.values == [face], reading.problems


@pytest.mark.parametrize("style", ["red", "blue", "green", "teal-gold", "black"])
def test_marbled_dice_are_read(style):
    """On a marbled die the face around and between the pips swirls with lighter shades of
    its colour: the pips of one face still make one face, and no swirl is a pip."""
    dice = [
        scenes.die(face, 100 * face - 40, 240, style, size=34, angle=10 + 9 * face, marble=1.8)
        for face in range(1, 7)
    ]
    for seed in range(3):
        frame = synth.render(scenes.tray(dice, "white-sheet"), np.random.default_rng(seed))
        assert read(frame, expected=6).values == [1, 2, 3, 4, 5, 6]


def test_marble_swirls_a_face_with_lighter_shades_of_its_own_colour():
    die = scenes.die(1, 320, 240, "blue", size=80, marble=2.0)
    frame = synth.render(scenes.tray([die], noise=0.0, blur=0.0), np.random.default_rng(0))
    ys, xs = np.mgrid[210:270, 290:350]
    away = np.hypot(xs - 320, ys - 240) > 15  # from the pip
    face = frame[210:270, 290:350][away].astype(float)
    body = np.array(synth.DIE_STYLES["blue"][0], float)
    scale = face @ body / (body @ body)
    assert scale.min() < 1.1 < 1.5 < scale.max()  # plain body, and swirls 1.5x brighter
    swirl = face[scale > 1.4]  # the same blue (its blue channel may be at 255)
    assert np.allclose(swirl[:, 1] / swirl[:, 2], body[1] / body[2], rtol=0.1)


def test_dark_pips_with_a_glint_are_not_lost_to_it():
    """A glint on a dark pip is a bright spot about half its size, off its middle: neither
    suppresses the other, and the pips are read (the glints make no face)."""
    die = scenes.die(5, 469.66, 88.63, "orange", size=41.58, angle=81.58, pip_glare=True)
    scene = scenes.tray(
        [die],
        "white-sheet",
        tray_wall=21,
        texture_seed=334505170,
        view_tilt=0.33,
        light=0.822,
        light_gradient=0.2125,
        shadow=0.432,
        light_angle=291.28,
        keystone=0.0153,
        blur=0.366,
        noise=1.65,
    )
    for seed in range(4):
        assert read(synth.render(scene, np.random.default_rng(seed))).values == [5]


@pytest.mark.parametrize("style", ["orange", "yellow"])
def test_small_coloured_twos_with_a_glint_on_each_pip_are_twos(style):
    """On a coloured die a glint is whiter than the face: the pip's outline goes round it,
    so the pip stays round and full-sized, and the two pips of a small 2 still link."""
    dice = [
        scenes.die(2, 90 + 115 * i, 240, style, size=36, angle=12 + 23 * i, pip_glare=True)
        for i in range(5)
    ]
    scene = scenes.tray(dice, "wood-light", blur=0.4, noise=1.5)
    for seed in range(3):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=5)
        assert reading.values == [2] * 5, reading.problems


@pytest.mark.parametrize("seed", [1, 3, 4])
def test_white_pips_by_the_shaded_corner_of_a_small_dark_red_die_are_pips(seed):
    """Against a white tray the shaded corner of a small dark red die is a dark spot, the
    white pip on it a bright spot inside it: not a glint, which is on a black pip."""
    dark_red = {"body": (30, 25, 120), "pips": (235, 235, 235)}
    dice = [
        synth.DieSpec(face, 60 + 100 * i, 240, size=28, angle=10 + 13 * i, **dark_red)
        for i, face in enumerate(range(1, 7))
    ]
    scene = scenes.tray(dice, "white-sheet", shadow=0.6, view_tilt=0.2, blur=0.6)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=6)
    assert reading.values == [1, 2, 3, 4, 5, 6], reading.problems


@pytest.mark.parametrize("pips", [(40, 40, 190), (150, 60, 20)], ids=["red", "blue"])
def test_glossy_coloured_pips_with_a_glint_still_make_twos(pips):
    """A glint the colour of a white die's face makes its pip look a little long: the two
    pips of a 2 still link, as they would look round."""
    dice = [
        synth.DieSpec(2, 90 + 115 * i, 240, 44, 8 + 19 * i, (235, 235, 235), pips, pip_glare=True)
        for i in range(5)
    ]
    scene = scenes.tray(dice, "felt-green")
    for seed in range(3):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=5)
        assert reading.values == [2] * 5, reading.problems


def test_a_side_face_pip_grouped_with_a_small_six_is_left_out():
    """Seen from the side, a small die's side face shows a pip beside its top face's pips,
    dimmer in the shade, and grouped with them: without it the six pips still read, for a
    check."""
    dice = [
        scenes.die(6, 100 + 110 * i, 250, "orange", size=30, angle=angle)
        for i, angle in enumerate((84, 0, 45, 20, 70))
    ]
    scene = scenes.tray(dice, "felt-blue", view_tilt=0.33, keystone=0.068, blur=0.9, shadow=0.35)
    for seed in range(3):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=5)
        assert reading.values == [6] * 5, reading.problems
        assert reading.status == CHECK  # a face read without one of its group's pips


@pytest.mark.parametrize("style", ["red", "blue", "green"])
def test_a_lone_pip_on_a_marbled_face_is_no_sure_one(style):
    """A 2 on a marbled die whose other pip is lost (here painted over with the face's
    colour) shows one pip off its face's middle. Where the swirls around it end every ray
    at once, no edge shows where the die is: the pip is not read as a 1 for sure."""
    body, pips = synth.DIE_STYLES[style]
    dice = [
        synth.DieSpec(2, x, 240, 40, angle, body, pips, marble=2.2)
        for x, angle in ((100, 10), (210, 30), (430, 70))
    ]
    scene = synth.Scene(dice=tuple(dice), surface=synth.SURFACES["white-sheet"][0], texture="plain")
    for seed in range(3):
        frame = synth.render(scene, np.random.default_rng(seed))
        for d in dice:
            a = np.radians(d.angle)
            turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * d.size
            px, py = np.array([0.25, 0.25]) @ turn.T + (d.x, d.y)
            sx, sy = np.array([0.25, -0.05]) @ turn.T + (d.x, d.y)
            face = tuple(int(c) for c in frame[int(sy), int(sx)])
            cv2.circle(frame, (round(px), round(py)), round(0.14 * d.size), face, -1)
        reading = read(frame, expected=3)
        assert [d for d in reading.dice if d.face == 1 and not d.flagged] == [], reading.dice
        assert reading.values.count(1) >= 2  # still seen, for a check


def test_two_pips_of_a_marbled_three_are_no_sure_two():
    """Two pips of a 3 also fit a smaller 2; the third pip beyond them, with face between,
    says otherwise. On a strongly marbled die the face between may be a lighter swirl of
    its colour: still face, so the 2 is not read for sure."""
    body, pips = synth.DIE_STYLES["purple"]
    dice = [
        synth.DieSpec(face, 100 * face - 40, 240, 32, 30 + 9 * face, body, pips, marble=2.4)
        for face in range(1, 7)
    ]
    scene = synth.Scene(dice=tuple(dice), surface=synth.SURFACES["white-sheet"][0])
    for seed in (0, 1):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=6)
        three = min(reading.dice, key=lambda d: abs(d.centre[0] - 260))
        assert three.face == 3 or three.flagged, reading.dice


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tilt", [0.55, 0.7])
def test_the_side_a_slanted_camera_sees_below_each_die_is_no_die(seed, tilt):
    """A camera looking down at a slant sees the side of each die that faces it, below its
    top face, with pips of its own: those pips look longer, or (at a steeper slant, where
    top faces look as squashed as sides) the side is in the shade. It is no extra die."""
    rng = np.random.default_rng(seed)
    faces = [int(f) for f in rng.integers(1, 7, 8)]
    dice = [
        scenes.die(
            face, 90 + 150 * (k % 4), 150 + 180 * (k // 4), size=60, angle=rng.uniform(0, 90)
        )
        for k, face in enumerate(faces)
    ]
    reading = read(synth.render(scenes.tray(dice, "wood-light", view_tilt=tilt), rng), expected=8)
    assert len(reading.dice) == 8, reading.problems
    # every die read for sure is read right (the others are proposed for a check)
    sure = Counter(d.face for d in reading.dice if not d.flagged)
    assert not sure - Counter(faces), reading.dice


@pytest.mark.parametrize("seed", range(4))
def test_a_darker_die_below_another_in_a_gently_slanted_view_is_a_die(seed):
    """Seen at a gentle slant, a die's sides look clearly longer than its top; a 1 of a
    darker blue just below a blue 5 is another die, not the 5's side, however long those
    sides make the pips in view look on the whole."""
    blue, darker, white = (183, 72, 32), (160, 64, 27), (240, 240, 240)
    dice = [
        synth.DieSpec(3, 140, 70, 54, 20, blue, white),
        synth.DieSpec(5, 90, 50, 52, 19, blue, white),
        synth.DieSpec(5, 460, 130, 54, 200, blue, white),
        synth.DieSpec(1, 440, 182, 52, 203, darker, white),
    ]
    scene = scenes.tray(dice, "wood-dark", view_tilt=0.33, shadow=0.5)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=4)
    assert reading.values == [1, 3, 5, 5], reading.problems


def test_a_die_s_side_that_looks_cocked_hides_no_die(monkeypatch):
    """The side of a white 6 seen at a slant, a shade greyer, its pip read as a 1: the pip
    looks long and the side flat, as a cocked die does. It is the 6's side, and the 6 is the
    die: no cocked die hides it."""
    from companion.dice.pips import Pips

    frame = np.full((240, 320, 3), (60, 110, 45), np.uint8)
    cv2.rectangle(frame, (80, 80), (120, 120), (240, 240, 240), -1)  # the 6's top
    cv2.rectangle(frame, (80, 124), (120, 142), (200, 200, 200), -1)  # its side, below
    six = [[90, 90], [90, 100], [90, 110], [110, 90], [110, 100], [110, 110]]
    for x, y in six:
        cv2.circle(frame, (x, y), 3, (25, 25, 25), -1, cv2.LINE_AA)
    cv2.ellipse(frame, (100, 133), (5, 3), 0, 0, 360, (25, 25, 25), -1, cv2.LINE_AA)
    pips = Pips(
        xy=np.array([*six, [100, 133]], float),
        r=np.array([3.0] * 6 + [4.0]),
        polarity=-np.ones(7),
        contrast=np.full(7, 200.0),
        elongation=np.array([1.03] * 6 + [1.52]),
        face_bgr=np.array([[240.0] * 3] * 6 + [[200.0] * 3]),
        pip_bgr=np.tile([25.0, 25.0, 25.0], (7, 1)),
        weak=np.zeros(7, bool),
    )
    dice = scenes.proposed(monkeypatch, cv2.GaussianBlur(frame, (3, 3), 0.8), pips)
    assert [(d.face, d.flags) for d in dice] == [(6, ())]


@pytest.mark.parametrize("seed", range(2))
def test_the_ones_of_small_dice_far_from_the_camera_are_read(seed):
    """Dice 15 px wide: a 1's pip is under 2 px across its middle, smaller than a lone spot
    needs to be not to be a speck. Standing out clearly and round, it is a 1."""
    dice = [scenes.die(1, 60 + 75 * k, 240, "ivory", size=15, angle=13.0 * k) for k in range(8)]
    reading = read(
        synth.render(scenes.tray(dice, "felt-green"), np.random.default_rng(seed)), expected=8
    )
    assert reading.status == OK, reading.problems
    assert reading.values == [1] * 8


BLACK_ON_IVORY = ((30.0, 30.0, 30.0), (200.0, 220.0, 230.0))
RED_ON_BLACK = ((60.0, 55.0, 140.0), (40.0, 42.0, 50.0))


@pytest.mark.parametrize(
    ("radius", "contrast", "elongation", "colours", "read_as"),
    [
        (1.8, 200.0, 1.1, BLACK_ON_IVORY, "sure"),
        (1.8, 100.0, 1.1, BLACK_ON_IVORY, None),
        (1.8, 200.0, 1.4, BLACK_ON_IVORY, None),
        (1.5, 200.0, 1.1, BLACK_ON_IVORY, None),
        (1.6, 90.0, 1.1, RED_ON_BLACK, "check"),
        (1.6, 90.0, 1.4, RED_ON_BLACK, None),
        (1.3, 90.0, 1.1, RED_ON_BLACK, None),
    ],
)
def test_a_small_lone_spot_is_a_one_only_when_clear_or_painted_and_round(
    monkeypatch, radius, contrast, elongation, colours, read_as
):
    """A lone spot smaller than a die's single pip usually is: a speck of texture, unless it
    stands out clearly from its face and is round. A faint one of a hue of its own (a red
    pip on a black die, blurred small) is a painted pip: round, a 1 for a check. Each is the
    one spot the search found on a die 15 px wide."""
    from companion.dice.pips import Pips

    pip, face = colours
    frame = np.full((240, 320, 3), (60, 110, 45), np.uint8)
    cv2.rectangle(frame, (153, 113), (167, 127), face, -1)
    cv2.circle(frame, (160, 120), 2, pip, -1, cv2.LINE_AA)
    pips = Pips(
        xy=np.array([[160.0, 120.0]]),
        r=np.array([radius]),
        polarity=np.ones(1) if sum(pip) > sum(face) else -np.ones(1),
        contrast=np.array([contrast]),
        elongation=np.array([elongation]),
        face_bgr=np.array([face]),
        pip_bgr=np.array([pip]),
        weak=np.zeros(1, bool),
    )
    dice = scenes.proposed(monkeypatch, cv2.GaussianBlur(frame, (3, 3), 0.8), pips)
    assert [(d.face, "check" if d.flags else "sure") for d in dice] == (
        [(1, read_as)] if read_as else []
    )


@pytest.mark.parametrize(
    ("body", "seed"), [((30, 30, 30), 3), ((50, 20, 20), 1), ((50, 20, 20), 3)]
)
def test_a_white_pip_on_a_small_black_die_s_shaded_corner_is_no_glint(body, seed):
    """On a small black or dark blue die against a white tray the shaded corner is a dark
    spot, and the corner pip of a 5 a bright spot inside it, as a glint is inside a black
    pip. But that pip has others like it around it, on the die's face: it is a pip."""
    dice = [
        synth.DieSpec(face, 60 + 100 * i, 240, 26, 10 + 13 * i, body, (235, 235, 235))
        for i, face in enumerate(range(1, 7))
    ]
    scene = scenes.tray(dice, "white-sheet", shadow=0.6, view_tilt=0.2, blur=0.6)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=6)
    assert reading.values == [1, 2, 3, 4, 5, 6], reading.problems


@pytest.mark.parametrize(("body", "seed"), [((60, 20, 50), 0), ((50, 20, 20), 1)])
def test_a_small_dark_die_s_white_two_is_no_glint(body, seed):
    """A small purple or dark blue die against a white tray is a dark spot itself, and a
    pip of its 2 a bright spot inside it, as a glint is inside a black pip. The other pip of
    the 2, like it, beside it, shows it is a pip."""
    dice = [
        synth.DieSpec(2, 60 + 75 * i, 240, 20, 10 + 13 * i, body, (235, 235, 235)) for i in range(8)
    ]
    scene = scenes.tray(dice, "white-sheet", shadow=0.6, view_tilt=0.2, blur=0.6)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=8)
    assert reading.values == [2] * 8, reading.problems


def test_a_one_beside_a_two_is_no_four_short_of_a_pip():
    """A 1 beside a 2, seen at a slant: the three pips fit three corners of a 4 as well. Cut
    in two, each has its die's edge around it: a 1 and a 2."""
    body, pips = synth.DIE_STYLES["black"]
    dice = (
        synth.DieSpec(2, 523, 235, 49, 278, body, pips),
        synth.DieSpec(1, 476, 228, 46, 277, body, pips),
    )
    scene = scenes.tray(dice, view_tilt=0.19, keystone=0.06)
    for seed in range(2):
        reading = read(synth.render(scene, np.random.default_rng(seed)), expected=2)
        assert reading.values == [1, 2], reading.dice


@pytest.mark.parametrize(
    ("middle_bgr", "linked"),
    [((30, 30, 30), True), ((40, 40, 200), False)],  # the 3's middle pip; a red spot
)
def test_a_threes_corners_link_across_its_weak_middle_pip(middle_bgr, linked):
    """A glint on a 3's middle pip leaves it too weak to be grouped, and the path between
    the 3's corners crosses it: they still make one group, the middle pip between them."""
    from companion.dice.faces import group
    from companion.dice.pips import Pips
    from companion.dice.reader import default_profile

    frame = np.full((100, 100, 3), 150, np.uint8)
    frame[20:80, 20:80] = (200, 228, 238)  # an ivory face
    xy = np.array([[30, 50], [50, 50], [70, 50]], float)
    pip_bgr = np.array([(30, 30, 30), middle_bgr, (30, 30, 30)], float)
    for (x, y), colour in zip(xy.astype(int), pip_bgr, strict=True):
        cv2.circle(frame, (int(x), int(y)), 4, tuple(int(c) for c in colour), -1)
    pips = Pips(
        xy=xy,
        r=np.full(3, 4.0),
        polarity=-np.ones(3),
        contrast=np.full(3, 300.0),
        elongation=np.array([1.1, 1.44, 1.1]),
        face_bgr=np.tile([200.0, 228.0, 238.0], (3, 1)),
        pip_bgr=pip_bgr,
        weak=np.array([False, True, False]),
    )
    groups = [sorted(g.tolist()) for g in group(frame, pips, default_profile().faces)]
    assert ([0, 2] in groups) == linked


@pytest.mark.parametrize("style", ["ivory", "white"])
def test_ones_with_a_glint_are_read_for_sure(style):
    """A glint on a 1's pip makes the pip measure small: looking out from just past that
    small outline, a ray is still on the pip's far side. That is no other pip beside it, and
    the 1 needs no check."""
    dice = [
        scenes.die(1, 90 + 115 * i, 240, style, size=48, angle=10 + 17 * i, pip_glare=True)
        for i in range(5)
    ]
    for seed in range(2):
        frame = synth.render(scenes.tray(dice, "wood-light"), np.random.default_rng(seed))
        reading = read(frame, expected=5)
        assert reading.status == OK, reading.problems
        assert reading.values == [1] * 5


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_a_flat_three_whose_glinted_pips_look_long_is_not_taken_for_cocked(seed):
    """A glint on each pip makes a 3's pips, which alone tell how square it looks, look
    long; its die's outline, seen all round, is square."""
    dice = [
        scenes.die(3, 266, 349, size=53, angle=105),
        scenes.die(3, 407, 373, size=52, angle=181),
        scenes.die(2, 116, 393, size=56, angle=286),
        scenes.die(3, 100, 180, size=53, angle=344, pip_glare=True),
    ]
    light = dict(light=0.83, light_gradient=0.15, light_angle=33, shadow=0.54, blur=0.8)
    scene = scenes.tray(dice, "grey", view_tilt=0.1, tray_wall=26, **light)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=4)
    assert reading.status == OK, reading.problems
    assert reading.values == [2, 3, 3, 3]


@pytest.mark.parametrize(
    ("other_pip", "read_as"),
    [((230.0, 240.0, 230.0), (2, False)), ((30.0, 30.0, 30.0), (1, True))],
)
def test_a_one_with_a_pip_like_its_own_on_the_same_die_is_read_for_a_check(
    monkeypatch, other_pip, read_as
):
    """A glare streak between a 2's pips keeps them from linking: each is a lone pip, read
    as a 1, and one 1 is kept where they overlap. A die shows one 1: a lone pip like the
    kept one's, on its die, makes it doubtful, and the two a 2 for a check. A dark spot on a
    white-pipped die does not: a 1 for sure."""
    from companion.dice.pips import Pips

    green = (40, 120, 20)
    frame = np.full((240, 320, 3), 60, np.uint8)
    cv2.rectangle(frame, (140, 100), (176, 136), green, -1)
    cv2.line(frame, (140, 136), (176, 100), (200, 230, 200), 6, cv2.LINE_AA)  # the glare
    cv2.circle(frame, (150, 110), 3, (230, 240, 230), -1, cv2.LINE_AA)
    cv2.circle(frame, (166, 126), 3, other_pip, -1, cv2.LINE_AA)
    pips = Pips(
        xy=np.array([[150.0, 110.0], [166.0, 126.0]]),
        r=np.array([3.2, 3.0]),
        polarity=np.array([1.0, 1.0 if other_pip[0] > 100 else -1.0]),
        contrast=np.full(2, 250.0),
        elongation=np.array([1.04, 1.1]),
        face_bgr=np.tile(np.array(green, float), (2, 1)),
        pip_bgr=np.array([[230.0, 240.0, 230.0], other_pip]),
        weak=np.zeros(2, bool),
    )
    dice = scenes.proposed(monkeypatch, cv2.GaussianBlur(frame, (3, 3), 0.8), pips)
    assert [(d.face, not d.flags) for d in dice] == [read_as]


@pytest.mark.parametrize("seed", range(8))
def test_a_four_with_the_pips_of_its_side_below_it_is_no_six(seed):
    """A slanted camera sees a die's top face and, below it, its side: an orange 4 with glints
    on its pips and a 2 or 1 on the side below. The side's pips look longer, smaller and in
    the shade; with the 2, all six pips fit a 6, but they are a 4 and its side."""
    dice = [
        scenes.die(4, 160 + 160 * i, 240, "orange", size=36, angle=angle, pip_glare=True)
        for i, angle in enumerate((354.5, 0, 6))
    ]
    light = dict(light=1.09, light_angle=350, shadow=0.25, blur=0.9)
    scene = scenes.tray(dice, "wood-light", view_tilt=0.44, **light)
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=3)
    assert reading.values == [4, 4, 4], reading.problems
