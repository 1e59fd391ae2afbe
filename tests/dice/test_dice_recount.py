"""Every die has its pips counted again by their colour: pips the frame-wide search lost
are found, and nothing that is not a pip of that die is counted."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.dice import reader, synth
from companion.dice.faces import fit_short
from companion.dice.pips import Pips
from companion.dice.reader import read
from companion.dice.reading import CHECK, UNCERTAIN

from . import scenes

RED, WHITE, FELT = (40, 40, 200), (240, 240, 240), (60, 110, 45)
SHADED = (30, 30, 120)  # a white pip lost in the shade of a red face: dark red, no white
FAINT = (38, 38, 192)  # one lost in a faint shade: a red barely darker than the face
EDGE, SPACING, PIP_R = 44, 12, 4  # a die's edge, its pip spacing, a pip's radius (px)


def _die(frame, centre, pips, body=RED, pip=WHITE, pip_r=PIP_R):
    """Draw a flat die square to the frame, its pips at `pips` (offsets in spacings)."""
    x, y = centre
    half = EDGE // 2
    cv2.rectangle(frame, (x - half, y - half), (x + half, y + half), body, -1)
    for dx, dy in pips:
        cv2.circle(frame, (x + dx * SPACING, y + dy * SPACING), pip_r, pip, -1, cv2.LINE_AA)


def _found(*xy, body=RED, pip=WHITE) -> Pips:
    """The pips the frame-wide search found: round white pips on a red face."""
    n = len(xy)
    return Pips(
        xy=np.array(xy, float),
        r=np.full(n, float(PIP_R)),
        polarity=np.ones(n),
        contrast=np.full(n, float(np.linalg.norm(np.subtract(pip, body)))),
        elongation=np.full(n, 1.05),
        face_bgr=np.tile(np.array(body, float), (n, 1)),
        pip_bgr=np.tile(np.array(pip, float), (n, 1)),
        weak=np.zeros(n, bool),
    )


def _proposed(monkeypatch, drawn, pips: Pips) -> list:
    """The dice the pip search proposes in the frame `drawn` (blurred as a camera's is) when
    its frame-wide pass finds `pips`: the pips it lost are left to be found."""
    return scenes.proposed(monkeypatch, cv2.GaussianBlur(drawn, (3, 3), 0.8), pips)


def _frame():
    return np.full((240, 320, 3), FELT, np.uint8)


def test_a_die_whose_pips_the_search_lost_is_counted_again_and_still_flagged(monkeypatch):
    """A 5 whose search found its middle pip alone reads as a 1 for a check (there are pips
    around it): its other four pips are white spots on its red face, so it is a 5, still for
    a check."""
    frame = _frame()
    _die(frame, (160, 120), [(0, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)])
    (die,) = _proposed(monkeypatch, frame, _found((160, 120)))
    assert (die.face, die.flags) == (5, (UNCERTAIN,))


@pytest.mark.parametrize("glint", [(0, 0), (1, 0)])
def test_a_die_whose_pip_shows_a_glint_where_it_was_found_is_counted_again(monkeypatch, glint):
    """A 5 read for a check by its middle pip, dark red on ivory, with a glint where the
    search placed it (or a pixel off): the pip's colour is its darkest pixel's, so the
    pixel at the glint is not of it. The pixels around are: the 5 is counted again."""
    ivory, dark_red = (200, 225, 235), (30, 30, 150)
    frame = _frame()
    _die(frame, (160, 120), [(0, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)], body=ivory, pip=dark_red)
    cv2.circle(frame, (160 + glint[0], 120 + glint[1]), 1, (250, 250, 250), -1)
    pips = _found((160, 120), body=ivory, pip=dark_red)
    pips.polarity[:] = -1
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (5, (UNCERTAIN,))


def test_a_six_is_counted_again_though_its_pips_crowd_each_other_and_the_rim(monkeypatch):
    """A 6's pips close to each other and to its die's rim: a ring round one crosses its
    neighbours and the rim. Its neighbours are pips of the face, no other colour."""
    frame = _frame()
    x, y, step, r = 160, 120, 11, 4
    cv2.rectangle(frame, (x - 17, y - 17), (x + 17, y + 17), RED, -1)
    for dx in (-1, 1):
        for dy in (-1, 0, 1):
            cv2.circle(frame, (x + dx * step, y + dy * step), r, WHITE, -1, cv2.LINE_AA)
    pips = _found((x - step, y - step), (x + step, y + step))
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (6, (UNCERTAIN,))


def test_a_spot_too_near_a_one_s_pip_is_no_second_pip(monkeypatch):
    """A white glint beside a 1's pip, nearer than any two pips of a die lie: still a 1."""
    frame = _frame()
    _die(frame, (160, 120), [(0, 0)])
    cv2.circle(frame, (160 + 12, 120 + 12), PIP_R, WHITE, -1, cv2.LINE_AA)
    pips = _found((160, 120))
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (1, (UNCERTAIN,))


def test_the_pips_of_the_die_beside_it_are_not_counted(monkeypatch):
    """A 1 beside a die of its colours, a 2: the 2's near pip and the 1's would make a 2,
    but the tray lies between them, so the 1 stays a 1, whether the search found the 2 or
    not (and the pips a die was read by are its own)."""
    frame = _frame()
    _die(frame, (100, 100), [])
    cv2.circle(frame, (100, 100), 5, WHITE, -1, cv2.LINE_AA)  # a 1's pip is bigger
    _die(frame, (148, 100), [(-1, -1), (1, 1)])  # 4 px of tray between the two
    one_found = _found((100, 100))
    one_found.r[0] = 5.0
    assert [d.face for d in _proposed(monkeypatch, frame, one_found)] == [1]
    both_found = _found((100, 100), (136, 88), (160, 112))
    both_found.r[0] = 5.0
    assert [d.face for d in _proposed(monkeypatch, frame, both_found)] == [1, 2]


def test_spots_of_another_colour_are_not_counted(monkeypatch):
    """Yellow spots where a 5's corner pips would be, around a 1's white pip on a red face,
    are no white pips: a 1, read for sure."""
    frame = _frame()
    _die(frame, (160, 120), [(0, 0)])
    for dx, dy in [(1, -1), (-1, 1), (1, 1), (-1, -1)]:
        cv2.circle(frame, (160 + dx * SPACING, 120 + dy * SPACING), PIP_R, (40, 220, 230), -1)
    (die,) = _proposed(monkeypatch, frame, _found((160, 120)))
    assert (die.face, die.flags) == (1, ())


def test_a_die_read_for_sure_that_shows_more_pips_is_read_as_counted_for_a_check(monkeypatch):
    """A 3 read for sure by the diagonal of a 5 whose other corners the search lost: its
    pips counted again make a 5, for a check. Without them it stays a 3 read for sure."""
    pips = _found((148, 108), (160, 120), (172, 132))
    for shown, read_as, flags in [
        ([(0, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)], 5, (UNCERTAIN,)),
        ([(-1, -1), (0, 0), (1, 1)], 3, ()),
    ]:
        frame = _frame()
        _die(frame, (160, 120), shown)
        (die,) = _proposed(monkeypatch, frame, pips)
        assert (die.face, die.flags) == (read_as, flags)
        assert math.dist(die.centre, (160, 120)) < 2


def test_a_two_whose_pips_a_pale_swirl_parts_is_one_die_for_a_check():
    """A 2 on a teal die with a pale swirl across it, between its two yellow pips: they do
    not link, and each looks like a 1. A die shows only one 1, so the two are one die, not
    read for sure."""
    frame = np.full((240, 320, 3), 200, np.uint8)
    _die(frame, (160, 120), [(-1, -1), (1, 1)], body=(110, 120, 40), pip=(40, 200, 220), pip_r=6)
    cv2.line(frame, (142, 138), (178, 102), (200, 210, 190), 5, cv2.LINE_AA)  # the swirl
    reading = read(cv2.GaussianBlur(frame, (3, 3), 0.8), expected=1)
    assert [d.flagged for d in reading.dice] == [True]
    assert reading.status == CHECK


SIX = [(column, row) for column in (-1, 1) for row in (-1, 0, 1)]


@pytest.mark.parametrize("lost", [[(1, -1), (1, 0)], [(1, 0)], [(1, 1)]])
def test_a_six_with_pips_lost_in_the_shade_is_a_six_for_a_check_not_two_dice(lost):
    """One or two pips of a 6's column lost in the shade: the round pips left fit no
    pattern, and cut in two they make a 2 and a column of three, a 3 read for sure. They
    fit a 6 short of the pips lost, close as a 6's pips are: one die, a 6, for a check."""
    frame = _frame()
    _die(frame, (160, 120), [p for p in SIX if p not in lost])
    reading = read(cv2.GaussianBlur(frame, (3, 3), 0.8), expected=1)
    assert [(d.face, d.flagged) for d in reading.dice] == [(6, True)]


@pytest.mark.parametrize(
    ("gap", "twin_r", "read_as"),
    [(28, 6, 2), (20, 6, 1), (32, 8, 1)],
    ids=["a-two-s-corners", "a-glint-beside-the-pip", "a-bigger-spot"],
)
def test_a_one_with_a_lone_pip_like_its_own_is_a_two_only_where_a_two_s_pips_could_be(
    monkeypatch, gap, twin_r, read_as
):
    """A 1 beside a lone spot like its pip, on its die, which did not link to it (a swirl
    between them): the 1 is for a check, and the two are a 2 where they lie as far apart as
    a 2's corners and are of a size. A glint beside a 1's pip lies nearer; a spot a third
    bigger is no pip of its die."""
    frame = _frame()
    x, y = 160 - gap // 2, 120 - gap // 2
    cv2.rectangle(frame, (x - 10, y - 10), (x + gap + 10, y + gap + 10), RED, -1)
    cv2.line(frame, (x - 6, y + gap + 6), (x + gap + 6, y - 6), (200, 210, 230), 5)  # a swirl
    cv2.circle(frame, (x, y), 6, WHITE, -1, cv2.LINE_AA)
    cv2.circle(frame, (x + gap, y + gap), twin_r, WHITE, -1, cv2.LINE_AA)
    pips = _found((x, y), (x + gap, y + gap))
    pips.r[:] = (6.0, float(twin_r))
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (read_as, (UNCERTAIN,))


@pytest.mark.parametrize("seed", [2, 12, 16, 19])
def test_a_six_whose_glints_hide_pips_is_read_a_six_for_a_check(seed):
    """Glare on a teal 6's gold pips, touching another 6, hides two of its pips from the
    search: counted again, it is a 6 (for a check), never a 4."""
    teal = synth.DieSpec(
        face=6, x=244.7, y=391.2, size=43.0, angle=325.9, body=(111, 114, 20),
        pips=(60, 200, 230), pip_glare=True,
    )  # fmt: skip
    blue = synth.DieSpec(
        face=6, x=267.5, y=428.2, size=41.4, angle=328.4, body=(160, 66, 27), pips=WHITE
    )
    scene = synth.Scene(
        dice=(teal, blue), surface=FELT, texture="felt", texture_seed=573090567, light=0.85,
        light_gradient=0.07, light_angle=212.8, shadow=0.29, blur=0.44, noise=1.13,
    )  # fmt: skip
    reading = read(synth.render(scene, np.random.default_rng(seed)), expected=2)
    die = min(reading.dice, key=lambda d: math.dist(d.centre, (teal.x, teal.y)))
    assert die.face == 6


FIVE = [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]


def _searched(monkeypatch, pips: Pips):
    """The frame-wide search finds `pips`, and no more."""
    monkeypatch.setattr(reader.pipfind, "find", lambda frame, params: pips)


def test_a_five_whose_search_found_no_face_is_read_for_a_check(monkeypatch):
    """The search found two corners and the middle of a 5: three pips in an L fit no face,
    so the die was not seen at all. Its other two pips are spots of their colour on its
    face: the die is there, a 5, for a check."""
    frame = _frame()
    _die(frame, (160, 120), FIVE)
    _searched(monkeypatch, _found((148, 108), (160, 120), (148, 132)))
    reading = read(cv2.GaussianBlur(frame, (3, 3), 0.8), expected=1)
    assert [(d.face, d.flags) for d in reading.dice] == [(5, (UNCERTAIN,))]
    assert math.dist(reading.dice[0].centre, (160, 120)) < 3
    x1, y1, x2, y2 = reading.dice[0].box
    assert x1 < 160 - SPACING < 160 + SPACING < x2 and y1 < 120 - SPACING < 120 + SPACING < y2


def test_pips_one_short_of_a_pattern_fit_it_with_the_lost_pip_s_place():
    """Three corners of a 4 fit a 4 whose middle is the four corners' middle; five pips of
    a 6 fit a 6. Three in a row are no 4 one pip short."""
    square = np.array([(100.0, 50.0), (120.0, 50.0), (100.0, 70.0)])  # (120, 70) lost
    face, residual, spacing, _, centre = fit_short(square)
    assert (face, round(spacing), centre.round().tolist()) == (4, 10, [110, 60])
    assert residual < 0.01
    six = np.array([(0.0, 0.0), (0.0, 10.0), (0.0, 20.0), (20.0, 0.0), (20.0, 20.0)])
    assert fit_short(six)[0] == 6
    assert fit_short(np.array([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)]))[1] > 0.34


def _lost_corner(frame):
    """A 4 whose lower right pip is lost in the shade: a dark red, no white spot."""
    _die(frame, (160, 120), [(-1, -1), (1, -1), (-1, 1)])
    cv2.circle(frame, (172, 132), PIP_R, SHADED, -1, cv2.LINE_AA)


def test_a_die_for_a_check_one_pip_short_of_a_pattern_is_read_as_that_pattern(monkeypatch):
    """A 4 read as a 1 for a check (the search found one corner pip, measured small), one
    of its pips lost in the shade: its pip and the two found again fit a 4 but for that one,
    so it is a 4, still for a check."""
    frame = _frame()
    _lost_corner(frame)
    pips = _found((148, 108))
    pips.r[0] = 3.0
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (4, (UNCERTAIN,))


def test_a_die_read_for_sure_is_not_flagged_for_spots_one_short_of_a_pattern(monkeypatch):
    """A 1 read for sure stays sure when two spots of its pip's colour on its face fit a
    pattern with its pip only with a pip more than they have (three corners of a 4): such
    spots were more often not its pips."""
    frame = _frame()
    cv2.rectangle(frame, (130, 90), (190, 150), RED, -1)
    cv2.circle(frame, (160, 120), 5, WHITE, -1, cv2.LINE_AA)
    for spot in [(184, 125), (155, 144)]:  # at a right angle round the pip, 24 px out
        cv2.circle(frame, spot, 4, WHITE, -1, cv2.LINE_AA)
    pips = _found((160, 120))
    pips.r[0] = 5.0
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (1, ())


def test_a_six_read_as_a_two_from_two_pips_of_a_column_is_counted_again_as_a_six(monkeypatch):
    """Two neighbouring pips of a 6's column fit a 2 of a die half the 6's size: the 6's
    other pips lie beyond that die's edge. A 2's pips may be neighbours, not corners across
    the face, so its whole die is counted again: a 6, for a check."""
    frame = _frame()
    _die(frame, (160, 120), [(dx, dy) for dx in (-1, 1) for dy in (-1, 0, 1)])
    (die,) = _proposed(monkeypatch, frame, _found((148, 108), (148, 120)))
    assert (die.face, die.flags) == (6, (UNCERTAIN,))


def test_three_pips_too_close_for_corners_of_a_four_are_corners_and_middle_of_a_five(monkeypatch):
    """A 5 with big pips read as a 1 for a check, its lower corners lost (unseen): its
    pip and the two found again lie at a right angle, as three corners of a 4 would, but too
    close together for a 4 of pips this size. They are two corners and the middle of a 5."""
    frame = _frame()
    _die(frame, (160, 120), [(-1, -1), (1, -1), (0, 0)], pip_r=6)
    pips = _found((148, 108))
    pips.r[0] = 6
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (5, (UNCERTAIN,))


def _six_two_lost(frame, pip_r):
    """A 6 whose pips have radius `pip_r`, its left corners lost in a faint shade."""
    _die(frame, (160, 120), [(-1, 0), (1, -1), (1, 0), (1, 1)], pip_r=pip_r)
    for dy in (-1, 1):
        cv2.circle(frame, (148, 120 + dy * SPACING), pip_r, FAINT, -1, cv2.LINE_AA)


@pytest.mark.parametrize(("pip_r", "read_as"), [(PIP_R, 6), (3, 1)])
def test_four_pips_are_a_six_two_short_only_where_they_are_big_for_their_spacing(
    monkeypatch, pip_r, read_as
):
    """A 6 read as a 1 for a check, two corners lost in the shade: its pip and the three
    found again fit a 6 but for two, so it is a 6, for a check. Pips that small for their
    spacing are spread too wide for a 6's (a 3 and a pip of the die beside it): still a 1."""
    frame = _frame()
    _six_two_lost(frame, pip_r)
    pips = _found((148, 120))
    pips.r[0] = pip_r
    (die,) = _proposed(monkeypatch, frame, pips)
    assert (die.face, die.flags) == (read_as, (UNCERTAIN,))
