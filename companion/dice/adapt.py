"""Adapt the face classifier to the owner's dice, tray and lamp, in NumPy.

The table's confirmed and corrected rolls and the calibration rolls are kept as labelled
pictures of the owner's dice (`companion.dice_record`). The network's convolutions see any
die well enough; what an owner's dice change is how its last layer weighs what they see. Two
ways of fitting that, each measured by cross-validation on the examples themselves:

- "last-layer": the last dense layer's face rows re-fitted (multinomial logistic regression
  on the network's penultimate features, with an L2 pull toward the shipped weights); the
  rows of a face the owner never rolled stay shipped;
- "prototypes": the shipped layer plus a bonus for resembling the mean features of the owner's
  examples of each face (cosine similarity, weighed by a fitted blend).

The examples are all dice showing a face: they say nothing of what is no die or a cocked die.
So the adapted model shares the chance of a face among the faces anew, and keeps the shipped
model's odds of a face against "no die" and "cocked" except for what resembles the owner's
dice: a crop the shipped model takes for a die more likely than not, and whose features lie
nearer to one of the owner's face prototypes (the mean of its examples' features) than most
of the owner's own examples, has those odds raised by `lift` times how much nearer. A
tray's clutter and a die's side face keep the shipped model's verdict.

Each is tried with a few strengths; the softmax temperature is fitted again on the held-out
folds, then raised if need be until the adapted model accepts no more wrong dice on them than
the shipped one: the acceptance thresholds stay the shipped ones. The method that reads the
most dice right and for sure wins, if it beats the shipped model and reads no fewer of the
owner's dice right; its last layer is written to
`DATA_DIR/dice-adapted.npz` (`adapt`), which `install` hands to the face classifier. The
pip-search reader reads with it; the learned detector keeps the shipped classifier's
probabilities (detector.py says why).
"""

from __future__ import annotations

import hashlib
import io
import logging
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.dice import faceclass, network

log = logging.getLogger(__name__)

ADAPTED_NAME = "dice-adapted.npz"
EXAMPLES_DIR = "dice-examples"  # companion.dice_record keeps them here
MIN_EXAMPLES = 12  # fewer labelled dice teach nothing a cross-validation can show
FOLDS = 5
METHODS = ("last-layer", "prototypes")
PULLS = (1.0, 0.1, 0.01, 0.001)  # the last layer's L2 pull toward the shipped weights
BLENDS = (2.0, 5.0, 10.0, 20.0, 40.0)  # the prototypes' weight beside the shipped logits
TEMPERATURES = tuple(float(t) for t in np.geomspace(0.5, 8.0, 25))  # and the shipped one's
LIFTS = (0.0, 10.0, 20.0, 40.0, 80.0)  # how much likeness to the owner's dice raises a face
# Only a crop the shipped model takes for a die more likely than not is lifted: whether there
# is a die at all (a side face, a die's edge, clutter) stays the shipped model's call.
LIFTED_FROM = 0.5
NEAR_SHARE = 0.9  # of the owner's examples lie nearer their prototypes than `near`
BATCH = 32  # crops through the network at a time
STEPS = 300  # gradient steps of the re-fit (convex: it converges well before)
FORMAT = 2


class AdaptationError(ValueError):
    """An adaptation file that cannot be used; the message says why."""


class Stopped(Exception):
    """The adaptation was asked to stop (the companion is stopping); nothing was written."""


@dataclass(frozen=True)
class Adaptation:
    """The owner's last layer: the faces' logits = weights . features + bias, plus
    (prototypes) `blend` times each face's cosine similarity to its prototype less their
    mean, divided by `temperature`; the log-odds of a face against the rest raised by `lift`
    times the nearest prototype's cosine similarity above `near`."""

    method: str
    weights: np.ndarray  # classes x features
    bias: np.ndarray  # classes
    temperature: float
    shipped: str  # fingerprint of the shipped last layer it was fitted on
    examples: int  # how many of the owner's dice it learnt from
    at: float  # when, seconds since the epoch
    prototypes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # unit rows
    faces: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # class of each
    blend: float = 0.0
    lift: float = 0.0
    near: float = 1.0

    def logits(self, features: np.ndarray) -> np.ndarray:
        z = features @ self.weights.T + self.bias
        if len(self.prototypes):
            z = z + self.blend * _likeness(features, self.prototypes, self.faces, z.shape[1])
        return z

    def probabilities(self, features: np.ndarray, shipped: np.ndarray) -> np.ndarray:
        """The classes' probabilities, from the `shipped` ones and the features."""
        boost = self.lift * _nearness(features, self.prototypes, self.near)
        return _shared(self.logits(features), shipped, self.temperature, boost)

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        np.savez(
            buffer,
            format=np.int64(FORMAT),
            method=np.str_(self.method),
            weights=self.weights,
            bias=self.bias,
            temperature=np.float64(self.temperature),
            shipped=np.str_(self.shipped),
            examples=np.int64(self.examples),
            at=np.float64(self.at),
            prototypes=self.prototypes,
            faces=self.faces,
            blend=np.float64(self.blend),
            lift=np.float64(self.lift),
            near=np.float64(self.near),
        )
        return buffer.getvalue()

    @classmethod
    def load(cls, path: Path) -> Adaptation:
        """The adaptation in `path`; AdaptationError when it is unreadable or inconsistent."""
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise AdaptationError(f"format {int(data['format'])}, not {FORMAT}")
                adapted = cls(
                    method=str(data["method"]),
                    weights=data["weights"].astype(np.float64),
                    bias=data["bias"].astype(np.float64),
                    temperature=float(data["temperature"]),
                    shipped=str(data["shipped"]),
                    examples=int(data["examples"]),
                    at=float(data["at"]),
                    prototypes=data["prototypes"].astype(np.float64),
                    faces=data["faces"].astype(np.int64),
                    blend=float(data["blend"]),
                    lift=float(data["lift"]),
                    near=float(data["near"]),
                )
        except AdaptationError:
            raise
        except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as exc:
            raise AdaptationError(f"cannot be read ({exc})") from exc
        w, b, p = adapted.weights, adapted.bias, adapted.prototypes
        consistent = (
            w.ndim == 2
            and b.shape == (w.shape[0],)
            and (len(p) == 0 or (p.shape[1] == w.shape[1] and len(adapted.faces) == len(p)))
            and np.isfinite(w).all()
            and np.isfinite(b).all()
            and np.isfinite(p).all()
            and adapted.temperature > 0
        )
        if not consistent:
            raise AdaptationError("its weights do not fit together")
        return adapted


def _shared(z: np.ndarray, shipped: np.ndarray, temperature: float, boost) -> np.ndarray:
    """The faces' logits `z` share the chance of a face, whose log-odds against "no die" and
    "cocked" (which keep their ratio) are the shipped ones plus `boost` where the shipped
    model already finds a face likelier than not (LIFTED_FROM)."""
    p = np.array(shipped, np.float64)
    face = np.clip(p[:, :6].sum(axis=1), 1e-12, 1 - 1e-12)
    boost = np.where(face >= LIFTED_FROM, boost, 0.0)
    raised = 1.0 / (1.0 + (1 - face) / face * np.exp(-boost))
    p[:, 6:] *= ((1 - raised) / (1 - face))[:, None]
    p[:, :6] = network.probabilities(z[:, :6], temperature) * raised[:, None]
    return p


def _unit(features: np.ndarray) -> np.ndarray:
    return features / (np.linalg.norm(features, axis=1, keepdims=True) + 1e-9)


def _nearness(features: np.ndarray, prototypes: np.ndarray, near: float) -> np.ndarray:
    """How much nearer than `near` (cosine similarity) each crop is to the nearest prototype."""
    if not len(prototypes):
        return np.zeros(len(features))
    return np.maximum((_unit(features) @ prototypes.T).max(axis=1) - near, 0.0)


def _likeness(features: np.ndarray, prototypes: np.ndarray, faces: np.ndarray, classes: int):
    """Per class, the cosine similarity to its prototype less the mean over the prototypes
    (0 for classes without one): it moves belief between the owner's faces only."""
    cos = _unit(features) @ prototypes.T
    bonus = np.zeros((len(features), classes))
    bonus[:, faces] = cos - cos.mean(axis=1, keepdims=True)
    return bonus


def fingerprint(weights: np.ndarray, bias: np.ndarray) -> str:
    """Which shipped last layer an adaptation was fitted on (a retrained model has another)."""
    digest = hashlib.sha256(np.asarray(weights, np.float32).tobytes())
    digest.update(np.asarray(bias, np.float32).tobytes())
    return digest.hexdigest()[:16]


# --- the examples -------------------------------------------------------------------------


def load_examples(folder: Path, side: int) -> tuple[np.ndarray, np.ndarray]:
    """The owner's labelled dice in `folder` (oldest first), as a classifier's crops (`side`
    pixels square) and face indices (0-5); a file that cannot be read is skipped with a log
    line."""
    import cv2

    crops, faces = [], []
    for path in sorted(Path(folder).glob("*.npz")):
        try:
            with np.load(path, allow_pickle=False) as data:
                picture, face = data["picture"], int(data["face"])
            if picture.ndim != 3 or picture.shape[2] != 3 or not 1 <= face <= 6:
                raise ValueError("not a labelled die")
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            log.warning("Example %s skipped: %s", path.name, exc)
            continue
        how = cv2.INTER_AREA if picture.shape[0] > side else cv2.INTER_LINEAR
        crops.append(cv2.resize(picture.astype(np.uint8), (side, side), interpolation=how))
        faces.append(face - 1)
    if not crops:
        return np.zeros((0, side, side, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(faces, np.int64)


# --- figures ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    """How a model reads the owner's dice: of `dice`, read right (best face), read right
    and for sure (hands-free), read for sure but wrong (a silent error)."""

    dice: int
    right: int
    sure: int
    sure_wrong: int

    def text(self) -> str:
        n = max(self.dice, 1)
        return (
            f"{self.right / n:.1%} read right, {self.sure / n:.1%} right and sure, "
            f"{self.sure_wrong} sure but wrong"
        )


def figures(p: np.ndarray, faces: np.ndarray, accept: float) -> Figures:
    """The face classifier's `p` (N x classes) read as the pip-search reader reads them: a
    face for sure at `accept`."""
    best = p.argmax(axis=1)
    face = p[:, :6].argmax(axis=1)
    sure = (best == face) & (p[np.arange(len(p)), best] >= accept)
    right = face == faces
    return Figures(
        len(faces), int(right.sum()), int((sure & right).sum()), int((sure & ~right).sum())
    )


# --- fitting ------------------------------------------------------------------------------


@dataclass
class Report:
    """What `fit` learnt from and how each model read the owner's dice on held-out folds."""

    examples: int
    per_face: list[int]
    before: Figures | None = None
    after: dict[str, Figures] = field(default_factory=dict)
    chosen: str | None = None
    adaptation: Adaptation | None = None
    note: str = ""

    def lines(self) -> list[str]:
        out = [
            f"learnt from {self.examples} of the owner's dice "
            f"(faces 1-6: {' '.join(str(n) for n in self.per_face)})"
        ]
        if self.before is not None:
            out.append(f"  shipped model: {self.before.text()}")
            for method, fig in self.after.items():
                out.append(f"  {method}: {fig.text()}")
            out.append("  (each die read by a model fitted without its fold)")
        if self.note:
            out.append(self.note)
        return out


def fit(
    model: faceclass.FaceModel,
    crops: np.ndarray,
    faces: np.ndarray,
    methods: tuple[str, ...] = METHODS,
    at: float | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Report:
    """Fit each of `methods` to the owner's labelled crops; the report's `adaptation` is the
    best one when it reads the owner's dice better than the shipped model (else None).
    Raises Stopped as soon as `stop()` is true."""
    per_face = [int((faces == f).sum()) for f in range(6)]
    report = Report(len(faces), per_face)
    if len(faces) < MIN_EXAMPLES:
        report.note = f"Too few examples to learn from (at least {MIN_EXAMPLES} dice)."
        return report
    features = _features(model, crops, stop)
    w0, b0 = model.head()
    accept = model.settings.accept
    shipped_p = network.probabilities(features @ w0.T + b0, model.settings.temperature)
    rules = (model.settings.temperature, accept)
    report.before = figures(shipped_p, faces, accept)
    folds = _folds(len(faces))
    nearness = np.zeros(len(faces))  # each die's, to prototypes fitted without its fold
    for held in folds:
        train = np.setdiff1d(np.arange(len(faces)), held)
        prototypes, _, near = _owner_prototypes(features[train], faces[train])
        nearness[held] = _nearness(features[held], prototypes, near)
    best: tuple[tuple, str, dict] | None = None
    for method in methods:
        fitter = _FITTERS[method]
        trials = []
        for strength in _STRENGTHS[method]:
            if stop():
                raise Stopped
            z = np.zeros((len(faces), len(w0)))
            for held in folds:
                train = np.setdiff1d(np.arange(len(faces)), held)
                z[held] = fitter(features[train], faces[train], w0, b0, strength).logits(
                    features[held]
                )
            for lift in LIFTS:
                boost = lift * nearness
                t = _safe_temperature(z, shipped_p, boost, faces, rules, report.before)
                fig = figures(_shared(z, shipped_p, t, boost), faces, accept)
                # A fit that reads fewer of the owner's dice right is never taken, however
                # many more it is sure of: its surer faces would be wrong elsewhere.
                kept = fig.right >= report.before.right
                trials.append(((kept, fig.sure, fig.right, -lift), fig, strength, lift, t))
        key, fig, strength, lift, temperature = max(trials, key=lambda t: t[0])
        report.after[method] = fig
        if best is None or key[:3] > best[0][:3]:
            best = (key, method, {"strength": strength, "lift": lift, "temperature": temperature})
    assert best is not None
    (kept, sure, right, _), method, chosen = best
    if not kept or (sure, right) <= (report.before.sure, report.before.right):
        report.note = "The shipped model reads these dice as well: it stays."
        return report
    prototypes, present, near = _owner_prototypes(features, faces)
    report.chosen = method
    report.adaptation = replace(
        _FITTERS[method](features, faces, w0, b0, chosen["strength"]),
        temperature=chosen["temperature"],
        shipped=fingerprint(w0, b0),
        examples=len(faces),
        at=time.time() if at is None else at,
        prototypes=prototypes,
        faces=present,
        lift=chosen["lift"],
        near=near,
    )
    report.note = f"Adapted by {method}."
    return report


def _features(model: faceclass.FaceModel, crops: np.ndarray, stop) -> np.ndarray:
    """The crops' features, a batch at a time: the network is free between batches, so a
    roll read meanwhile waits for one batch at most."""
    batches = []
    for i in range(0, len(crops), BATCH):
        if stop():
            raise Stopped
        batches.append(model.features(crops[i : i + BATCH]))
    return np.concatenate(batches)


def _folds(n: int) -> list[np.ndarray]:
    """Contiguous blocks (examples are kept in time order: a roll's dice stay together)."""
    return [b for b in np.array_split(np.arange(n), min(FOLDS, n // 4)) if len(b)]


def _nll(z: np.ndarray, faces: np.ndarray, temperature: float) -> float:
    p = network.probabilities(z[:, :6], temperature)
    return float(-np.log(p[np.arange(len(faces)), faces] + 1e-12).mean())


def _safe_temperature(
    z: np.ndarray, shipped: np.ndarray, boost, faces: np.ndarray, rules, before: Figures
) -> float:
    """The temperature that calibrates the faces' held-out logits `z` best, never below the
    shipped one (a few examples, all read right, would call for ever sharper faces), raised
    until no more dice are accepted wrong than by the shipped model (`before`). `rules`: the
    shipped temperature and acceptance threshold."""
    floor, accept = rules
    calibrated = min((t for t in TEMPERATURES if t >= floor), key=lambda t: _nll(z, faces, t))
    for t in TEMPERATURES:
        if t >= calibrated:
            p = _shared(z, shipped, t, boost)
            if figures(p, faces, accept).sure_wrong <= before.sure_wrong:
                return t
    return TEMPERATURES[-1] * 4


def _last_layer(features, faces, w0, b0, pull: float) -> Adaptation:
    """Multinomial logistic regression over the faces, started at and pulled toward the
    shipped layer; only the rows of faces in the examples move."""
    x = np.hstack([features, np.ones((len(features), 1))])
    theta0 = np.hstack([w0, b0[:, None]])
    rows = np.unique(faces)
    onehot = np.zeros((len(faces), 6))
    onehot[np.arange(len(faces)), faces] = 1.0
    # Step 1/L for the loss's Lipschitz constant: a plain gradient descent that cannot diverge.
    lipschitz = 0.5 * float(np.linalg.eigvalsh(x.T @ x / len(x))[-1]) + 2 * pull
    step = 1.0 / lipschitz
    theta, ahead, previous = theta0.copy(), theta0.copy(), theta0.copy()
    for k in range(1, STEPS + 1):
        p = network.probabilities(x @ ahead[:6].T, 1.0)  # the faces' share (see Adaptation)
        grad = 2 * pull * (ahead - theta0)
        grad[:6] += (p - onehot).T @ x / len(x)
        theta = ahead.copy()
        theta[rows] = ahead[rows] - step * grad[rows]
        ahead = theta + (k - 1) / (k + 2) * (theta - previous)  # Nesterov's momentum
        previous = theta
    return _unfitted("last-layer", theta[:, :-1], theta[:, -1])


def _prototypes(features, faces, w0, b0, blend: float) -> Adaptation:
    """The shipped layer, and a bonus for each face's likeness to the owner's examples."""
    prototypes, present, _ = _owner_prototypes(features, faces)
    return replace(
        _unfitted("prototypes", w0.copy(), b0.copy()),
        prototypes=prototypes,
        faces=present,
        blend=blend,
    )


def _owner_prototypes(features, faces) -> tuple[np.ndarray, np.ndarray, float]:
    """Each face's prototype (the unit mean of its examples' unit features), the faces they
    are of, and the similarity to the nearest prototype that most examples (NEAR_SHARE) reach."""
    unit = _unit(features)
    present = np.unique(faces)
    prototypes = _unit(np.stack([unit[faces == f].mean(axis=0) for f in present]))
    nearest = (unit @ prototypes.T).max(axis=1)
    return prototypes, present, float(np.quantile(nearest, 1 - NEAR_SHARE))


def _unfitted(method: str, weights: np.ndarray, bias: np.ndarray) -> Adaptation:
    """A fitted layer before its temperature and what it was fitted on are known."""
    return Adaptation(method, weights, bias, 1.0, "", 0, 0.0, np.zeros((0, weights.shape[1])))


_FITTERS = {"last-layer": _last_layer, "prototypes": _prototypes}
_STRENGTHS = {"last-layer": PULLS, "prototypes": BLENDS}


# --- the data directory -------------------------------------------------------------------


def adapt(
    data_dir: str | Path,
    model: faceclass.FaceModel | None = None,
    methods: tuple[str, ...] = METHODS,
    stop: Callable[[], bool] = lambda: False,
) -> Report:
    """Fit the owner's examples in `data_dir` and write the winner to ADAPTED_NAME; when the
    shipped model reads them as well, an older adaptation is removed. Too few examples:
    nothing changes. Returns the report (SaveError when the file cannot be written; Stopped,
    having written nothing, when `stop()` turns true)."""
    from companion.atomic_file import write_atomically

    model = model or faceclass.model()
    crops, faces = load_examples(Path(data_dir) / EXAMPLES_DIR, model.side)
    report = fit(model, crops, faces, methods, stop=stop)
    path = Path(data_dir) / ADAPTED_NAME
    if report.adaptation is not None:
        write_atomically(path, report.adaptation.to_bytes(), mode=0o644)
    elif report.before is not None:
        path.unlink(missing_ok=True)
    return report


def install(data_dir: str | Path, model: faceclass.FaceModel | None = None) -> Adaptation | None:
    """Let the face classifier read with the adaptation in `data_dir` when there is a valid
    one fitted on this shipped model; otherwise (a corrupt file is named in one log line) the
    shipped model reads. Returns the adaptation in use."""
    model = model or faceclass.model()
    path = Path(data_dir) / ADAPTED_NAME
    adapted = None
    if path.is_file():
        try:
            adapted = usable(Adaptation.load(path), model)
        except AdaptationError as exc:
            log.warning("%s is ignored, the shipped dice model reads: %s", path, exc)
    model.adaptation = adapted
    return adapted


def usable(adapted: Adaptation, model: faceclass.FaceModel) -> Adaptation:
    """`adapted` if it was fitted on `model`'s shipped last layer, else AdaptationError."""
    w0, b0 = model.head()
    if adapted.shipped != fingerprint(w0, b0) or adapted.weights.shape != w0.shape:
        raise AdaptationError("it was fitted on another dice model; adapt again")
    return adapted
