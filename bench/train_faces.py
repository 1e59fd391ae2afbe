"""Train the dice face classifier (companion/dice/model/faces.onnx and faces.json).

    python3 -m venv .venv-train
    .venv-train/bin/pip install -e '.[train]'
    taskset -c 1 .venv-train/bin/python bench/train_faces.py ../shared/data/dice/*/

Crops come from the labelled photo sets given (a quarter of each set's images, chosen by
name, is held out) and from rendered trays: every die the pip search proposes, labelled by
the labelled die it lies on (or "no die"), and every labelled die itself, shifted, scaled
and turned a little. The held-out photos calibrate the probabilities (a softmax
temperature) and choose the probability a die must reach to be read hands-free: the lowest
at which accepted rolls read wrong stay at or below `--max-silent` on every set. Seeded:
the same data and seed give the same weights. One core (`torch.set_num_threads(1)`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.dice import faceclass, synth
from companion.dice.reader import decided, default_profile, die_size, propose
from companion.dice.scoring import Score, load_set

OUT = Path(__file__).resolve().parents[1] / "companion" / "dice" / "model"
HELD_OUT = 4  # one image in this many is held out, by a hash of its name
HELD_OUT_FIGURES = ("images", "hands_free_rate", "silent_error_rate", "proposal_right_rate")


def held_out(name: str) -> bool:
    return int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) % HELD_OUT == 0


def _labels(folder: Path) -> dict[str, tuple[list[tuple[int, list[float]]], str]]:
    out = {}
    for line in (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            dice = [(int(d["value"]), [float(v) for v in d["box"]]) for d in obj["dice"]]
            out[obj["image"]] = (dice, obj.get("box_kind", "die"))
    return out


def _match(centre, boxes: list[list[float]], grow: float = 0.15) -> int | None:
    """The labelled box the centre lies in (grown by `grow` of its size), the nearest."""
    best, best_d = None, math.inf
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        gx, gy = grow * (x2 - x1), grow * (y2 - y1)
        if x1 - gx <= centre[0] <= x2 + gx and y1 - gy <= centre[1] <= y2 + gy:
            d = math.dist(centre, ((x1 + x2) / 2, (y1 + y2) / 2))
            if d < best_d:
                best, best_d = i, d
    return best


def _jittered(frame, centre, size, rng, n: int) -> list[np.ndarray]:
    """`n` crops of one die, shifted up to a tenth of it, scaled by up to 15% and turned."""
    out = []
    for _ in range(n):
        c = (
            centre[0] + rng.uniform(-0.1, 0.1) * size,
            centre[1] + rng.uniform(-0.1, 0.1) * size,
        )
        patch = faceclass.crop(frame, c, size * rng.uniform(0.87, 1.15))
        turn = cv2.getRotationMatrix2D(
            (faceclass.CROP / 2, faceclass.CROP / 2), rng.uniform(0, 360), 1.0
        )
        out.append(
            cv2.warpAffine(patch, turn, (faceclass.CROP,) * 2, borderMode=cv2.BORDER_REPLICATE)
        )
    return out


def _proposed_crops(frame, expected, truth_boxes, truth_classes, profile, rng, copies):
    """Crops of the dice the pip search proposes, each labelled by the labelled die it lies
    on; a second proposal on a die already taken, or one on none, is "no die"."""
    xs, ys = [], []
    taken: set[int] = set()
    for d in propose(frame, profile, expected).dice:
        i = _match(d.centre, truth_boxes)
        label = faceclass.NO_DIE if i is None or i in taken else truth_classes[i]
        if i is not None:
            taken.add(i)
        size = die_size(d)
        xs.append(faceclass.crop(frame, d.centre, size))
        xs += _jittered(frame, d.centre, size, rng, copies)
        ys += [label] * (copies + 1)
    return xs, ys


def _background(frame, boxes, size, rng, n: int) -> list[np.ndarray]:
    """Crops a die's size of places no labelled die covers."""
    h, w = frame.shape[:2]
    out = []
    for _ in range(n * 4):
        c = (rng.uniform(0, w), rng.uniform(0, h))
        if _match(c, boxes, grow=0.6) is None:
            out.append(faceclass.crop(frame, c, size * rng.uniform(0.8, 1.25)))
            if len(out) == n:
                break
    return out


def photo_crops(folders: list[Path], rng, profile):
    xs, ys = [], []
    for folder in folders:
        n0 = len(ys)
        for image, (dice, kind) in _labels(folder).items():
            if held_out(image):
                continue
            frame = cv2.imread(str(folder / image), cv2.IMREAD_COLOR)
            boxes = [b for _, b in dice]
            classes = [v - 1 for v, _ in dice]
            px, py = _proposed_crops(frame, len(dice), boxes, classes, profile, rng, 1)
            xs += px
            ys += py
            sizes = [math.sqrt((b[2] - b[0]) * (b[3] - b[1])) for b in boxes]
            if kind == "die":
                for (v, b), s in zip(dice, sizes, strict=True):
                    xs += _jittered(frame, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), s, rng, 2)
                    ys += [v - 1] * 2
            die = float(np.median(sizes)) * (1.0 if kind == "die" else 1.4)
            bg = _background(frame, boxes, die, rng, 2)
            xs += bg
            ys += [faceclass.NO_DIE] * len(bg)
        print(f"{folder.name}: {len(ys) - n0} crops", file=sys.stderr)
    return xs, ys


def rendered_crops(count: int, rng, profile):
    xs, ys = [], []
    for _ in range(count):
        faces = [int(f) for f in rng.integers(1, 7, int(rng.integers(1, 9)))]
        cocked = int(rng.random() < 0.25)
        scene = synth.random_scene(
            faces, rng, touching=bool(rng.random() < 0.3), cocked=min(cocked, len(faces))
        )
        frame = synth.render(scene, rng)
        boxes = [
            [d.x - 0.55 * d.size, d.y - 0.55 * d.size, d.x + 0.55 * d.size, d.y + 0.55 * d.size]
            for d in scene.dice
        ]
        classes = [faceclass.COCKED if d.cocked else d.face - 1 for d in scene.dice]
        px, py = _proposed_crops(frame, len(faces), boxes, classes, profile, rng, 1)
        xs += px
        ys += py
        if scene.keystone == 0:
            for d, c in zip(scene.dice, classes, strict=True):
                xs += _jittered(frame, (d.x, d.y), d.size, rng, 1)
                ys.append(c)
        bg = _background(frame, boxes, float(np.mean([d.size for d in scene.dice])), rng, 1)
        xs += bg
        ys += [faceclass.NO_DIE] * len(bg)
    print(f"rendered: {len(ys)} crops", file=sys.stderr)
    return xs, ys


def build_model():
    import torch.nn as nn

    def block(a, b):
        return [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU(), nn.MaxPool2d(2)]

    return nn.Sequential(
        *block(3, 12),
        *block(12, 24),
        *block(24, 48),
        nn.Flatten(),
        nn.Linear(48 * (faceclass.CROP // 8) ** 2, 64),
        nn.ReLU(),
        nn.Dropout(0.3),
        nn.Linear(64, len(faceclass.CLASSES)),
    )


def _augment(x: np.ndarray, rng) -> np.ndarray:
    """A batch of uint8 crops turned by quarter turns, mirrored, its colours swapped about
    (dice come in every colour), blurred or noisy like a worse camera."""
    out = np.empty_like(x)
    for i, crop in enumerate(x):
        c = np.rot90(crop, int(rng.integers(4)))
        if rng.random() < 0.5:
            c = c[:, ::-1]
        c = c[:, :, rng.permutation(3)]
        if rng.random() < 0.2:
            c = 255 - c  # light pips on a dark die as well as dark on light
        if rng.random() < 0.3:
            c = cv2.GaussianBlur(np.ascontiguousarray(c), (0, 0), rng.uniform(0.5, 1.2))
        if rng.random() < 0.3:
            c = np.clip(c + rng.normal(0, rng.uniform(2, 8), c.shape), 0, 255)
        out[i] = c
    return out


def train(xs: np.ndarray, ys: np.ndarray, epochs: int, seed: int):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = build_model()
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
        )
    net.eval()
    return net


def export(net, path: Path) -> None:
    import torch

    dummy = torch.zeros(1, 3, faceclass.CROP, faceclass.CROP)
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


def _held_out_rolls(folders: list[Path], profile):
    """Each held-out photo: its sample, frame, labelled boxes and classes, and the dice the
    pip search proposes."""
    rolls = {}
    for folder in folders:
        labels = _labels(folder)
        items = []
        for s in load_set(folder):
            if held_out(s.name):
                frame = s.load()
                dice = labels[s.name][0]
                boxes, classes = [b for _, b in dice], [v - 1 for v, _ in dice]
                items.append((s, frame, boxes, classes, propose(frame, profile, len(dice)).dice))
        rolls[folder.name] = items
    return rolls


def calibration(model_dir: Path, rolls) -> tuple[float, float, int]:
    """The temperature that best fits the held-out proposals (least log loss), its expected
    calibration error (15 bins of the top probability) and the number of proposals."""
    crops, labels = [], []
    for items in rolls.values():
        for _, frame, boxes, classes, dice in items:
            taken: set[int] = set()
            for d in dice:
                i = _match(d.centre, boxes)
                crops.append(faceclass.crop(frame, d.centre, die_size(d)))
                labels.append(faceclass.NO_DIE if i is None or i in taken else classes[i])
                if i is not None:
                    taken.add(i)
    crops = np.stack(crops)
    y = np.array(labels)
    raw = _Logits(model_dir, 1.0)
    raw.net.setInput(faceclass.normalised(crops))
    logits = raw.net.forward().reshape(len(y), -1).astype(np.float64)

    def nll(t: float) -> float:
        z = logits / t
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-logp[np.arange(len(y)), y].mean())

    temperature = min(np.arange(0.5, 4.01, 0.05), key=nll)
    z = logits / temperature
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    top, hit = p.max(axis=1), p.argmax(axis=1) == y
    bins = np.minimum((top * 15).astype(int), 14)
    ece = sum(
        abs(hit[bins == b].mean() - top[bins == b].mean()) * (bins == b).mean()
        for b in range(15)
        if (bins == b).any()
    )
    return float(temperature), float(ece), len(y)


def choose_accept(model_dir: Path, temperature: float, rolls, profile, max_silent: float):
    """The acceptances (alone, and agreed with the pip search) that read the most held-out
    rolls hands-free while every set's rolls accepted wrong stay at or below `max_silent`,
    and each set's scores with them."""
    from companion.dice.reading import verdict

    model = _Logits(model_dir, temperature)
    cached = {
        name: [
            (sample, frame, list(dice), model.probabilities(_crops(frame, dice)))
            for sample, frame, _, _, dice in items
        ]
        for name, items in rolls.items()
    }
    best = (-1.0, 0.999, 0.999, {})
    for accept in [*np.arange(0.5, 0.99, 0.02), 0.99, 0.995, 0.999]:
        for agreed in np.arange(0.3, accept + 1e-9, 0.05):
            settings = faceclass.Settings(temperature, float(accept), float(agreed))
            scores = {}
            for name, items in cached.items():
                score = Score(name)
                for sample, frame, dice, p in items:
                    read = decided(frame, dice, p, settings)
                    score.add(sample, verdict(read, len(sample.faces), profile.dice.max_dice), 0.0)
                scores[name] = score.summary()
            if all(s["silent_error_rate"] <= max_silent for s in scores.values()):
                rate = float(np.mean([s["hands_free_rate"] for s in scores.values()]))
                if rate > best[0]:
                    best = (rate, float(accept), float(agreed), scores)
    return best[1], best[2], best[3]


def _crops(frame, dice) -> np.ndarray:
    if not dice:
        return np.zeros((0, faceclass.CROP, faceclass.CROP, 3), np.uint8)
    return np.stack([faceclass.crop(frame, d.centre, die_size(d)) for d in dice])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="+", type=Path, help="labelled photo sets")
    ap.add_argument("--synthetic", type=int, default=1500, help="rendered trays to train on")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-silent", type=float, default=0.002)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--crops", type=Path, help="keep the crops in this .npz and reuse them when it exists"
    )
    ap.add_argument(
        "--calibrate-only",
        action="store_true",
        help="keep the weights in --out; fit only the temperature and acceptances again",
    )
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    profile = default_profile()
    folders = sorted(p for p in args.sets if (p / "labels.jsonl").is_file())
    rng = np.random.default_rng(args.seed)
    trained = {
        "sets": [f.name for f in folders],
        "synthetic": args.synthetic,
        "seed": args.seed,
        "epochs": args.epochs,
    }
    if args.calibrate_only:
        pass  # the weights in --out stay
    elif args.crops and args.crops.is_file():
        with np.load(args.crops) as saved:
            x, y = saved["x"], saved["y"]
    else:
        xs, ys = photo_crops(folders, rng, profile)
        rx, ry = rendered_crops(args.synthetic, rng, profile)
        x = np.stack(xs + rx)
        y = np.array(ys + ry)
        if args.crops:
            np.savez(args.crops, x=x, y=y)
    if not args.calibrate_only:
        print(f"{len(y)} crops, per class {np.bincount(y).tolist()}", file=sys.stderr)
        net = train(x, y, args.epochs, args.seed)
        args.out.mkdir(parents=True, exist_ok=True)
        export(net, args.out / "faces.onnx")
    # Provisional settings, so the weights load for calibrating.
    provisional = {"temperature": 1.0, "accept": 1.0, "agreed": 1.0}
    (args.out / "faces.json").write_text(json.dumps(provisional))
    rolls = _held_out_rolls(folders, profile)
    temperature, ece, proposals = calibration(args.out, rolls)
    accept, agreed, scores = choose_accept(args.out, temperature, rolls, profile, args.max_silent)
    settings = {
        "temperature": round(temperature, 3),
        "accept": round(accept, 3),
        "agreed": round(agreed, 3),
        "held_out": {
            "calibration_error": round(ece, 4),
            "proposals": proposals,
            "rolls": {name: {k: s[k] for k in HELD_OUT_FIGURES} for name, s in scores.items()},
        },
        "trained_on": trained,
    }
    (args.out / "faces.json").write_text(json.dumps(settings, indent=2) + "\n")
    print(json.dumps(settings, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
