"""The dice reader's per-candidate loops: right answers on shapes worked out by hand, and a
clear error, not a wrong read, when handed what they would misread."""

import math

import numpy as np
import pytest

from companion.dice import faces, kernels


def test_fit_finds_a_turned_scaled_five_exactly():
    angle, spacing, centre = 0.3, 9.0, np.array([120.0, 80.0])
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    points = faces.TEMPLATES[5] @ turn.T * spacing + centre
    residual, fitted_spacing, fitted_angle, squash, middle = faces.fit(points[::-1].copy())
    assert residual < 1e-9
    assert fitted_spacing == pytest.approx(spacing)
    # a 5 looks the same every quarter turn
    assert math.remainder(fitted_angle - angle, math.pi / 2) == pytest.approx(0.0, abs=1e-9)
    assert squash == pytest.approx(1.0)
    assert middle == pytest.approx(centre)


def test_fit_measures_how_far_a_pip_is_off_its_place():
    points = faces.TEMPLATES[4] * 10.0
    points[0] += (3.0, 0.0)  # one pip 0.3 spacings out of place
    residual, *_ = faces.fit(points)
    assert 0.05 < residual < 0.3


def test_fit_of_pips_all_in_one_place_is_none():
    assert faces.fit(np.full((3, 2), 7.0)) is None


def test_fit_refuses_a_count_of_pips_no_die_has():
    with pytest.raises(ValueError, match="2 to 6 points"):
        kernels.fit(
            np.zeros((1, 2)), faces.TEMPLATES[1], faces.AFFINE_SOLVE[1], faces.AFFINE_SRC[1]
        )


def test_extent_measures_a_round_spot_and_drops_an_open_one():
    h, w = 40, 40
    response = np.zeros((2 * h + 2, w, 3), np.uint8)
    yy, xx = np.mgrid[:h, :w]
    # a bright cone of radius 5 in the black-hat's G channel at (10, 12), and a ridge that
    # never falls to half its height along x at (30, 30)
    response[:h, :, 1] = np.clip(100 - 20 * np.hypot(xx - 10, yy - 12), 0, 100).astype(np.uint8)
    response[30, :, 2] = 90
    at = np.array([(12 * w + 10) * 3 + 1, (30 * w + 30) * 3 + 2], np.intp)
    peak = np.array([100, 90], np.float32)
    closed, radius, elong = kernels.extent(response, at, peak, 12)
    assert closed.tolist() == [0]
    # Below 65 two steps out across (reach 1.5) and three along the diagonals, whose
    # whole-pixel steps are (1, 1), (1, 1), (2, 2) (reach 2.5).
    assert radius[0] == (4 * 1.5 + 4 * 2.5) / 8
    assert elong[0] == 5 / 3


def test_extent_refuses_a_response_that_is_not_two_halves():
    """Its halves, and so each peak's, are told by its height: (2H + 2) rows."""
    for rows in (81, 2):
        with pytest.raises(ValueError, match=r"\(2H \+ 2\) x W x 3"):
            kernels.extent(np.zeros((rows, 40, 3), np.uint8), [0], np.ones(1, np.float32), 12)


@pytest.mark.parametrize("at", [82 * 40 * 3, -1])
def test_extent_rejects_a_peak_off_the_response(at):
    response = np.zeros((82, 40, 3), np.uint8)
    with pytest.raises(IndexError, match="off the response"):
        kernels.extent(response, np.array([0, at], np.intp), np.ones(2, np.float32), 12)


def test_spots_numbers_measures_and_finds_the_pips_own_spots():
    frame = np.full((30, 40, 3), 200, np.uint8)
    frame[3:6, 20:24] = 10  # 3 x 4 spot, first (its block row is the first)
    frame[4:9, 2:4] = 10  # 5 x 2 spot, left of it but from a row below
    frame[10, 10] = frame[11, 11] = 10  # two pixels touching at a corner: one spot
    frame[20:22, 30:32] = 120  # too far from the colour
    own_xy = np.array([(21, 4), (35, 25), (0, 0)])
    xy, box, own = kernels.spots(frame, 0, 0, 40, 30, (10.0, 10.0, 10.4), 100.0, own_xy)
    # Pixel rows 2-3 and 4-5 are block rows 1 and 2: the spot from row 3 comes first, then
    # the one from row 4, then the corner-touching pair.
    assert box.dtype == np.int64 and box.tolist() == [[4, 3, 12], [2, 5, 10], [2, 2, 2]]
    assert xy.tolist() == [[21.5, 4.0], [2.5, 6.0], [10.5, 10.5]]
    assert own.tolist() == [12, 0, 0]


def test_spots_are_numbered_as_opencv_numbers_them():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(7)
    frame = np.where(rng.random((60, 80, 1)) < 0.3, 0, 255).astype(np.uint8).repeat(3, axis=2)
    nothing = np.zeros((0, 2), np.intp)
    centres, boxes, _ = kernels.spots(frame, 5, 7, 70, 55, (0.0, 0.0, 0.0), 1.0, nothing)
    near = (frame[7:55, 5:70, 0] == 0).view(np.uint8)
    _, _, stats, centroids = cv2.connectedComponentsWithStats(near, connectivity=8)
    assert centres.tolist() == centroids[1:].tolist()
    assert boxes.tolist() == stats[1:, 2:].tolist()


def test_spots_rejects_a_window_off_the_frame():
    frame = np.zeros((30, 40, 3), np.uint8)
    with pytest.raises(ValueError, match="window"):
        kernels.spots(frame, 0, 0, 41, 30, (0.0, 0.0, 0.0), 1.0, np.zeros((0, 2), np.intp))


def test_rays_stop_where_the_colour_leaves_the_face_or_the_frame():
    frame = np.full((40, 60, 3), 200, np.uint8)
    frame[:, 45:] = (30, 30, 30)  # the tray right of x = 45
    # centre x, y, start, stop, face B, G, R, threshold
    table = np.array(
        [
            [20.0, 20.0, 2.0, 40.0, 200, 200, 200, 25.0],  # right: meets the tray at x = 45
            [20.0, 20.0, 2.0, 40.0, 200, 200, 200, 25.0],  # up: leaves the frame at y = -1
            [20.0, 20.0, 2.0, 10.0, 200, 200, 200, 25.0],  # left, too short to leave the face
            [20.0, 20.0, 0.5, 40.0, 190, 200, 200, 5.0],  # right, from half a step: 200 is off
        ]
    )
    dirs = np.array([[1.0, 0.0], [0.0, -1.0], [-1.0, 0.0], [1.0, 0.0]])
    dist = kernels.rays(frame, table, dirs)
    assert dist[0] == 25.0  # 2, 3, .. 25: x = 45
    assert dist[1] == 21.0  # y = 20 - 21 = -1
    assert dist[2] == math.inf
    assert dist[3] == 0.5  # at the centre already farther than 5 from its face colour


def _pips_at(xy, face_bgr, r=3.0, contrast=150.0):
    """Pips for kernels.paths: places, radius, face colour and contrast of each."""
    n = len(xy)
    return (
        np.array(xy, float),
        np.full(n, r, np.float32),
        np.array(face_bgr, np.float32).reshape(n, 3),
        np.full(n, contrast, np.float32),
    )


def test_paths_are_clear_on_one_face_and_blocked_by_a_seam():
    frame = np.full((40, 80, 3), 220, np.uint8)  # an ivory face
    frame[:, 40:42] = 40  # the dark seam between two dice
    frame[30:, :] = (40, 40, 200)  # a red die's face below
    frame[34:36, 5:15] = (50, 50, 250)  # a lighter swirl on it (a shade of its red)
    xy, r, face, contrast = _pips_at(
        [(10, 10), (30, 10), (60, 10), (2, 35), (20, 35), (12, 10)],
        [(220, 220, 220)] * 3 + [(40, 40, 200)] * 2 + [(220, 220, 220)],
    )
    ii = np.array([0, 1, 3, 0], np.intp)
    jj = np.array([1, 2, 4, 5], np.intp)
    clear = kernels.paths(frame, xy, r, face, contrast, ii, jj, (20.0, 0.3, 0.4))
    # all face; across the seam; across a lighter swirl of a strong colour (still its face);
    # two pips so close their rims meet: nothing between them to look at
    assert clear.tolist() == [True, False, True, True]


def test_paths_take_float64_radii_and_refuse_a_pip_off_the_list():
    frame = np.full((20, 20, 3), 200, np.uint8)
    xy, _, face, contrast = _pips_at([(3, 3), (15, 3)], [(200, 200, 200)] * 2)

    def clear_to(other: int) -> bool:
        ii, jj = np.array([0], np.intp), np.array([other], np.intp)
        r = np.full(2, 2.0)
        return bool(kernels.paths(frame, xy, r, face, contrast, ii, jj, (20.0, 0.3, 0.4))[0])

    assert clear_to(1)
    for off in (2, -1):  # NumPy would take -1 from the end
        with pytest.raises(IndexError, match="off the pips"):
            clear_to(off)


def test_probes_tell_pip_from_face_and_snap_half_pixels_alike():
    frame = np.full((20, 20, 3), 210, np.uint8)  # ivory face
    frame[5, 5] = frame[5, 10] = 20  # pip pixels
    frame[5, 14] = (120, 120, 120)  # grey: off the face, but nearer it than the pip
    # face B, G, R, pip B, G, R, pip test's limit, face test's limit
    rows = np.tile(np.array([210, 210, 210, 20, 20, 20, 95, 30], np.float32), (5, 1))
    # (4.5, 5) rounds to 4 (halves to even); (5.5 - 1e-12, 5) snaps to 5.5, then 6
    points = np.array([[5.0, 5.0], [4.5, 5.0], [10.0, 5.0], [14.0, 5.0], [5.5 - 1e-12, 5.0]])
    pip = kernels.probes(frame, points, rows, True, 0.4)
    face = kernels.probes(frame, points, rows, False, 0.4)
    assert pip.tolist() == [True, False, True, False, False]
    assert face.tolist() == [False, True, False, False, True]


def test_pip_outlines_sample_the_frame_as_opencvs_fixed_point_remap_does():
    cv2 = pytest.importorskip("cv2")
    from companion.dice import pips as pipfind

    rng = np.random.default_rng(9)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (60, 80, 3), dtype=np.uint8), (0, 0), 1.5)
    n = 300
    # centres all over the frame and off it, some on 64ths of a pixel
    xy = np.column_stack([rng.uniform(-4, 84, n), rng.uniform(-4, 64, n)])
    xy[:60] = np.round(xy[:60] * 64) / 64
    r0 = rng.uniform(1.0, 6.0, n)
    face = rng.uniform(0, 255, (n, 3)).astype(np.float32)
    pip = np.clip(face + rng.uniform(-120, 120, (n, 3)), 0, 255).astype(np.float32)
    pip[:, 0] = np.maximum(pip[:, 0], face[:, 0] + 60)  # brighter: no glint rule
    steps, off_x, off_y = pipfind.outline_steps(6)
    radius, _, _ = kernels.colour_extent(
        frame, xy, off_x, off_y, steps, r0, pip, face, pipfind.DIRS, pipfind.LUMA
    )
    # The same rays' ends from OpenCV's samples: the first past half of r0 nearer the face.
    x, y = xy[:, :1] + off_x.ravel(), xy[:, 1:] + off_y.ravel()
    maps = cv2.convertMaps(x.astype(np.float32), y.astype(np.float32), cv2.CV_16SC2)
    seen = cv2.remap(frame, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    seen = seen.astype(np.float32).reshape(n, 8, len(steps), 3)
    towards = pip - face
    along = (seen[..., 0] * towards[:, None, None, 0]) + seen[..., 1] * towards[:, None, None, 1]
    along = along + seen[..., 2] * towards[:, None, None, 2]
    halfway = ((pip * pip).sum(axis=1) - (face * face).sum(axis=1)) / 2
    ends = (along < halfway[:, None, None]) & (steps > 0.5 * r0[:, None, None])
    reach = np.where(ends.any(axis=2), steps[ends.argmax(axis=2)] - 0.25, steps[-1] + 0.5)
    reach = reach.astype(np.float32)
    mean = ((reach[:, 0] + reach[:, 1]) + (reach[:, 2] + reach[:, 3])) + (
        (reach[:, 4] + reach[:, 5]) + (reach[:, 6] + reach[:, 7])
    )
    assert np.array_equal(radius, mean / 8)
    assert 0.1 < ends.any(axis=2).mean() < 0.9  # rays that end and rays that do not


def test_ring_agreement_finds_the_face_round_a_pip_and_how_much_of_the_ring_is_it():
    from companion.dice import pips as pipfind

    frame = np.full((40, 60, 3), 200, np.uint8)  # ivory face
    frame[:, 40:] = (20, 90, 20)  # green tray right of x = 40
    xy = np.array([[15.0, 20.0], [40.0, 20.0]])  # a pip inside the face, one on its edge
    radius = np.array([5.0, 5.0], np.float32)
    pip = np.array([[30, 30, 30], [30, 30, 30]], np.float32)
    face, contrast, agree = kernels.ring_agreement(
        frame, xy, radius, pipfind.RING_X, pipfind.RING_Y, pip
    )
    assert face[0].tolist() == [200, 200, 200]
    assert contrast[0] == pytest.approx(170 * math.sqrt(3))
    assert agree[0] == 1.0
    # on the edge, the ring's median is one side's colour, and the other side disagrees
    assert 0.4 <= agree[1] <= 0.6


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((20, 20), np.uint8),  # grey
        np.zeros((20, 20, 4), np.uint8),  # with alpha
        np.zeros((20, 20, 3), np.float32),
        np.zeros((20, 0, 3), np.uint8),
    ],
    ids=["grey", "bgra", "float", "empty"],
)
def test_a_frame_that_is_not_h_x_w_x_3_bytes_is_refused(bad):
    """Seen as rows of pixels, a grey frame of 3k pixels would be read as k pixels of
    colour, and a float one would be worked out in floats."""
    from companion.dice import pips as pipfind

    xy, r, face, contrast = _pips_at([(3, 3), (15, 3)], [(200, 200, 200)] * 2)
    steps, off_x, off_y = pipfind.outline_steps(6)
    calls = {
        "extent": lambda f: kernels.extent(f, [0], np.ones(1, np.float32), 12),
        "spots": lambda f: kernels.spots(f, 0, 0, 5, 5, (0, 0, 0), 1.0, np.zeros((0, 2), int)),
        "colour_extent": lambda f: kernels.colour_extent(
            f, xy, off_x, off_y, steps, r, face, face, pipfind.DIRS, pipfind.LUMA
        ),
        "ring_agreement": lambda f: kernels.ring_agreement(
            f, xy, r, pipfind.RING_X, pipfind.RING_Y, face
        ),
        "rays": lambda f: kernels.rays(f, np.zeros((1, 8)), np.zeros((1, 2))),
        "paths": lambda f: kernels.paths(f, xy, r, face, contrast, [0], [1], (20.0, 0.3, 0.4)),
        "probes": lambda f: kernels.probes(f, xy, np.zeros((2, 8), np.float32), True, 0.4),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match=f"{name}: an H x W x 3 uint8 image"):
            call(bad)
