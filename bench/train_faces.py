"""Train the dice face classifier (companion/dice/model/faces.onnx and faces.json).

    python3 -m venv .venv-train
    .venv-train/bin/pip install torch==2.13.0 onnx -e '.[train]'
    .venv-train/bin/python bench/train_faces.py ../shared/data/dice/*/ --synthetic 600

Faces are learnt where they are read. Crops come from the labelled photo sets given (the
held-out quarter of each set, `companion.dice.scoring.held_out`, is never trained on) and
from rendered trays (with up to four things that are not dice lying about, each also cut out
as "no die"): every die the pip search proposes and every place the learned detector
finds a die (`companion/dice/detector.py`), labelled by the labelled die it lies on (a place
on none, or a second one on a die already taken, is "no die"), and every labelled die itself,
shifted by up to a tenth of it, scaled by up to 15% and turned by any angle. Training adds
quarter turns, mirrors, colour swaps and inversions, light, contrast, gamma, blur, noise and
JPEG. The held-out photos then calibrate the probabilities (a softmax temperature) and
choose the probability a die must reach to be read hands-free: the lowest at which accepted
rolls read wrong stay at or below `--max-silent` on every set told the count, and
`--max-silent-free` not told it. Seeded: the same data and
seed give the same weights. Two threads (`--threads`). `--crop` sets the crops' side
(faceclass.CROP, 40, by default), written to the model's `.json` as `crop` for the readers
to cut at.

`--measure` trains nothing: it scores the shipped weights on the held-out photos: the
classifier alone on crops cut at the labelled dice and at the dice the detector finds (top-1
accuracy, how many right answers clear `accept`) and both readers' rolls by where they are
lost (a die missed, an extra die, a face wrong, right but not sure).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.dice import detector, faceclass, synth
from companion.dice.reader import decided, default_profile, die_size, propose
from companion.dice.scoring import Score, held_out, load_set

# Idle threads sleep rather than spin: OpenCV's and PyTorch's pools share the cores.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

OUT = Path(__file__).resolve().parents[1] / "companion" / "dice" / "model"
HELD_OUT_FIGURES = ("images", "hands_free_rate", "silent_error_rate", "proposal_right_rate")
MISSCALED = (0.65, 1.55)  # a place this much smaller or bigger than its die is not it
LEARNT_FINDS = 0.2  # the detector's places learnt from are at least this likely (its `maybe`)


def _labels(folder: Path) -> dict[str, tuple[list[tuple[int, list[float]]], str]]:
    out = {}
    for line in (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            dice = [(int(d["value"]), [float(v) for v in d["box"]]) for d in obj["dice"]]
            out[obj["image"]] = (dice, obj.get("box_kind", "die"))
    return out


def _match(centre, boxes: list[list[float]], reach: float = 0.0, grow: float = 0.15):
    """The labelled box nearest `centre` that the centre lies in (the box grown by `grow` of
    its size, and at least `reach` either side of its centre: a box around a 1's pip is
    smaller than the die)."""
    best, best_d = None, math.inf
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        rx = max((0.5 + grow) * (x2 - x1), reach)
        ry = max((0.5 + grow) * (y2 - y1), reach)
        if abs(centre[0] - mx) <= rx and abs(centre[1] - my) <= ry:
            d = math.dist(centre, (mx, my))
            if d < best_d:
                best, best_d = i, d
    return best


def _labelled_by(places, boxes, classes, edges=None) -> list[int | None]:
    """Each (centre, size) place's class: the labelled die it lies on, in the order given
    (most likely first); one on none, or on a die already taken, is "no die". With the
    labelled dice's `edges`, a place far from its die's size (a few of its pips taken for a
    die) is None: neither that die nor none, so neither learnt nor scored."""
    taken: set[int] = set()
    out = []
    for centre, size in places:
        i = _match(centre, boxes, reach=0.5 * size)
        if i is None or i in taken:
            out.append(faceclass.NO_DIE)
        elif edges is not None and not MISSCALED[0] <= size / edges[i] <= MISSCALED[1]:
            out.append(None)
        else:
            out.append(classes[i])
        if i is not None:
            taken.add(i)
    return out


def _edges(dice, kind: str) -> list[float] | None:
    """The labelled dice's edges, when their boxes are around the whole die."""
    if kind != "die":
        return None
    return [math.sqrt((b[2] - b[0]) * (b[3] - b[1])) for _, b in dice]


def _turned(frame, centre, size, angle: float, side: int) -> np.ndarray:
    """faceclass.crop of a die turned by `angle` degrees: cut a diagonal wide, so that the
    turned crop's corners show what lies there."""
    wide = math.ceil(side * math.sqrt(2))
    part = faceclass.crop(frame, centre, size * wide / side, wide)
    turn = cv2.getRotationMatrix2D((wide / 2, wide / 2), angle, 1.0)
    turn[:, 2] -= (wide - side) / 2
    return cv2.warpAffine(part, turn, (side, side), borderMode=cv2.BORDER_REPLICATE)


def _jittered(frame, centre, size, rng, n: int, side: int) -> list[np.ndarray]:
    """`n` crops of one die, shifted up to a tenth of it, scaled by up to 15% and turned by
    any angle."""
    out = []
    for _ in range(n):
        c = (
            centre[0] + rng.uniform(-0.1, 0.1) * size,
            centre[1] + rng.uniform(-0.1, 0.1) * size,
        )
        out.append(_turned(frame, c, size * rng.uniform(0.85, 1.15), rng.uniform(0, 360), side))
    return out


def _place_crops(frame, places, labels, rng, copies, side):
    """Each (centre, size) place with a label cut out as it is read, and `copies` jittered."""
    xs, ys = [], []
    for (centre, size), label in zip(places, labels, strict=True):
        if label is not None:
            xs.append(faceclass.crop(frame, centre, size, side))
            xs += _jittered(frame, centre, size, rng, copies, side)
            ys += [label] * (copies + 1)
    return xs, ys


def _proposals(frame, expected, profile) -> list:
    """(centre, size) of each die the pip search proposes."""
    return [(d.centre, die_size(d)) for d in propose(frame, profile, expected).dice]


def _finds(det, frame, lowest: float = detector.LOWEST) -> list:
    """(centre, size) of each place the detector finds a die at least `lowest` likely."""
    return [(f.centre, f.size) for f in det.locate(frame) if f.presence >= lowest]


def _read_places(frame, expected, boxes, classes, edges, profile, det, rng, copies, side):
    """Crops of the dice both readers propose, labelled, and each labelled die's edge as
    the detector found it (by index)."""
    proposed = _proposals(frame, expected, profile)
    found = _finds(det, frame, LEARNT_FINDS)
    labels = _labelled_by(proposed, boxes, classes, edges)
    xs, ys = _place_crops(frame, proposed, labels, rng, copies, side)
    labels = _labelled_by(found, boxes, classes, edges)
    fx, fy = _place_crops(frame, found, labels, rng, copies, side)
    return xs + fx, ys + fy, _found_edges(found, labels, boxes)


def _found_edges(found, labels, boxes) -> dict[int, float]:
    """The edge of each labelled die (by index) the detector found."""
    edges = {}
    for (centre, size), label in zip(found, labels, strict=True):
        if label is not None and label != faceclass.NO_DIE:
            edges.setdefault(_match(centre, boxes, reach=0.5 * size), size)
    return edges


def _background(frame, boxes, size, rng, n: int, side: int) -> list[np.ndarray]:
    """Crops a die's size of places no labelled die covers."""
    h, w = frame.shape[:2]
    out = []
    for _ in range(n * 4):
        c = (rng.uniform(0, w), rng.uniform(0, h))
        if _match(c, boxes, grow=0.6) is None:
            out.append(faceclass.crop(frame, c, size * rng.uniform(0.8, 1.25), side))
            if len(out) == n:
                break
    return out


def _sizes(dice, kind: str, found_edges: dict) -> dict:
    """Each labelled die's edge (by index): its box's, or where the box is around the pips
    only, the edge the detector found it at (none when it was not found)."""
    edges = _edges(dice, kind)
    return dict(enumerate(edges)) if edges is not None else found_edges


def photo_crops(folders: list[Path], rng, profile, det, side: int):
    xs, ys = [], []
    for folder in folders:
        n0 = len(ys)
        for image, (dice, kind) in _labels(folder).items():
            if held_out(image):
                continue
            frame = cv2.imread(str(folder / image), cv2.IMREAD_COLOR)
            boxes = [b for _, b in dice]
            classes = [v - 1 for v, _ in dice]
            edges = _edges(dice, kind)
            px, py, found = _read_places(
                frame, len(dice), boxes, classes, edges, profile, det, rng, 1, side
            )
            xs += px
            ys += py
            sizes = _sizes(dice, kind, found)
            for i, size in sizes.items():
                b = boxes[i]
                xs += _jittered(frame, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), size, rng, 3, side)
                ys += [classes[i]] * 3
            die = float(np.median(list(sizes.values()))) if sizes else 40.0
            bg = _background(frame, boxes, die, rng, 2, side)
            xs += bg
            ys += [faceclass.NO_DIE] * len(bg)
        print(f"{folder.name}: {len(ys) - n0} crops", file=sys.stderr, flush=True)
    return xs, ys


def rendered_crops(count: int, rng, profile, det, side: int, finish: float):
    xs, ys = [], []
    for _ in range(count):
        faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(1, 9)))]
        cocked = int(rng.random() < 0.25)
        scene = synth.random_scene(
            faces,
            rng,
            touching=bool(rng.random() < 0.3),
            cocked=min(cocked, len(faces)),
            things=int(rng.integers(0, 5)),
            finish=finish,
        )
        frame = synth.render(scene, rng)
        boxes = [
            [d.x - 0.55 * d.size, d.y - 0.55 * d.size, d.x + 0.55 * d.size, d.y + 0.55 * d.size]
            for d in scene.dice
        ]
        classes = [faceclass.COCKED if d.cocked else d.face - 1 for d in scene.dice]
        edges = [d.size for d in scene.dice]
        px, py, _ = _read_places(
            frame, len(faces), boxes, classes, edges, profile, det, rng, 1, side
        )
        xs += px
        ys += py
        if scene.keystone == 0:
            for d, c in zip(scene.dice, classes, strict=True):
                xs += _jittered(frame, (d.x, d.y), d.size, rng, 1, side)
                ys.append(c)
            # What lies about is no die, cut at a die's size as a die would be.
            for t in scene.things:
                xs += _jittered(frame, (t.x, t.y), t.size, rng, 1, side)
                ys.append(faceclass.NO_DIE)
        bg = _background(frame, boxes, float(np.mean([d.size for d in scene.dice])), rng, 1, side)
        xs += bg
        ys += [faceclass.NO_DIE] * len(bg)
    print(f"rendered: {len(ys)} crops", file=sys.stderr, flush=True)
    return xs, ys


def build_model(side: int):
    """Five 3x3 convolutions (the last three at a quarter of the crop and below, where a pip
    is a few cells) and one dense layer; about 231,000 weights."""
    import torch.nn as nn

    def conv(a, b):
        return [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU()]

    return nn.Sequential(
        *conv(3, 24),
        nn.MaxPool2d(2),
        *conv(24, 48),
        nn.MaxPool2d(2),
        *conv(48, 64),
        *conv(64, 96),
        nn.MaxPool2d(2),
        *conv(96, 128),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(128 * (side // 8) ** 2, len(faceclass.CLASSES)),
    )


def _augment(x: np.ndarray, rng) -> np.ndarray:
    """A batch of uint8 crops turned by quarter turns, mirrored, its colours swapped about
    and inverted (dice come in every colour, light pips on dark dice too), lit, contrasted
    and bent in gamma, blurred, noisy and JPEG-compressed like a worse camera."""
    n = len(x)
    out = np.empty(x.shape, np.float32)
    for i, crop in enumerate(x):
        c = np.rot90(crop, int(rng.integers(4)))
        if rng.random() < 0.5:
            c = c[:, ::-1]
        out[i] = c[:, :, rng.permutation(3)]
    grey = rng.random(n) < 0.15
    out[grey] = out[grey].mean(axis=3, keepdims=True)
    inverted = rng.random(n) < 0.2
    out[inverted] = 255 - out[inverted]
    out *= rng.uniform(0.85, 1.15, (n, 1, 1, 3)) * rng.uniform(0.6, 1.4, (n, 1, 1, 1))
    mean = out.mean(axis=(1, 2, 3), keepdims=True)
    out = (
        (out - mean) * rng.uniform(0.6, 1.4, (n, 1, 1, 1))
        + mean
        + rng.uniform(-25, 25, (n, 1, 1, 1))
    )
    out = np.clip(out, 0, 255)
    bent = rng.random(n) < 0.3
    out[bent] = 255 * (out[bent] / 255) ** rng.uniform(0.6, 1.6, (int(bent.sum()), 1, 1, 1))
    result = np.empty(x.shape, np.uint8)
    for i in range(n):
        c = out[i]
        if rng.random() < 0.3:
            c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.4, 1.4))
        if rng.random() < 0.35:
            c = c + rng.normal(0, rng.uniform(2, 10), c.shape).astype(np.float32)
        c = np.clip(c, 0, 255).astype(np.uint8)
        if rng.random() < 0.3:
            q = int(rng.integers(25, 90))
            c = cv2.imdecode(cv2.imencode(".jpg", c, [cv2.IMWRITE_JPEG_QUALITY, q])[1], 1)
        result[i] = c
    return result


def train(xs: np.ndarray, ys: np.ndarray, epochs: int, seed: int):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_model(xs.shape[1])
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * math.ceil(len(xs) / 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss()
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(xs))
        total, right, t0 = 0.0, 0, time.time()
        for start in range(0, len(order), 128):
            idx = order[start : start + 128]
            x = torch.from_numpy(faceclass.normalised(_augment(xs[idx], rng)))
            y = torch.from_numpy(ys[idx]).long()
            opt.zero_grad()
            logits = net(x)
            loss = loss_fn(logits, y)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == y).sum())
        print(
            f"epoch {epoch + 1}: loss {total / len(xs):.4f}, "
            f"train accuracy {right / len(xs):.4f} ({time.time() - t0:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    net.eval()
    return net


def export(net, path: Path, side: int) -> None:
    import torch

    dummy = torch.zeros(1, 3, side, side)
    torch.onnx.export(
        net,
        dummy,
        str(path),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )


class _Logits(faceclass.FaceModel):
    """The exported model with a chosen temperature, for choosing the rest."""

    def __init__(self, directory: Path, temperature: float) -> None:
        super().__init__(directory)
        self.settings = faceclass.Settings(temperature, 1.0, 1.0)


def _held_out_rolls(folders: list[Path], profile, det):
    """Each held-out photo: its sample, frame, labelled boxes, classes and box kind, the
    dice the pip search proposes, the places the detector finds dice, and the dice the pip
    search proposes when not told the count."""
    rolls = {}
    for folder in folders:
        labels = _labels(folder)
        items = []
        for s in load_set(folder, only_held_out=True):
            frame = s.load()
            dice, kind = labels[s.name]
            boxes, classes = [b for _, b in dice], [v - 1 for v, _ in dice]
            proposed = propose(frame, profile, len(dice)).dice
            free = propose(frame, profile).dice
            items.append((s, frame, boxes, classes, kind, proposed, _finds(det, frame), free))
        rolls[folder.name] = items
    return rolls


def _logits(model_dir: Path, crops: list[np.ndarray]) -> np.ndarray:
    raw = _Logits(model_dir, 1.0)
    raw.net.setInput(faceclass.normalised(np.stack(crops)))
    return raw.net.forward().reshape(len(crops), -1).astype(np.float64)


def _softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def _read_crops(rolls, model: faceclass.FaceModel):
    """Crops of the held-out dice as the two readers cut them (pip search proposals and
    detector finds), labelled."""
    crops, labels = [], []
    for items in rolls.values():
        for _, frame, boxes, classes, kind, proposed, found, _ in items:
            edges = _edges([(0, b) for b in boxes], kind)
            for places in ([(d.centre, die_size(d)) for d in proposed], found):
                for (c, size), label in zip(
                    places, _labelled_by(places, boxes, classes, edges), strict=True
                ):
                    if label is not None:
                        crops.append(model.crop(frame, c, size))
                        labels.append(label)
    return crops, np.array(labels)


def calibration(model_dir: Path, rolls) -> tuple[float, float, int]:
    """The temperature that best fits the held-out crops the readers cut (least log loss),
    its expected calibration error (15 bins of the top probability) and the crops' number."""
    crops, y = _read_crops(rolls, _Logits(model_dir, 1.0))
    logits = _logits(model_dir, crops)

    def nll(t: float) -> float:
        z = logits / t
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-logp[np.arange(len(y)), y].mean())

    temperature = min(np.arange(0.5, 4.01, 0.05), key=nll)
    return float(temperature), _calibration_error(_softmax(logits, temperature), y), len(y)


def _calibration_error(p: np.ndarray, y: np.ndarray) -> float:
    top, hit = p.max(axis=1), p.argmax(axis=1) == y
    bins = np.minimum((top * 15).astype(int), 14)
    return float(
        sum(
            abs(hit[bins == b].mean() - top[bins == b].mean()) * (bins == b).mean()
            for b in range(15)
            if (bins == b).any()
        )
    )


def crop_figures(model_dir: Path, rolls) -> dict:
    """The classifier alone on held-out crops, per set and in all: cut at the labelled dice
    (boxes around the pips only: at the size the detector found the die) and at the places
    the detector finds dice; top-1 accuracy, the share read right at or above `accept`, the
    calibration error; at the detector's places, how many of those on no die it calls none."""
    model = faceclass.FaceModel(model_dir)
    accept = model.settings.accept
    groups: dict[str, dict[str, list]] = {}
    for name, items in rolls.items():
        for _, frame, boxes, classes, kind, _, found, _ in items:
            dice = [(0, b) for b in boxes]
            labels = _labelled_by(found, boxes, classes, _edges(dice, kind))
            sizes = _sizes(dice, kind, _found_edges(found, labels, boxes))
            at_labels = [
                (((boxes[i][0] + boxes[i][2]) / 2, (boxes[i][1] + boxes[i][3]) / 2), size)
                for i, size in sizes.items()
            ]
            kept = [(f, y) for f, y in zip(found, labels, strict=True) if y is not None]
            for where, places, ys in (
                ("at_labels", at_labels, [classes[i] for i in sizes]),
                ("at_found", [f for f, _ in kept], [y for _, y in kept]),
            ):
                for key in (name, "all"):
                    g = groups.setdefault(key, {}).setdefault(where, [[], []])
                    g[0] += [model.crop(frame, c, size) for c, size in places]
                    g[1] += ys
    out: dict[str, dict] = {}
    for key, wheres in groups.items():
        for where, (crops, ys) in wheres.items():
            if not crops:
                continue
            y = np.array(ys)
            p = model.probabilities(np.stack(crops))
            best = p.argmax(axis=1)
            dice = y < faceclass.NO_DIE
            right = (best == y) & dice
            figures = {
                "dice": int(dice.sum()),
                "top1": round(float(right.sum() / max(dice.sum(), 1)), 4),
                "accepted_right": round(
                    float((right & (p.max(axis=1) >= accept)).sum() / max(dice.sum(), 1)), 4
                ),
                "calibration_error": round(_calibration_error(p, y), 4),
            }
            if where == "at_found":
                none = y == faceclass.NO_DIE
                figures["no_die"] = int(none.sum())
                figures["no_die_called_none"] = round(
                    float((best[none] == faceclass.NO_DIE).sum() / max(none.sum(), 1)), 4
                )
            out.setdefault(key, {})[where] = figures
    return out


LOSSES = ("hands-free", "silent", "die missed", "extra die", "face wrong", "right, not sure")


def _loss(reading, boxes, classes) -> str:
    """Where a held-out roll was lost (the first that applies of LOSSES' order)."""
    truth = Counter(c + 1 for c in classes)
    right = Counter(reading.values) == truth and len(reading.dice) == len(classes)
    if reading.ok:
        return "hands-free" if right else "silent"
    places = [(d.centre, (d.box[2] - d.box[0] + d.box[3] - d.box[1]) / 2) for d in reading.dice]
    labels = _labelled_by(places, boxes, classes)  # each labelled die at most once
    if sum(y != faceclass.NO_DIE for y in labels) < len(boxes):
        return "die missed"
    if faceclass.NO_DIE in labels or any("may be dice" in p for p in reading.problems):
        return "extra die"
    if any(d.face != y + 1 for d, y in zip(reading.dice, labels, strict=True)):
        return "face wrong"
    return "right, not sure"


def losses(rolls, profile, expect: bool) -> dict:
    """Per reader and set, how many held-out rolls end where (LOSSES)."""
    from companion.dice import learned, reader

    out: dict[str, dict] = {}
    for name, read in (("pip-search", reader.read), ("detector", learned.read)):
        for set_name, items in rolls.items():
            got = Counter(
                _loss(read(frame, profile, len(classes) if expect else None), boxes, classes)
                for _, frame, boxes, classes, *_ in items
            )
            out.setdefault(name, {})[set_name] = {k: got[k] for k in LOSSES}
    return out


def choose_accept(model_dir: Path, temperature: float, rolls, profile, limits):
    """The acceptances (alone, and agreed with the pip search) that read the most held-out
    rolls hands-free while every set's rolls accepted wrong stay at or below the first of
    `limits` when the reader is told the count and the second when not, and each set's
    scores with them (told the count)."""
    from companion.dice.reading import verdict

    model = _Logits(model_dir, temperature)
    cached = {
        name: [
            (sample, frame, list(dice), model.probabilities(_crops(frame, dice, model)), expect)
            for sample, frame, _, _, _, told, _, free in items
            for dice, expect in ((told, True), (free, False))
        ]
        for name, items in rolls.items()
    }
    best = (-1.0, 0.999, 0.999, {})
    for accept in [*np.arange(0.5, 0.99, 0.02), 0.99, 0.995, 0.999]:
        for agreed in np.arange(0.3, accept + 1e-9, 0.05):
            settings = faceclass.Settings(temperature, float(accept), float(agreed))
            scores, free = {}, {}
            for name, items in cached.items():
                score, score_free = Score(name), Score(name)
                for sample, frame, dice, p, expect in items:
                    read = decided(frame, dice, p, settings)
                    count = len(sample.faces) if expect else None
                    reading = verdict(read, count, profile.dice.max_dice)
                    (score if expect else score_free).add(sample, reading, 0.0)
                scores[name], free[name] = score.summary(), score_free.summary()
            if all(s["silent_error_rate"] <= limits[0] for s in scores.values()) and all(
                s["silent_error_rate"] <= limits[1] for s in free.values()
            ):
                rate = float(np.mean([s["hands_free_rate"] for s in scores.values()]))
                if rate > best[0]:
                    best = (rate, float(accept), float(agreed), scores)
    return best[1], best[2], best[3]


def _crops(frame, dice, model: faceclass.FaceModel) -> np.ndarray:
    if not dice:
        return np.zeros((0, model.side, model.side, 3), np.uint8)
    return np.stack([model.crop(frame, d.centre, die_size(d)) for d in dice])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="+", type=Path, help="labelled photo sets")
    ap.add_argument("--synthetic", type=int, default=600, help="rendered trays to train on")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-silent", type=float, default=0.002)
    ap.add_argument("--max-silent-free", type=float, default=0.01)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--finish",
        type=float,
        default=0.0,
        help="the odds that a rendered die is dark, swirled, metallic or glossy",
    )
    ap.add_argument("--crop", type=int, default=faceclass.CROP, help="the crops' side, in pixels")
    ap.add_argument(
        "--crops", type=Path, help="keep the crops in this .npz and reuse them when it exists"
    )
    ap.add_argument(
        "--calibrate-only",
        action="store_true",
        help="keep the weights in --out; fit only the temperature and acceptances again",
    )
    ap.add_argument(
        "--measure",
        action="store_true",
        help="score the classifier in --out and both shipped readers on the held-out photos",
    )
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(args.threads)
    torch.use_deterministic_algorithms(True)
    profile = default_profile()
    det = detector.model()
    folders = sorted(p for p in args.sets if (p / "labels.jsonl").is_file())
    if args.measure:
        rolls = _held_out_rolls(folders, profile, det)
        report = {
            "crops": crop_figures(args.out, rolls),
            "rolls": losses(rolls, profile, True),
            "rolls_without_count": losses(rolls, profile, False),
        }
        print(json.dumps(report, indent=2))
        return 0
    rng = np.random.default_rng(args.seed)
    trained = {
        "sets": [f.name for f in folders],
        "synthetic": args.synthetic,
        "seed": args.seed,
        "epochs": args.epochs,
        "finish": args.finish,
    }
    side = args.crop
    if args.calibrate_only:
        side = faceclass.FaceModel(args.out).side  # the weights in --out stay
    elif args.crops and args.crops.is_file():
        with np.load(args.crops) as saved:
            x, y = saved["x"], saved["y"]
        side = x.shape[1]
    else:
        t0 = time.time()
        xs, ys = photo_crops(folders, rng, profile, det, side)
        rx, ry = rendered_crops(args.synthetic, rng, profile, det, side, args.finish)
        x = np.stack(xs + rx)
        y = np.array(ys + ry)
        print(f"crops cut in {time.time() - t0:.0f} s", file=sys.stderr)
        if args.crops:
            np.savez(args.crops, x=x, y=y)
    if not args.calibrate_only:
        print(f"{len(y)} crops, per class {np.bincount(y).tolist()}", file=sys.stderr)
        net = train(x, y, args.epochs, args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        export(net, args.out / "faces.onnx", side)
    # Provisional settings, so the weights load for calibrating.
    provisional = {"temperature": 1.0, "accept": 1.0, "agreed": 1.0, "crop": side}
    (args.out / "faces.json").write_text(json.dumps(provisional))
    rolls = _held_out_rolls(folders, profile, det)
    temperature, ece, crops = calibration(args.out, rolls)
    limits = (args.max_silent, args.max_silent_free)
    accept, agreed, scores = choose_accept(args.out, temperature, rolls, profile, limits)
    settings = {"temperature": round(temperature, 3), "accept": round(accept, 3)}
    settings["agreed"] = round(agreed, 3)
    settings["crop"] = side
    (args.out / "faces.json").write_text(json.dumps(settings))
    figures = crop_figures(args.out, rolls)["all"]
    settings["held_out"] = {
        "calibration_error": round(ece, 4),
        "crops": crops,
        "at_labels": figures["at_labels"],
        "at_found": figures["at_found"],
        "rolls": {name: {k: s[k] for k in HELD_OUT_FIGURES} for name, s in scores.items()},
    }
    settings["trained_on"] = trained
    (args.out / "faces.json").write_text(json.dumps(settings, indent=2) + "\n")
    print(json.dumps(settings, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
