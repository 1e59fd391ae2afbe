"""The learned dice reader (`--reader detector`) on rendered trays: faces, styles, scale,
touching and rotated dice, flags."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.dice import detector, faceclass, synth
from companion.dice.learned import decided, read, seconded
from companion.dice.profile import Profile
from companion.dice.reading import CHECK, COCKED, HAND, OK, UNCERTAIN, Die, Reading, verdict

from . import scenes


def _six_faces(style: str) -> list[synth.DieSpec]:
    return [
        scenes.die(face, 110 + 200 * (i % 3), 130 + 220 * (i // 3), style, size=44, angle=17.0 * i)
        for i, face in enumerate(range(1, 7))
    ]


@pytest.mark.parametrize("style", sorted(synth.DIE_STYLES))
def test_every_face_of_every_die_style_is_read(style):
    """Each die's face where it lies; a die the detector is not sure of is flagged for a
    check, never guessed."""
    rng = np.random.default_rng(sorted(synth.DIE_STYLES).index(style))
    surface = "white-sheet" if style in ("black", "purple", "blue") else "felt-blue"
    reading = read(synth.render(scenes.tray(_six_faces(style), surface), rng), expected=6)
    assert reading.values == [1, 2, 3, 4, 5, 6], reading.problems
    by_position = sorted(reading.dice, key=lambda d: (d.centre[1] > 240, d.centre[0]))
    assert [d.face for d in by_position] == [1, 2, 3, 4, 5, 6]
    assert reading.status == OK or reading.problems == ("1 die not read for sure",)


def test_most_die_styles_are_read_hands_free():
    ok = 0
    for i, style in enumerate(sorted(synth.DIE_STYLES)):
        surface = "white-sheet" if style in ("black", "purple", "blue") else "felt-blue"
        frame = synth.render(scenes.tray(_six_faces(style), surface), np.random.default_rng(i))
        ok += read(frame, expected=6).status == OK
    assert ok >= 6


def test_dice_positions_and_sizes_come_with_each_face():
    rng = np.random.default_rng(5)
    scene = scenes.tray([scenes.die(5, 150, 120, size=40), scenes.die(2, 480, 360, size=40)])
    reading = read(synth.render(scene, rng))
    faces_at = {d.face: d for d in reading.dice}
    assert np.hypot(*np.subtract(faces_at[5].centre, (150, 120))) < 8
    assert np.hypot(*np.subtract(faces_at[2].centre, (480, 360))) < 8
    for d in reading.dice:
        x1, y1, x2, y2 = d.box
        assert x1 < d.centre[0] < x2 and y1 < d.centre[1] < y2
        assert 28 < x2 - x1 < 56  # about the die's 40 px
        assert 0 < d.confidence <= 1


def test_a_die_beside_one_seen_bigger_is_kept_beside_it_and_one_seen_twice_is_one():
    """Touching dice: the network may see one of them bigger than it is (the pair as one
    die), and its neighbour a die's edge away is then kept, marked beside it (it may also be
    that die's side face); two centres closer than a die are one die seen twice."""
    edge, cells = 24.0, 64
    out = np.zeros((detector.CHANNELS, cells, cells), np.float32)
    out[0] = -10.0
    step = round(edge / detector.STRIDE)  # a die's edge, in output cells
    for x, y, seen, chance in [
        (10, 10, edge * 1.5, 3.0),  # the first die, seen bigger
        (10 + step, 10, edge, 2.0),  # its neighbour, touching it
        (40, 40, edge, 3.0),
        (42, 40, edge, 2.0),  # the same die, found again
    ]:
        out[0, y, x] = chance
        out[1 + detector.FACES, y, x] = np.log(seen / detector.STRIDE)
    found = {round(f.centre[0]): f.beside for f in detector.decoded(out, 1.0)}
    first, neighbour, once = (round((c + 0.5) * detector.STRIDE) for c in (10, 10 + step, 40))
    assert found == {first: False, neighbour: True, once: False}


@pytest.mark.parametrize("zoom", [2.0, 4.0])
def test_a_roll_photographed_at_a_higher_resolution_reads_the_same(zoom):
    """A 640x480 tray and the same tray at 1280x960 or 2560x1920 (dice 90-180 px): the reader
    brings each to its die size first, so the reading does not change, and positions come
    back in the big frame's pixels."""
    rng = np.random.default_rng(3)
    scene = synth.random_scene([1, 3, 4, 6], rng, style="ivory", surface="felt-green", size=44)
    frame = synth.render(scene, rng)
    big = cv2.resize(frame, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    small, large = read(frame, expected=4), read(big, expected=4)
    assert small.values == large.values == [1, 3, 4, 6]
    assert small.status == large.status == OK, (small.problems, large.problems)
    for a, b in zip(
        sorted(small.dice, key=lambda d: d.centre),
        sorted(large.dice, key=lambda d: d.centre),
        strict=True,
    ):
        assert abs(b.centre[0] - zoom * a.centre[0]) < 6 * zoom
        assert abs(b.centre[1] - zoom * a.centre[1]) < 6 * zoom


@pytest.mark.parametrize(
    ("width", "height", "size"),
    # a webcam's frame; a Pi camera's still; the HQ camera's full still, dice 2% of its width
    [(640, 480, 32), (2592, 1944, 90), (4056, 3040, 80)],
)
def test_small_dice_lying_far_apart_are_all_read_where_they_lie(width, height, size):
    """Dice too small for the first passes to read, lying far apart (four corners of a tray
    and its middle): the pass at their size finds each, and gives its place in the frame's
    pixels. Dice too small even for the network's smallest size (3 pixels in the coarsest
    pass) look bigger to it than they are: the passes go on until one sees their size."""
    rng = np.random.default_rng(width)
    x1, y1, x2, y2 = 3 * size, 2 * size, width - 4 * size, height - 3 * size
    places = ((x1, y1), (x2, y1), ((x1 + x2) / 2, (y1 + y2) / 2), (x1, y2), (x2, y2))
    dice = [scenes.die(f, x, y, size=size, angle=11.0 * f) for f, (x, y) in enumerate(places, 2)]
    frame = synth.render(scenes.tray(dice, "wood-light", width=width, height=height), rng)
    reading = read(frame, expected=5)
    assert reading.status == OK, reading.problems
    for face, (x, y) in enumerate(places, 2):
        (die,) = [d for d in reading.dice if d.face == face]
        assert np.hypot(die.centre[0] - x, die.centre[1] - y) < size / 4


def test_big_dice_close_up_are_read():
    """Dice 150 px across in a 640x480 frame (a camera close over the tray): a coarse pass
    finds them, where a finer one would take their pips for small dice."""
    rng = np.random.default_rng(150)
    places = ((2, 140, 10), (5, 330, 35), (6, 520, 70))
    dice = [scenes.die(f, x, 240, size=150, angle=a) for f, x, a in places]
    reading = read(synth.render(scenes.tray(dice, "felt-blue"), rng), expected=3)
    assert reading.values == [2, 5, 6], reading.problems


@pytest.mark.parametrize("seed", [0, 3])
def test_small_dice_close_together_are_not_read_as_one_big_die_s_pips(seed):
    """Six small black dice in two rows on a white sheet look, in a view too coarse for
    them, like one big white die showing a 6: the finer view, which the face classifier
    finds more like dice, reads them."""
    faces, angles = (2, 1, 1, 1, 2, 5), (82, 55, 66, 49, 84, 73)
    places = [(320 + dx * 48, 320 + dy * 48) for dx in (-0.5, 0.5) for dy in (-1, 0, 1)]
    dice = [
        scenes.die(f, x, y, "black", size=31, angle=a)
        for f, (x, y), a in zip(faces, places, angles, strict=True)
    ]
    tray = scenes.tray(dice, "white-sheet", width=640, height=640)
    reading = read(synth.render(tray, np.random.default_rng(seed)))
    assert reading.values == [1, 1, 1, 2, 2, 5]
    assert reading.status == OK, reading.problems


def test_a_doubtful_die_s_second_look_does_not_depend_on_how_it_lies():
    """A die the face classifier doubts is read again in all its turns and mirrors: turned a
    quarter or mirrored, the same die gets the same probabilities, and its face the most."""
    rng = np.random.default_rng(12)
    dice = [
        scenes.die(f, 100 + 90 * i, 240, "red", size=40, angle=20)
        for i, f in enumerate((1, 2, 3, 4, 5, 6))
    ]
    frame = synth.render(scenes.tray(dice, "white-sheet"), rng)
    net = faceclass.model(detector.model().settings.classifier)
    crops = np.stack([net.crop(frame, (d.x, d.y), d.size) for d in dice])
    first = net.probabilities_turned(crops)
    for other in (np.rot90(crops, 1, axes=(1, 2)), crops[:, :, ::-1], crops[:, ::-1]):
        assert np.allclose(net.probabilities_turned(np.ascontiguousarray(other)), first, atol=1e-4)
    assert list(first[:, :6].argmax(axis=1) + 1) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("y", [8, 14])
def test_a_die_the_frame_cuts_is_not_read_for_sure(y):
    # Only part of the die is in view: the pip seen may be one of several.
    dice = [scenes.die(1, 300, y, size=40, angle=10), scenes.die(3, 200, 300, size=40, angle=5)]
    reading = read(synth.render(scenes.tray(dice), np.random.default_rng(1)), expected=2)
    assert reading.status == CHECK
    assert [d.face for d in reading.dice if not d.flagged] == [3]


@pytest.mark.parametrize("face", [1, 3, 4])
def test_a_die_just_past_the_frame_is_read_when_every_die_asked_for_is_seen(face):
    """A die whose edge lies a pixel past the frame shows all its pips: told the count and
    seeing it, the roll is read hands-free. Not told, the die may be one of several lying
    past the frame, and is checked (as is a die a third past, even told: test above)."""
    dice = [scenes.die(face, 300, 480 - 19, size=40), scenes.die(2, 200, 300, size=40, angle=5)]
    frame = synth.render(scenes.tray(dice), np.random.default_rng(4))
    told = read(frame, expected=2)
    assert told.status == OK and told.values == sorted([face, 2]), told.problems
    not_told = read(frame)
    assert not_told.status == CHECK
    assert [d.face for d in not_told.dice if d.flagged] == [face]


def test_random_trays_are_read_or_checked_never_silently_wrong():
    rng = np.random.default_rng(99)
    for _ in range(8):
        faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(1, 7)))]
        scene = synth.random_scene(faces, rng, touching=bool(rng.random() < 0.5))
        reading = read(synth.render(scene, rng), expected=len(faces))
        assert reading.values == sorted(faces) or reading.status == CHECK


def test_a_tray_of_a_skin_s_colour_stops_no_roll_whose_dice_are_all_seen():
    """A tan leather tray on a table of another colour looks like a hand to the colour test
    and stopped every roll. Told how many dice it asked for and seeing them all on it, the
    table gets them: read for sure, or a cocked die to reroll. Not told, a hand could hide a
    die, and the roll waits."""
    tray = synth.ThingSpec("tile", 320, 240, 330, 8, (90, 130, 180), (90, 130, 180))
    dice = [
        scenes.die(f, 240 + 80 * i, 220 + 30 * (i % 2), "white", size=40, angle=12 * i)
        for i, f in enumerate((2, 5, 6))
    ]
    scene = replace(scenes.tray(dice, "felt-blue"), things=(tray,))
    frame = synth.render(scene, np.random.default_rng(2))
    told = read(frame, expected=3)
    assert told.status == OK and told.values == [2, 5, 6]
    assert read(frame).status == HAND
    cocked = scenes.die(4, 330, 330, "white", size=40, tilt=42, tilt_dir=90, cocked=True)
    scene = replace(scene, dice=(*dice, cocked))
    reading = read(synth.render(scene, np.random.default_rng(2)), expected=4)
    assert reading.problems == ("1 cocked die: reroll",) and reading.values == [2, 5, 6]


@pytest.mark.parametrize(("dx", "dy"), [(-80, 60), (-60, -100), (60, -100), (80, 0)])
def test_a_hand_that_may_hide_part_of_a_die_stops_the_roll(dx, dy):
    """Fingers over part of a 6 leave three of its pips in view, which both readers read as
    a 3. Told how many dice and seeing them all, a hand that reaches a die without lying
    all round it may hide part of it: the roll waits for it to leave."""
    dice = [scenes.die(3, 120, 120), scenes.die(4, 520, 110), scenes.die(6, 320, 330)]
    hand = synth.HandSpec(x=320 + dx, y=330 + dy, angle=-90, width=160)
    scene = scenes.tray(dice, "felt-blue", hand=hand)
    assert read(synth.render(scene, np.random.default_rng(4)), expected=3).status == HAND
    reading = read(synth.render(replace(scene, hand=None), np.random.default_rng(4)), expected=3)
    assert reading.status == OK and reading.values == [3, 4, 6]


def test_a_hand_over_a_die_stops_the_roll_though_something_else_makes_up_the_count():
    """A hand over the 6, and a die of another game lying about that may be a die: told
    three dice, the two seen and that one make three, but the hand may hide the third. The
    roll waits for the hand to leave."""
    dice = [scenes.die(3, 120, 120), scenes.die(4, 520, 110), scenes.die(6, 320, 330)]
    other = synth.ThingSpec("symbol", 150, 360, 40, 20, (150, 150, 150), (30, 30, 30))
    hand = synth.HandSpec(x=320, y=330, angle=-90, width=160)
    scene = replace(scenes.tray(dice, "felt-blue", hand=hand), things=(other,))
    assert read(synth.render(scene, np.random.default_rng(4)), expected=3).status == HAND


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
    at_wall = [d for d in reading.dice if d.centre[1] < 120]
    assert len(at_wall) == 1 and at_wall[0].flagged
    assert sorted(d.face for d in reading.dice if d.centre[1] >= 120) == [2, 5, 6]


@pytest.mark.parametrize("expected", [2, 4])
def test_count_other_than_asked_is_flagged(expected):
    rng = np.random.default_rng(2)
    scene = scenes.tray([scenes.die(1, 150, 150), scenes.die(6, 300, 300), scenes.die(3, 480, 180)])
    reading = read(synth.render(scene, rng), expected=expected)
    assert reading.status == CHECK
    assert reading.values == [1, 3, 6]  # nothing cropped to fit the count
    assert f"asked for {expected} dice, saw 3" in reading.problems
    right = read(synth.render(scene, rng), expected=3)
    assert right.values == [1, 3, 6] and not any("asked for" in p for p in right.problems)


def test_many_dice():
    rng = np.random.default_rng(25)
    faces = [int(f) for f in rng.integers(1, 7, 15)]
    scene = synth.random_scene(
        faces, rng, size=34, view_tilt=0.0, style="white", surface="felt-green"
    )
    reading = read(synth.render(scene, rng), expected=15)
    assert reading.values == sorted(faces), reading.problems


def _calibrated(die: float, width: int) -> Profile:
    profile = Profile()
    return replace(profile, scale=replace(profile.scale, calibrated_die=die / width))


# (die edge, the printed die's edge, seed): small dice beside a big die printed on a box lid
# lying in the tray, so the search for the dice's size finds the print first.
PRINTED = [(22, 150, 0), (24, 160, 1), (20, 140, 2), (26, 180, 3), (22, 120, 4), (28, 200, 5)]


def test_a_calibrated_die_size_is_not_fooled_by_a_big_printed_die():
    """Told the owner's die size by calibration, the reader reads the roll right in one
    network pass, whatever size a big die printed on a box lid suggests (uncalibrated, the
    search for the dice's size may take the print's)."""
    for size, printed, seed in PRINTED:
        faces = [3, 5, 1, 6, 2]
        dice = [
            scenes.die(f, 360 + 60 * i, 330 + 50 * (i % 2), size=size, angle=10 * i)
            for i, f in enumerate(faces)
        ]
        box_print = scenes.die(4, 150, 150, "white", size=printed, angle=5)
        frame = synth.render(scenes.tray([*dice, box_print]), np.random.default_rng(seed))
        passes = detector.model().passes
        reading = read(frame, _calibrated(size, frame.shape[1]), expected=5)
        assert detector.model().passes - passes == 1
        assert reading.values == sorted(faces), (size, printed, reading.problems)
        assert reading.status == OK or reading.problems == ("1 die not read for sure",)


# A roll the detector doubts: these dice, each flagged, as many as the table asked for.
SECONDED = [
    scenes.die(f, 110 + 140 * i, 240, size=44, angle=12 * i) for i, f in enumerate((2, 4, 5, 6))
]


def _doubted(faces, expected=4, flag=UNCERTAIN, maybe=0) -> Reading:
    dice = [
        Die(
            f,
            (round(d.x - 22), round(d.y - 22), round(d.x + 22), round(d.y + 22)),
            (d.x, d.y),
            0.9,
            (flag,),
        )
        for f, d in zip(faces, SECONDED, strict=True)
    ]
    return verdict(dice, expected, Profile().dice.max_dice, maybe)


def _seconded_frame():
    return synth.render(scenes.tray(SECONDED, "felt-blue"), np.random.default_rng(31))


@pytest.mark.parametrize(
    "doubted",
    [
        _doubted((2, 4, 5, 6)),
        _doubted((2, 4, 5, 6), maybe=1),  # a faint place: the count told settles it
        _doubted((2, 4, 5, 6), expected=None),  # the table did not say how many
    ],
    ids=["count told", "count told, a faint place", "count not told"],
)
def test_a_doubted_roll_the_pip_search_reads_alike_is_read_hands_free(doubted):
    reading = seconded(_seconded_frame(), Profile(), doubted)
    assert reading.status == OK and reading.values == [2, 4, 5, 6]
    assert not any(d.flagged for d in reading.dice)


@pytest.mark.parametrize(
    "doubted",
    [
        _doubted((2, 4, 5, 5)),  # the pip search reads a 6 there
        _doubted((2, 4, 5, 5), expected=None),
        _doubted((2, 4, 5, 6), expected=5),  # fewer dice than asked for
        _doubted((2, 4, 5, 6), flag=COCKED),  # a die to reroll
        # Not told how many, a faint place may be a die that both readers miss.
        _doubted((2, 4, 5, 6), expected=None, maybe=1),
    ],
    ids=["read otherwise", "not told, read otherwise", "count short", "cocked", "faint place"],
)
def test_a_doubted_roll_stays_flagged_unless_both_readers_agree_on_the_roll(doubted):
    reading = seconded(_seconded_frame(), Profile(), doubted)
    assert reading.status == CHECK and reading == doubted


def test_told_the_count_the_pip_search_reading_the_same_values_unsure_seconds_the_roll(
    monkeypatch,
):
    """Told how many dice, two readers agreeing on every value is enough, however sure the
    second is, unless both are unsure of a die and either gives it less than even odds; not
    told, the second must be sure (a die both miss would make the roll short)."""
    from companion.dice import reader

    sure = reader.read
    odds = {"pip search": 0.6}  # the pip search's probability of the face it is unsure of

    def unsure_of_one(frame, profile=None, expected=None, edge=None):
        read = sure(frame, profile, expected, edge)
        one = replace(read.dice[0], flags=(UNCERTAIN,), confidence=odds["pip search"])
        return verdict([one, *read.dice[1:]], expected, Profile().dice.max_dice)

    monkeypatch.setattr(reader, "read", unsure_of_one)
    told = seconded(_seconded_frame(), Profile(), _doubted((2, 4, 5, 6)))
    assert told.status == OK and told.values == [2, 4, 5, 6]
    assert told.extras == {"seconded_by": "pip-search"}
    wrong = _doubted((2, 4, 5, 5))
    assert seconded(_seconded_frame(), Profile(), wrong) == wrong
    not_told = _doubted((2, 4, 5, 6), expected=None)
    assert seconded(_seconded_frame(), Profile(), not_told) == not_told
    # Both unsure of the 2, and the detector giving it less than even odds: no roll.
    doubted = _doubted((2, 4, 5, 6))
    unlikely = replace(doubted, dice=(replace(doubted.dice[0], confidence=0.4), *doubted.dice[1:]))
    assert seconded(_seconded_frame(), Profile(), unlikely) == unlikely
    # Or the pip search giving it less than even odds, however likely to the detector.
    odds["pip search"] = 0.4
    assert seconded(_seconded_frame(), Profile(), doubted) == doubted


def _pip_search_also_sees(monkeypatch, *extra: Die) -> None:
    """The pip search reads the frame as it does, and sees `extra` dice besides."""
    from companion.dice import reader

    own = reader.read

    def seeing_more(frame, profile=None, expected=None, edge=None):
        read = own(frame, profile, expected, edge)
        return verdict([*read.dice, *extra], expected, Profile().dice.max_dice)

    monkeypatch.setattr(reader, "read", seeing_more)


def _die_at(face: int, x: float, y: float, flags=()) -> Die:
    return Die(
        face, (round(x - 22), round(y - 22), round(x + 22), round(y + 22)), (x, y), 0.99, flags
    )


def test_told_the_count_each_doubted_die_read_alike_where_it_lies_seconds_the_roll(monkeypatch):
    """Told how many dice, the pip search reading every doubted die alike and for sure where
    it lies seconds the roll, whatever else it takes for a die (a die of another game in a
    corner of the tray): its count is not the roll's."""
    _pip_search_also_sees(monkeypatch, _die_at(1, 600, 60))
    reading = seconded(_seconded_frame(), Profile(), _doubted((2, 4, 5, 6)))
    assert reading.status == OK and reading.values == [2, 4, 5, 6]


@pytest.mark.parametrize(
    "extra",
    [
        _die_at(2, 110, 262),  # a second die on the 2: its side, or half of it
        _die_at(3, 390, 240),  # the 5 read for sure as a 3
    ],
    ids=["two on one die", "a sure die read otherwise"],
)
def test_told_the_count_the_pip_search_seeing_more_seconds_no_die_it_reads_otherwise(
    monkeypatch, extra
):
    """The pip search seeing more dice than the roll's seconds it die by die, and no die
    where it sees two dice, or a die the detector is sure of read otherwise for sure."""
    two, four, five, six = _doubted((2, 4, 5, 6)).dice
    sure_five = verdict([two, four, replace(five, flags=()), six], 4, Profile().dice.max_dice)
    _pip_search_also_sees(monkeypatch, extra)
    assert seconded(_seconded_frame(), Profile(), sure_five) == sure_five


def test_told_the_count_a_die_of_the_roll_touching_a_doubted_one_is_not_a_second_die_on_it(
    monkeypatch,
):
    """A doubted 6, seen bigger than it is, touching a 4: the pip search's 4 lies on the 6's
    outline, but where a die of the roll lies. It is that die, not the 6's side: the pip
    search reading the 6 alike seconds the roll."""
    from companion.dice import reader

    six = Die(6, (70, 210, 130, 270), (100.0, 240.0), 0.8, (UNCERTAIN,))
    four, five, two = _die_at(4, 142, 240), _die_at(5, 390, 240), _die_at(2, 530, 240)
    max_dice = Profile().dice.max_dice
    doubted = verdict([six, four, five, two], 4, max_dice)
    pip_reading = verdict([_die_at(6, 100, 240), four, five, two, _die_at(1, 600, 60)], 4, max_dice)
    monkeypatch.setattr(reader, "read", lambda *args, **kwargs: pip_reading)
    reading = seconded(_seconded_frame(), Profile(), doubted)
    assert reading.status == OK and reading.values == [2, 4, 5, 6]


def test_told_the_count_a_roll_with_a_faint_place_is_seconded_only_by_the_same_roll(monkeypatch):
    """A place that may be a die, and the pip search seeing a die more than the roll: die by
    die agreement does not settle what the faint place is."""
    _pip_search_also_sees(monkeypatch, _die_at(1, 600, 60))
    faint = _doubted((2, 4, 5, 6), maybe=1)
    assert seconded(_seconded_frame(), Profile(), faint) == faint


def _with_extra(extra: Die, faces=(2, 4, 5, 6)) -> Reading:
    """The detector's reading of SECONDED told four dice, sure of them, and of `extra`
    besides."""
    sure = [replace(d, flags=()) for d in _doubted(faces).dice]
    return verdict([*sure, extra], 4, Profile().dice.max_dice)


def test_told_the_count_a_doubted_die_more_where_the_pip_search_sees_none_is_no_die():
    """Told four dice and sure of four, a fifth doubted where the pip search sees no die (a
    die of another game, a token) is none of the roll's: the four are read hands-free."""
    reading = seconded(
        _seconded_frame(), Profile(), _with_extra(_die_at(1, 320, 400, (UNCERTAIN,)))
    )
    assert reading.status == OK and reading.values == [2, 4, 5, 6]


def test_told_the_count_a_doubted_stray_die_keeps_the_roll_for_a_check():
    """A stray die in the tray, doubted, that the pip search sees as a die; or the four read
    otherwise by the pip search: which four dice are the roll is the table's to say."""
    stray = scenes.die(3, 320, 400, size=44, angle=30)
    frame = synth.render(scenes.tray([*SECONDED, stray], "felt-blue"), np.random.default_rng(31))
    extra = _with_extra(_die_at(3, 320, 400, (UNCERTAIN,)))
    assert seconded(frame, Profile(), extra) == extra
    misread = _with_extra(_die_at(1, 320, 400, (UNCERTAIN,)), faces=(2, 4, 5, 5))
    assert seconded(_seconded_frame(), Profile(), misread) == misread


# A 3 touching a 2 on a blue felt: the detector sees the pair as one die.
TOUCHING = synth.Scene(
    dice=(
        synth.DieSpec(3, 410.5, 420.8, 37.1, 305.6, (105, 108, 19), (60, 200, 230), pip_glare=True),
        synth.DieSpec(4, 431.7, 391.1, 35.4, 306.7, (113, 115, 20), (60, 200, 230), pip_glare=True),
        synth.DieSpec(2, 516.1, 163.8, 36.6, 116.2, (117, 40, 91), (235, 235, 235)),
        synth.DieSpec(3, 484.2, 148.1, 34.2, 118.6, (38, 38, 186), (240, 240, 240)),
    ),
    surface=(120, 70, 40), texture="felt", texture_seed=979060649, light=1.04,
    light_gradient=0.07, light_angle=269.4, shadow=0.29, blur=0.44, noise=1.37,
)  # fmt: skip


def test_told_the_count_a_die_the_detector_misses_beside_another_the_pip_search_adds():
    """Told four dice, the detector sees three: the 2 touching the 3 is one die to it. The
    pip search reads four for sure, each of the detector's three alike where it lies: the
    roll is its four, hands-free."""
    reading = read(synth.render(TOUCHING, np.random.default_rng(7)), expected=4)
    assert reading.status == OK and reading.values == [2, 3, 3, 4]


def test_told_the_count_a_die_fewer_is_made_up_only_by_a_die_the_pip_search_is_sure_of(
    monkeypatch,
):
    """Seeing three of four dice, the roll is the three and the die the pip search adds when
    it reads four, the three alike where they lie and the fourth for sure; not when it reads
    one of them otherwise, is unsure of the die it adds, or sees a die more (even one more 5
    where the 5 lies)."""
    from companion.dice import reader

    two, four, five = (replace(d, flags=()) for d in _doubted((2, 4, 5, 6)).dice[:3])
    max_dice = Profile().dice.max_dice
    short = verdict([two, four, five], 4, max_dice)
    reading = seconded(_seconded_frame(), Profile(), short)
    assert reading.status == OK and reading.values == [2, 4, 5, 6]
    misread = verdict([two, four, replace(five, face=3)], 4, max_dice)
    assert seconded(_seconded_frame(), Profile(), misread) == misread
    own = reader.read

    def unsure_of_the_six(frame, profile=None, expected=None, edge=None):
        read = own(frame, profile, expected, edge)
        dice = [replace(d, flags=(UNCERTAIN,)) if d.face == 6 else d for d in read.dice]
        return verdict(dice, expected, max_dice)

    with monkeypatch.context() as patched:
        patched.setattr(reader, "read", unsure_of_the_six)
        assert seconded(_seconded_frame(), Profile(), short) == short
    for more in (_die_at(1, 600, 60, (UNCERTAIN,)), _die_at(5, 390, 255)):
        with monkeypatch.context() as patched:
            _pip_search_also_sees(patched, more)
            assert seconded(_seconded_frame(), Profile(), short) == short


def test_a_faint_place_checks_a_roll_unless_the_count_told_and_seen_settles_it():
    s = detector.Settings(1.0, 0.4, 0.6, 0.9, maybe=0.12, maybe_told=0.4, sure_told=0.6)
    three, five = np.eye(detector.FACES)[2] * 12, np.eye(detector.FACES)[4] * 12
    found = [
        detector.Found((100.0, 100.0), 40.0, 0.95, three),
        detector.Found((300.0, 300.0), 40.0, 0.95, five),
        detector.Found((500.0, 200.0), 40.0, 0.3, five),  # a glint, or a die half seen
    ]
    told = decided(found, (480, 640, 3), s, expected=2, max_dice=8)
    assert told.status == OK and told.values == [3, 5]
    not_told = decided(found, (480, 640, 3), s, expected=None, max_dice=8)
    assert not_told.status == CHECK and "1 more thing may be dice" in not_told.problems


def test_told_more_dice_than_are_surely_seen_the_likeliest_faint_places_make_up_the_count():
    """A die half hidden or in shadow: told three dice and seeing two, the likelier of two
    faint places is proposed as the third die, doubted, so one tap confirms the roll; told
    four, both are; told five, two places cannot make up three dice, and none is proposed."""
    s = detector.Settings(1.0, 0.4, 0.6, 0.9, maybe=0.12, maybe_told=0.4, sure_told=0.6)
    three, five = np.eye(detector.FACES)[2] * 12, np.eye(detector.FACES)[4] * 12
    found = [
        detector.Found((100.0, 100.0), 40.0, 0.95, three),
        detector.Found((300.0, 300.0), 40.0, 0.95, five),
        detector.Found((500.0, 400.0), 40.0, 0.15, three),
        detector.Found((500.0, 200.0), 40.0, 0.3, five),
    ]
    three_told = decided(found, (480, 640, 3), s, expected=3, max_dice=8)
    assert three_told.values == [3, 5, 5] and three_told.status == CHECK
    (doubted,) = [d for d in three_told.dice if d.flagged]
    assert doubted.centre == (500.0, 200.0) and doubted.flags == (UNCERTAIN,)
    assert "1 die not read for sure" in three_told.problems
    assert not any("may be dice" in p for p in three_told.problems)
    four_told = decided(found, (480, 640, 3), s, expected=4, max_dice=8)
    assert four_told.values == [3, 3, 5, 5] and four_told.status == CHECK
    five_told = decided(found, (480, 640, 3), s, expected=5, max_dice=8)
    assert len(five_told.dice) == 2 and five_told.status == CHECK


def test_a_place_beside_a_die_fills_a_count_told_and_checks_a_roll_not_told_if_likely():
    """A place beside a die (a touching neighbour, or that die's side face) fills a count
    told and short, as a doubted die however sure it looks, and told as many dice as are
    seen it is none. Not told, one likely a die (`beside_maybe`: a touching pair seen as one
    die) makes the roll checked, as it may be a die short; a faint one (a side face) does
    not."""
    s = detector.Settings(1.0, 0.4, 0.6, 0.9, maybe=0.12, maybe_told=0.4, sure_told=0.6)
    three, five = np.eye(detector.FACES)[2] * 12, np.eye(detector.FACES)[4] * 12
    found = [
        detector.Found((100.0, 100.0), 40.0, 0.95, three),
        detector.Found((300.0, 300.0), 40.0, 0.95, five),
        detector.Found((340.0, 300.0), 30.0, 0.9, five, beside=True),
    ]
    short = decided(found, (480, 640, 3), s, expected=3, max_dice=8)
    assert short.values == [3, 5, 5] and short.status == CHECK
    assert [d.centre for d in short.dice if d.flagged] == [(340.0, 300.0)]
    told = decided(found, (480, 640, 3), s, expected=2, max_dice=8)
    assert told.status == OK and told.values == [3, 5]
    not_told = decided(found, (480, 640, 3), s, expected=None, max_dice=8)
    assert not_told.status == CHECK and "1 more thing may be dice" in not_told.problems
    faint = [*found[:2], replace(found[2], presence=s.beside_maybe - 0.1)]
    reading = decided(faint, (480, 640, 3), s, expected=None, max_dice=8)
    assert reading.status == OK and reading.values == [3, 5]


def test_a_die_less_surely_there_is_read_when_the_count_told_and_seen_settles_it():
    """Told how many dice and seeing as many, a die the detector is less sure is there is
    one (`sure_told`); not told, or seeing another count, it is checked."""
    s = detector.Settings(1.0, 0.3, 0.8, 0.9, maybe=0.12, maybe_told=0.12, sure_told=0.5)
    two, six = np.eye(detector.FACES)[1] * 12, np.eye(detector.FACES)[5] * 12
    found = [
        detector.Found((100.0, 100.0), 40.0, 0.95, two),
        detector.Found((300.0, 300.0), 40.0, 0.6, six),  # half in shadow
    ]
    told = decided(found, (480, 640, 3), s, expected=2, max_dice=8)
    assert told.status == OK and told.values == [2, 6]
    for expected in (None, 3):
        checked = decided(found, (480, 640, 3), s, expected=expected, max_dice=8)
        assert checked.status == CHECK and "1 die not read for sure" in checked.problems
    faint = decided([found[0], replace(found[1], presence=0.4)], (480, 640, 3), s, 2, 8)
    assert faint.status == CHECK


def _with_things(surface: str, size: float = 44) -> synth.Scene:
    """Three dice on `surface`, and one of each thing that is not a die, each about a die's
    size, lying between them."""
    dice = [
        scenes.die(f, 120 + 200 * i, 130, size=size, angle=20.0 * i)
        for i, f in enumerate((3, 5, 2))
    ]
    spots = [(90, 300), (230, 330), (370, 290), (520, 340), (300, 430)]
    kinds = ("disc", "ring", "tile", "print", "disc")
    colours = ((150, 150, 150), (185, 190, 195), (235, 235, 235), (30, 30, 30), (60, 150, 200))
    things = [
        synth.ThingSpec(kind, x, y, size, 30.0, colour, (60, 60, 60))
        for kind, (x, y), colour in zip(kinds, spots, colours, strict=True)
    ]
    things.append(synth.ThingSpec("cable", 320, 220, size, 0.0, (30, 30, 30)))
    return replace(scenes.tray(dice, surface), things=tuple(things))


@pytest.mark.parametrize("surface", ["white-sheet", "wood-light", "felt-blue"])
def test_buttons_coins_tiles_cables_and_print_beside_the_dice_are_not_dice(surface):
    """A table has more on it than dice: none of it is read as a die, told the count or not."""
    frame = synth.render(_with_things(surface), np.random.default_rng(4))
    told = read(frame, expected=3)
    assert told.values == [2, 3, 5] and told.status == OK, told.problems
    alone = read(frame)
    assert alone.values == [2, 3, 5], alone.problems


@pytest.mark.parametrize("surface", ["white-sheet", "wood-light", "felt-blue"])
def test_the_dice_of_other_games_beside_the_dice_are_not_dice(surface):
    """Dice with a symbol in place of pips (a question mark, a number, a sign) lying among
    the pip dice are not read as dice, told the count or not."""
    dice = [
        scenes.die(f, 120 + 200 * i, 130, size=44, angle=20.0 * i) for i, f in enumerate((3, 5, 2))
    ]
    colours = (((235, 235, 235), (30, 30, 30)), ((30, 30, 30), (60, 150, 200)))
    others = [
        synth.ThingSpec("symbol", x, y, 44, 15.0 * k, *colours[k % 2])
        for k, (x, y) in enumerate([(110, 330), (260, 300), (420, 340), (560, 290)])
    ]
    frame = synth.render(
        replace(scenes.tray(dice, surface), things=tuple(others)), np.random.default_rng(5)
    )
    told = read(frame, expected=3)
    assert told.values == [2, 3, 5] and told.status == OK, told.problems
    alone = read(frame)
    assert alone.values == [2, 3, 5], alone.problems
