"""Pip candidates: small round spots darker or brighter than the face around them.

A pip stands out from its face in at least one of B, G and R: black on ivory, white on red,
red on blue, yellow on green.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.dice.profile import PipParams

_ANGLES = np.linspace(0, 2 * math.pi, 12, endpoint=False)
_RING = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)


@dataclass(frozen=True)
class Pips:
    """Candidates as parallel arrays (one row per pip)."""

    xy: np.ndarray  # (n, 2) centre
    r: np.ndarray  # equivalent radius
    polarity: np.ndarray  # -1 dark pip on a lighter face, +1 bright pip on a darker face
    contrast: np.ndarray  # |pip - face| colour distance
    elongation: np.ndarray  # long/short axis of the pip
    face_bgr: np.ndarray  # (n, 3) colour of the face around the pip
    pip_bgr: np.ndarray  # (n, 3) colour of the pip

    def __len__(self) -> int:
        return len(self.r)


def _responses(bgr: np.ndarray, kernel: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Per polarity, the strongest top-hat over B, G and R: a pip stands out in at least one
    channel (white on red in B and G, red on blue in R, black on ivory in all three)."""
    channels = cv2.split(bgr)
    out = []
    for polarity, op in ((-1, cv2.MORPH_BLACKHAT), (1, cv2.MORPH_TOPHAT)):
        resp = [cv2.morphologyEx(c, op, kernel) for c in channels]
        out.append((polarity, cv2.max(cv2.max(resp[0], resp[1]), resp[2])))
    return out


def _components(mask: np.ndarray, bgr: np.ndarray, p: PipParams) -> np.ndarray:
    """Rows (x, y, r, elongation, b, g, r) for the pip-like components of a mask."""
    h, w = mask.shape
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return np.zeros((0, 7))
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    keep = (
        (area >= p.min_area)
        & (area <= p.max_area)
        & (area >= p.min_fill * bw * bh)
        & (np.maximum(bw, bh) <= p.max_aspect * np.minimum(bw, bh))
        & (x > 0)
        & (y > 0)
        & (x + bw < w)
        & (y + bh < h)
    )
    keep[0] = False
    if not keep.any():
        return np.zeros((0, 7))
    # Second moments and mean colour of every component at once, from its pixels alone.
    ys, xs = np.nonzero(mask)
    lab = labels[ys, xs]
    sel = keep[lab]
    ys, xs, lab = ys[sel], xs[sel], lab[sel]
    dx = xs - centroids[lab, 0]
    dy = ys - centroids[lab, 1]
    cnt = np.maximum(np.bincount(lab, minlength=n), 1)
    sxx = np.bincount(lab, dx * dx, n) / cnt
    syy = np.bincount(lab, dy * dy, n) / cnt
    sxy = np.bincount(lab, dx * dy, n) / cnt
    common = np.hypot(sxx - syy, 2 * sxy)
    elong = np.sqrt((sxx + syy + common + 0.1) / np.maximum(sxx + syy - common + 0.1, 1e-3))
    pix = bgr[ys, xs].astype(np.float64)
    colour = np.stack([np.bincount(lab, pix[:, c], n) / cnt for c in range(3)], axis=1)
    idx = np.flatnonzero(keep)
    radius = np.sqrt(area[idx] / math.pi)
    return np.column_stack([centroids[idx], radius, elong[idx], colour[idx]])


def find(bgr: np.ndarray, p: PipParams) -> Pips:
    h, w = bgr.shape[:2]
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (p.kernel, p.kernel))
    parts = []
    levels = [p.threshold * 2**k for k in range(p.levels)]
    for (polarity, response), level in itertools.product(_responses(bgr, kernel), levels):
        # Several levels: a faint pip needs a low one, a pip inside a die that itself stands
        # out from the tray needs a high one to come apart from the die.
        rows = _components((response > level).astype(np.uint8), bgr, p)
        parts.append(np.column_stack([rows, np.full((len(rows), 2), (polarity, level))]))
    arr = np.vstack(parts) if parts else np.zeros((0, 9))
    # Face colour: median of a ring of samples just outside each pip.
    xy, r = arr[:, :2], arr[:, 2]
    radius = p.ring_scale * r + 1.0
    pts = xy[:, None, :] + radius[:, None, None] * _RING[None, :, :]
    px = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
    py = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
    face_bgr = np.median(bgr[py, px].astype(np.float32), axis=1)
    contrast = np.linalg.norm(arr[:, 4:7] - face_bgr, axis=1)
    keep = contrast >= p.min_ring_contrast
    arr, face_bgr, contrast = arr[keep], face_bgr[keep], contrast[keep]
    # The same pip found at several levels or in both polarities: keep the most contrasted.
    order = np.argsort(-contrast, kind="stable")
    arr, face_bgr, contrast = arr[order], face_bgr[order], contrast[order]
    d = np.hypot(*(arr[:, None, :2] - arr[None, :, :2]).transpose(2, 0, 1))
    near = d < np.maximum(arr[:, None, 2], arr[None, :, 2]) + 1
    dup = np.tril(near, -1).any(axis=1)
    arr, face_bgr, contrast = arr[~dup], face_bgr[~dup], contrast[~dup]
    return Pips(arr[:, :2], arr[:, 2], arr[:, 7], contrast, arr[:, 3], face_bgr, arr[:, 4:7])
