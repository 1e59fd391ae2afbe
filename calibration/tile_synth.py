"""Square pieces (a game's tiles, cards) laid into a frame of the tray, for the calibration
tool's simulated table; a game's bundle draws their faces.

    frame = place_tile(tray_frame, face, tile_quad(tray_corners, (0.5, 0.5), 0.3, 20))
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.base import CameraBase, CameraSettings


def tile_quad(
    tray_corners: np.ndarray,
    centre: tuple[float, float],
    side: float,
    angle_deg: float,
) -> np.ndarray:
    """The 4 frame corners of a tile lying in the tray: `centre` and `side` are fractions of
    the tray's width, `angle_deg` its turn on the tray floor. Corners start at the tile's top
    left and go clockwise, so the tile's picture keeps its orientation."""
    corners = np.asarray(tray_corners, np.float32)
    width = float(np.linalg.norm(corners[1] - corners[0]))
    height = float(np.linalg.norm(corners[3] - corners[0]))
    # Tray-plane coordinates in units of the tray's width, mapped by the tray's homography.
    plane = np.float32([[0, 0], [1, 0], [1, height / width], [0, height / width]])
    homography = cv2.getPerspectiveTransform(plane, corners)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    half = side / 2
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T
    cx, cy = centre[0], centre[1] * height / width
    points = (square + np.array([cx, cy])).astype(np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(points, homography).reshape(4, 2)


def place_tile(frame: np.ndarray, face: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A copy of `frame` with `face` laid on the quadrilateral `quad` (corners clockwise from
    the face's top left), with a soft contact shadow."""
    h, w = frame.shape[:2]
    size = face.shape[0]
    src = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    homography = cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32))
    warped = cv2.warpPerspective(face, homography, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((size, size), 255, np.uint8), homography, (w, h))
    out = frame.astype(np.float32)
    shadow = cv2.GaussianBlur(mask, (0, 0), max(2.0, size / 60)).astype(np.float32) / 255
    shadow = np.roll(shadow, (max(1, w // 200), max(1, w // 200)), axis=(0, 1))
    out *= 1 - 0.35 * shadow[:, :, None]
    alpha = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32)[:, :, None] / 255
    out = out * (1 - alpha) + warped.astype(np.float32) * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


TABLE_WOOD = (70, 110, 150)  # B, G, R of a mid-brown table top


def tray_on_table(
    tray: np.ndarray,
    quad: np.ndarray | None,
    size: tuple[int, int],
    rng: np.random.Generator,
    table: tuple[int, int, int] = TABLE_WOOD,
    rim: int = 8,
    blur: float = 0.7,
    noise: float = 2.5,
) -> np.ndarray:
    """A camera frame of `size` (width, height): a grained table with the tray picture laid on
    `quad` (corners clockwise from the tray's top left) inside a raised rim of `rim` pixels;
    with `quad` None, the bare table."""
    width, height = size
    frame = np.empty((height, width, 3), np.float32)
    frame[:] = table
    grain = cv2.resize(rng.normal(0, 1, (max(2, height // 30), 8)), (width, height))
    ys = np.arange(height, dtype=np.float32)[:, None]
    frame *= (1 + 0.05 * np.sin(ys * 0.07 + grain * 3.0))[..., None]
    if quad is not None:
        quad = np.asarray(quad, np.float32)
        # The rim: a darker band just outside the floor, then the floor itself.
        centre = quad.mean(axis=0)
        outer = centre + (quad - centre) * (1 + 2 * rim / max(np.ptp(quad, axis=0)))
        cv2.fillConvexPoly(frame, outer.astype(np.int32), (40, 40, 45), cv2.LINE_AA)
        th, tw = tray.shape[:2]
        src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
        matrix = cv2.getPerspectiveTransform(src, quad)
        floor = cv2.warpPerspective(tray, matrix, (width, height), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((th, tw), 255, np.uint8), matrix, (width, height))
        alpha = mask.astype(np.float32)[..., None] / 255
        frame = frame * (1 - alpha) + floor.astype(np.float32) * alpha
    if blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    frame += rng.normal(0, noise, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


class SimTableCamera(CameraBase):
    """A simulated camera above a table with the tray on it, for calibrating without hardware:
    the tray is found in its frames, a square piece can be laid in the tray (`lay_tile`) and dice
    left at rest in it (`show_dice`). Exposure follows `settings` (hardware CameraSettings):
    brightness grows with exposure time x gain, 10 ms x 1.0 being the lamp's right exposure.

        camera = SimTableCamera(seed=3)
        camera.open()
        camera.lay_tile(face)                 # a square BGR picture of the piece's face up
        frame = camera.read()
    """

    name = "simulated table camera"

    def __init__(self, seed: int = 0, settings: CameraSettings | None = None):
        super().__init__()
        from companion.dice import synth

        self._synth = synth
        self.settings = settings or CameraSettings(width=960, height=720)
        self.width, self.height = self.settings.width, self.settings.height
        self._rng = np.random.default_rng(seed)
        surface = str(self._rng.choice(["felt-green", "felt-blue", "grey", "white-sheet"]))
        self.tray_scene = synth.random_scene(
            [], self._rng, width=640, height=440, surface=surface, view_tilt=0.0
        )
        cx, cy = self.width / 2, self.height / 2
        tw, th = self.width * 0.66, self.height * 0.6
        k = tw * float(self._rng.uniform(0.0, 0.08))  # the camera looks a little obliquely
        self.tray_quad = np.float32(
            [
                [cx - tw / 2 + k, cy - th / 2],
                [cx + tw / 2 - k, cy - th / 2],
                [cx + tw / 2, cy + th / 2],
                [cx - tw / 2, cy + th / 2],
            ]
        )
        self._tile: tuple[np.ndarray, float, tuple[float, float]] | None = None
        self._dice: tuple = ()

    def _open_device(self) -> None:
        pass

    def _grab(self):
        return self._render(), None

    def _close_device(self) -> None:
        pass

    def lay_tile(self, face: np.ndarray) -> None:
        """Lay a square piece showing `face` (BGR) in the tray, somewhere near the middle."""
        centre = (float(self._rng.uniform(0.35, 0.65)), float(self._rng.uniform(0.3, 0.45)))
        self._tile = (face, float(self._rng.uniform(-25, 25)), centre)
        self._dice = ()

    def show_dice(self, faces) -> None:
        """Dice lying at rest in the tray showing `faces`."""
        placed = self._synth.random_scene(
            list(faces), self._rng, width=640, height=440, style="ivory", size=44, view_tilt=0.0
        )
        self._dice = placed.dice
        self._tile = None

    def clear(self) -> None:
        self._tile, self._dice = None, ()

    def _render(self) -> np.ndarray:
        from dataclasses import replace

        scene = replace(self.tray_scene, dice=self._dice, blur=0.0, noise=0.0)
        tray = self._synth.render(scene, self._rng)
        if self._tile is not None:
            face, angle, centre = self._tile
            h, w = tray.shape[:2]
            corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
            quad = tile_quad(corners, centre, 0.2, angle)
            tray = place_tile(tray, face, quad)
        frame = tray_on_table(tray, self.tray_quad, (self.width, self.height), self._rng)
        s = self.settings
        exposure = (s.exposure_us or 10_000) / 10_000 * (s.analogue_gain or 1.0)
        return np.clip(frame.astype(np.float32) * exposure, 0, 255).astype(np.uint8)
