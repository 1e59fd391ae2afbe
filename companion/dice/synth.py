"""Synthetic dice tray: renders realistic BGR frames of pip dice from a scene description.

The tests, the simulated camera and the reader's tuning all use it. A scene is plain data
(`Scene` with `DieSpec`s, `ThingSpec`s of what else lies about and an optional `HandSpec`), so
a caller can build it by hand, take one from `random_scene`, or change it frame by frame;
`render(scene, rng)` draws it.

Coordinates are pixels of the output frame; angles are degrees. `DieSpec.size` is the die's edge
length in pixels as seen from straight above.

Animating a throw (what a simulated camera does)
------------------------------------------------
Keep one `Scene` for the settled result, e.g. ``final = random_scene([3, 5, 1], rng)``, then for
each frame of the throw derive a scene with ``dataclasses.replace``:

- while tumbling (first ~0.5 s), move each die from an entry point along a decelerating path
  towards its final ``x, y``; give it a random ``face``, a spinning ``angle``, a ``tilt`` of
  20-60 degrees (a die in mid-roll shows two or three faces) and a ``motion_blur`` equal to the
  distance it travels in one exposure (pixels) along ``blur_angle``;
- for the last few frames before rest use the final face with ``tilt`` decaying to 0 and
  ``motion_blur`` 0; from then on render ``final`` itself, with fresh sensor noise each frame
  (pass a new ``rng`` state), which is what a still camera sees;
- a hand is ``Scene.hand = HandSpec(...)``: put one in the first frames (throwing) or after the
  rest (picking dice up). Keep ``texture_seed`` fixed so the tray does not change between frames.

`throw_sequence(final, rng)` does exactly this and returns the list of scenes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

# Pip centres on a face, in face units (the face spans -0.5..0.5 on both axes).
PIP_OFFSET = 0.27
_O = PIP_OFFSET
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_O, -_O), (_O, _O)),
    3: ((-_O, -_O), (0.0, 0.0), (_O, _O)),
    4: ((-_O, -_O), (_O, -_O), (-_O, _O), (_O, _O)),
    5: ((-_O, -_O), (_O, -_O), (0.0, 0.0), (-_O, _O), (_O, _O)),
    6: ((-_O, -_O), (-_O, 0.0), (-_O, _O), (_O, -_O), (_O, 0.0), (_O, _O)),
}

# (body BGR, pip BGR): the kinds of dice people put in a tray.
DIE_STYLES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "ivory": ((200, 228, 238), (30, 30, 30)),
    "white": ((235, 235, 235), (25, 25, 25)),
    "red": ((40, 40, 190), (240, 240, 240)),
    "blue": ((170, 70, 30), (240, 240, 240)),
    "green": ((70, 150, 30), (240, 240, 240)),
    "black": ((35, 35, 35), (235, 235, 235)),
    "yellow": ((40, 210, 235), (30, 30, 30)),
    "purple": ((120, 40, 90), (235, 235, 235)),
    "teal-gold": ((110, 110, 20), (60, 200, 230)),
    "orange": ((30, 120, 230), (30, 30, 30)),
}

# Dice of a finish the plain styles lack (`random_scene(finish=...)`): dark translucent,
# swirled and metallic bodies, often with coloured pips, whose glossy faces catch the lamp.
FINISHED_STYLES: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "smoke-red": ((48, 50, 58), (45, 45, 175)),
    "smoke-white": ((55, 55, 60), (225, 225, 225)),
    "navy-red": ((130, 70, 25), (50, 50, 190)),
    "amber-white": ((35, 95, 150), (235, 235, 235)),
    "gold": ((45, 155, 195), (35, 35, 35)),
    "pearl": ((215, 218, 215), (40, 40, 40)),
}

# Tray and table surfaces (BGR) and their texture kind.
SURFACES: dict[str, tuple[tuple[int, int, int], str]] = {
    "felt-green": ((60, 110, 45), "felt"),
    "felt-blue": ((120, 70, 40), "felt"),
    "white-sheet": ((225, 225, 222), "plain"),
    "wood-light": ((150, 190, 215), "wood"),
    "wood-dark": ((45, 75, 110), "wood"),
    "grey": ((150, 150, 150), "felt"),
}

_SS = 2  # supersampling factor: draw at 2x, then shrink, for clean anti-aliased edges


@dataclass(frozen=True)
class DieSpec:
    """One die. `tilt` leans the die (degrees) towards `tilt_dir`: a tumbling die, or a die
    cocked against the tray wall (`cocked=True` marks the latter as truth for tests)."""

    face: int
    x: float
    y: float
    size: float = 40.0
    angle: float = 0.0
    body: tuple[int, int, int] = DIE_STYLES["ivory"][0]
    pips: tuple[int, int, int] = DIE_STYLES["ivory"][1]
    tilt: float = 0.0
    tilt_dir: float = 90.0
    cocked: bool = False
    motion_blur: float = 0.0
    blur_angle: float = 0.0
    pip_glare: bool = False
    one_pip: float = 0.12  # radius of a 1's pip, in die edges (on many dice, as small as others)
    # The top face brightens from one corner to the opposite one, up to this many times: a
    # marbled die, or a glossy one under a lamp.
    sheen: float = 1.0
    # Swirls of a lighter shade over the top face, up to this many times brighter: a marbled
    # die (each die's swirls its own, from where it lies).
    marble: float = 1.0
    # A die of another game: this symbol on its top face in place of pips (no die to read).
    symbol: str = ""
    # Highlights of the lamp on a glossy top face, this many: small white streaks, half of
    # them on a pip's rim, which look like pips.
    gloss: int = 0

    def __post_init__(self) -> None:
        if self.face not in PIP_LAYOUT:
            raise ValueError(f"a die face is 1-6, not {self.face!r}")


@dataclass(frozen=True)
class HandSpec:
    """A hand reaching in: palm centre (x, y), the direction the fingers point (degrees),
    palm width in pixels and skin colour."""

    x: float
    y: float
    angle: float = -90.0
    width: float = 160.0
    skin: tuple[int, int, int] = (130, 160, 215)


# What lies on a table beside the dice and is none: buttons, coins, screw heads and rubber
# feet (disc), washers and rings (ring), blank tokens and tiles (tile), cables (cable), the
# print on boxes and boards (print) and the dice of other games, a symbol on top in place of
# pips (symbol). Each is about a die's size, so only a die's pips tell it from a die. No
# symbol is a ring about a dot, which is how some dice show a 1.
THING_KINDS = ("disc", "ring", "tile", "cable", "print", "symbol")
SYMBOLS = ("?", "8", "12", "+", "X", "A", "#", "$", "&", "%", "S", "Z")
_THING_COLOURS = (
    (150, 150, 150),
    (90, 90, 90),
    (30, 30, 30),
    (235, 235, 235),
    (185, 190, 195),  # steel
    (60, 150, 200),  # brass
    (40, 40, 170),
    (150, 80, 30),
    (60, 140, 60),
)


@dataclass(frozen=True)
class ThingSpec:
    """Something flat on the table that is not a die: one of THING_KINDS centred at (x, y),
    `size` pixels across, turned by `angle`, in `colour`, with a `mark` colour for its rim,
    hole or print."""

    kind: str
    x: float
    y: float
    size: float
    angle: float = 0.0
    colour: tuple[int, int, int] = (150, 150, 150)
    mark: tuple[int, int, int] = (60, 60, 60)

    def __post_init__(self) -> None:
        if self.kind not in THING_KINDS:
            raise ValueError(f"a thing is one of {', '.join(THING_KINDS)}, not {self.kind!r}")


@dataclass(frozen=True)
class Scene:
    """A whole frame. `view_tilt` is how obliquely the camera looks (0 straight down, 0.5
    shows a good part of each die's near side); `keystone` adds perspective to the frame."""

    width: int = 640
    height: int = 480
    dice: tuple[DieSpec, ...] = ()
    surface: tuple[int, int, int] = SURFACES["felt-green"][0]
    texture: str = "felt"
    texture_seed: int = 0
    tray_wall: int = 0
    light: float = 1.0
    light_gradient: float = 0.15
    light_angle: float = 45.0
    shadow: float = 0.45
    view_tilt: float = 0.0
    keystone: float = 0.0
    blur: float = 0.6
    noise: float = 3.0
    hand: HandSpec | None = None
    things: tuple[ThingSpec, ...] = ()
    extras: dict = field(default_factory=dict, compare=False)


def _face_matrix(die: DieSpec, view_tilt: float) -> np.ndarray:
    """2x2 matrix taking face units to image pixels for the die's top face."""
    m = _rotation(die.angle) * die.size
    if die.tilt:
        d = np.array([math.cos(math.radians(die.tilt_dir)), math.sin(math.radians(die.tilt_dir))])
        squash = np.eye(2) - (1 - math.cos(math.radians(die.tilt))) * np.outer(d, d)
        m = squash @ m
    return _seen(view_tilt) @ m


def _rotation(degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _seen(view_tilt: float) -> np.ndarray:
    """2x2 matrix taking the table's plane to the image: foreshortened along y when the camera
    looks at a slant."""
    return np.diag([1.0, math.sqrt(max(0.0, 1 - view_tilt**2))])


def _extrusion(die: DieSpec, view_tilt: float) -> np.ndarray:
    """Image vector from a top-face corner to the matching bottom corner (visible sides)."""
    e = np.array([0.0, die.size * view_tilt])
    if die.tilt:
        d = np.array([math.cos(math.radians(die.tilt_dir)), math.sin(math.radians(die.tilt_dir))])
        e = e - d * die.size * math.sin(math.radians(die.tilt))
    return e


def _rounded_square(n_corner: int = 5, radius: float = 0.13) -> np.ndarray:
    pts = []
    for cx, cy, start in ((0.5, 0.5, 0), (-0.5, 0.5, 90), (-0.5, -0.5, 180), (0.5, -0.5, 270)):
        ox = cx - math.copysign(radius, cx)
        oy = cy - math.copysign(radius, cy)
        for k in range(n_corner + 1):
            t = math.radians(start + 90 * k / n_corner)
            pts.append((ox + radius * math.cos(t), oy + radius * math.sin(t)))
    return np.array(pts)


_ROUNDED = _rounded_square()
_CIRCLE = np.array([(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 20)])


def _fill(img: np.ndarray, points: np.ndarray, colour, scale: int = _SS) -> None:
    poly = np.round(points * scale * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(img, [poly], colour, cv2.LINE_AA, shift=4)


def _shade(colour, k: float) -> tuple[float, ...]:
    return tuple(float(min(255.0, c * k)) for c in colour)


def _draw_die(
    layer: np.ndarray, alpha: np.ndarray, die: DieSpec, scene: Scene, origin: np.ndarray
) -> None:
    """Draw one die into a patch whose top-left pixel is `origin` (output pixels)."""
    m = _face_matrix(die, scene.view_tilt)
    e = _extrusion(die, scene.view_tilt)
    centre = np.array([die.x, die.y]) - origin
    top = centre + _ROUNDED @ m.T
    light = scene.light
    if np.hypot(*e) > 0.5:
        hull = cv2.convexHull(np.vstack([top, top + e]).astype(np.float32)).reshape(-1, 2)
        _fill(layer, hull, _shade(die.body, 0.68 * light))
        _fill(alpha, hull, 255)
        corners = centre + np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) @ m.T
        sides = iter(f for f in PIP_LAYOUT if f not in (die.face, 7 - die.face))
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            edge = b - a
            normal = np.array([edge[1], -edge[0]])
            if normal @ (a + b - 2 * centre) < 0:
                normal = -normal
            if normal @ e <= 0:
                continue
            quad = np.array([a, b, b + e, a + e])
            lit = 0.62 + 0.18 * abs(math.cos(math.atan2(edge[1], edge[0])))
            _fill(layer, quad, _shade(die.body, lit * light))
            for u, v in PIP_LAYOUT[next(sides)]:
                ring = np.array([(u + 0.5 + 0.09 * cx, v + 0.5 + 0.09 * cy) for cx, cy in _CIRCLE])
                pts = a + np.outer(ring[:, 0], edge) + np.outer(ring[:, 1], e)
                _fill(layer, pts, _shade(die.pips, lit * light))
    _fill(layer, top, _shade(die.body, light))
    _fill(alpha, top, 255)
    if die.sheen != 1.0 or die.marble != 1.0:
        _shade_face(layer, top, die, m, centre)
    # Rounded edges catch less light: a thin darker rim around the top face, which is also
    # the seam a camera sees between two touching dice.
    rim = np.round(top * _SS * 16).astype(np.int32).reshape(-1, 1, 2)
    width = max(1, round(die.size * _SS * 0.04))
    cv2.polylines(layer, [rim], True, _shade(die.body, 0.6 * light), width, cv2.LINE_AA, 4)
    if die.symbol:
        _draw_symbol(layer, die, m, centre, light)
        return
    pip_r = 0.09
    for u, v in PIP_LAYOUT[die.face]:
        r = die.one_pip if die.face == 1 else pip_r
        ring = (np.array([u, v]) + r * _CIRCLE) @ m.T + centre
        _fill(layer, ring, _shade(die.pips, light))
        if die.pip_glare:
            glint = (np.array([u - r * 0.3, v - r * 0.3]) + 0.35 * r * _CIRCLE) @ m.T + centre
            _fill(layer, glint, (245, 245, 245))
    if die.gloss:
        _draw_gloss(layer, die, m, centre)


def _draw_gloss(layer: np.ndarray, die: DieSpec, m: np.ndarray, centre) -> None:
    """`die.gloss` white streaks on the top face (face matrix `m`), placed by where the die
    lies as its marble's swirls are: every other one on the rim of one of its pips."""
    rng = np.random.default_rng([abs(int(die.x * 16)), abs(int(die.y * 16)), 7])
    pips = PIP_LAYOUT[die.face]
    for i in range(die.gloss):
        turn = rng.uniform(0, 2 * math.pi)
        if i % 2 == 0:
            u, v = pips[int(rng.integers(len(pips)))]
            at = np.array([u, v]) + 0.1 * np.array([math.cos(turn), math.sin(turn)])
        else:
            at = rng.uniform(-0.38, 0.38, 2)
        long, thin = rng.uniform(0.05, 0.12), rng.uniform(0.015, 0.035)
        c, s = math.cos(turn + math.pi / 2), math.sin(turn + math.pi / 2)
        streak = _CIRCLE * [long, thin] @ np.array([[c, s], [-s, c]]) + at
        _fill(layer, streak @ m.T + centre, (240, 240, 240))


def _draw_symbol(layer: np.ndarray, die: DieSpec, m: np.ndarray, centre, light: float) -> None:
    """The die's symbol over the middle of its top face (face matrix `m`), in its pips' colour."""
    n = 64  # the symbol is drawn upright on an n x n square, then laid on the face
    ink = np.zeros((n, n), np.uint8)  # putText draws on bytes only
    scale = 1.6 if len(die.symbol) == 1 else 1.1
    (tw, th), _ = cv2.getTextSize(die.symbol, cv2.FONT_HERSHEY_SIMPLEX, scale, 6)
    at = ((n - tw) // 2, (n + th) // 2)
    cv2.putText(ink, die.symbol, at, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 6, cv2.LINE_AA)
    # Face units (the middle 0.8 of the face) from the square's pixels, then the layer's.
    span = 0.8 / n
    affine = _SS * np.hstack([m * span, (centre + m @ np.array([-0.4, -0.4]))[:, None]])
    shape = layer.shape[1], layer.shape[0]
    a = cv2.warpAffine(ink, affine, shape, flags=cv2.INTER_LINEAR)[..., None] / np.float32(255)
    layer[:] = layer * (1 - a) + np.array(_shade(die.pips, light), np.float32) * a


def _shade_face(layer: np.ndarray, top: np.ndarray, die: DieSpec, m: np.ndarray, centre) -> None:
    """Brighten the top face from its (-0.5, -0.5) corner towards its (0.5, 0.5) one
    (`sheen`), and in swirls (`marble`)."""
    mask = np.zeros(layer.shape[:2], np.float32)
    _fill(mask, top, 1.0)
    ys, xs = np.nonzero(mask)
    uv = (np.column_stack([xs, ys]) / _SS - centre) @ np.linalg.inv(m).T
    k = 1 + (die.sheen - 1) * np.clip((uv[:, 0] + uv[:, 1] + 1) / 2, 0, 1)
    if die.marble != 1.0:
        # Seeded by where the die lies (a die off the frame's edge has negative places).
        where = [abs(int(die.x * 16)), abs(int(die.y * 16))]
        phase = np.random.default_rng(where).uniform(0, 2 * math.pi, 3)
        wave = np.sin(7 * uv[:, 0] + 4 * uv[:, 1] + phase[0]) * np.sin(
            3 * uv[:, 0] - 8 * uv[:, 1] + phase[1] + 2 * np.sin(5 * uv[:, 0] + phase[2])
        )
        k *= 1 + (die.marble - 1) * np.clip(wave, 0, 1)
    a = mask[ys, xs, None]
    layer[ys, xs] = layer[ys, xs] * (1 - a) + np.minimum(255, layer[ys, xs] * k[:, None]) * a


def _blur_line(img: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = max(3, round(length * _SS) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(math.radians(angle)) * c, math.sin(math.radians(angle)) * c
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    kernel /= kernel.sum()
    return cv2.filter2D(img, -1, kernel)


def _surface(scene: Scene, h: int, w: int) -> np.ndarray:
    """Tray surface with its texture, a lighting gradient and an optional tray wall."""
    trng = np.random.default_rng(scene.texture_seed)
    base = np.empty((h, w, 3), np.float32)
    base[:] = scene.surface
    if scene.texture == "wood":
        small = trng.normal(0, 1, (max(2, h // 40), 6)).astype(np.float32)
        grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        ys = np.arange(h, dtype=np.float32)[:, None]
        stripes = np.sin(ys * (0.05 + 0.03 * trng.random()) + grain * 3.0)
        base *= (1 + 0.035 * stripes + 0.015 * grain)[..., None]
    elif scene.texture == "felt":
        fine = trng.normal(0, 1, (h // 2, w // 2)).astype(np.float32)
        fine = cv2.resize(cv2.GaussianBlur(fine, (0, 0), 1.0), (w, h))
        base *= (1 + 0.04 * fine)[..., None]
    coarse = cv2.resize(trng.normal(0, 1, (4, 5)).astype(np.float32), (w, h), cv2.INTER_CUBIC)
    base *= (1 + 0.03 * coarse)[..., None]
    if scene.tray_wall:
        t = scene.tray_wall
        wall = np.zeros((h, w), np.float32)
        wall[:t, :] = wall[-t:, :] = wall[:, :t] = wall[:, -t:] = 1
        wall = cv2.GaussianBlur(wall, (0, 0), 2)
        base = base * (1 - 0.35 * wall[..., None]) + 40 * wall[..., None]
    a = math.radians(scene.light_angle)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a)) * scene.light_gradient
    return base * (scene.light * (1 + ramp))[..., None]


def _draw_thing(img: np.ndarray, thing: ThingSpec, scene: Scene) -> None:
    """Draw `thing` flat on the surface `img` (float BGR), lit and foreshortened like it (its
    print stays upright, as on the side of a box)."""
    colour = _shade(thing.colour, scene.light)
    mark = _shade(thing.mark, scene.light)
    r = thing.size / 2
    c = np.array([thing.x, thing.y])
    seen = _seen(scene.view_tilt)
    m = seen @ _rotation(thing.angle)
    if thing.kind == "disc":
        _fill(img, c + r * _CIRCLE @ m.T, mark, scale=1)
        _fill(img, c + 0.85 * r * _CIRCLE @ m.T, colour, scale=1)
    elif thing.kind == "ring":
        centre = (round(thing.x * 16), round(thing.y * 16))
        axes = (round(r * 0.8 * 16), round(r * 0.8 * seen[1, 1] * 16))
        width = max(2, round(r * 0.35))
        cv2.ellipse(img, centre, axes, 0, 0, 360, colour, width, cv2.LINE_AA, shift=4)
    elif thing.kind == "tile":
        _fill(img, c + thing.size * _ROUNDED @ m.T, colour, scale=1)
    elif thing.kind == "cable":
        bend = np.linspace(-1, 1, 9)
        a = math.radians(thing.angle)
        path = np.stack([bend * thing.size * 2.5, np.sin(bend * 2 + a) * thing.size * 0.6], 1)
        points = np.round((c + path @ m.T) * 16).astype(np.int32).reshape(-1, 1, 2)
        width = max(2, int(thing.size * 0.3))
        cv2.polylines(img, [points], False, colour, width, cv2.LINE_AA, shift=4)
    elif thing.kind == "symbol":
        pass  # a die: drawn with the dice (render)
    else:  # print: a word of capitals, a die's size tall
        rng = np.random.default_rng(int(thing.x * 7 + thing.y * 13))
        word = "".join(chr(65 + int(k)) for k in rng.integers(0, 26, int(rng.integers(2, 6))))
        scale = thing.size / 22.0
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        at = (int(thing.x - tw / 2), int(thing.y + th / 2))
        ink = np.zeros(img.shape[:2], np.uint8)  # putText draws on bytes only
        cv2.putText(ink, word, at, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, int(scale * 2)))
        share = (ink / 255.0)[..., None]
        img[:] = img * (1 - share) + np.array(mark, np.float32) * share


def _symbol_die(thing: ThingSpec) -> DieSpec:
    """A thing of kind "symbol" as the die it is: its symbol, and the pips on its sides,
    chosen by where it lies."""
    rng = np.random.default_rng([abs(int(thing.x * 16)), abs(int(thing.y * 16))])
    symbol = SYMBOLS[int(rng.integers(len(SYMBOLS)))]
    face = int(rng.integers(1, 7))
    return DieSpec(
        face, thing.x, thing.y, thing.size, thing.angle, thing.colour, thing.mark, symbol=symbol
    )


def _draw_hand(img: np.ndarray, hand: HandSpec, light: float) -> None:
    s = hand.width
    c = np.array([hand.x, hand.y])
    a = math.radians(hand.angle)
    fwd = np.array([math.cos(a), math.sin(a)])
    side = np.array([-fwd[1], fwd[0]])
    skin = _shade(hand.skin, light)
    shadow = np.zeros(img.shape[:2], np.float32)
    parts = []
    parts.append(("ellipse", c, (s * 0.55, s * 0.5)))
    parts.append(("line", c - fwd * s * 0.3, c - fwd * s * 3.0, s * 0.7))  # arm to the edge
    for i, (off, length) in enumerate(((-0.36, 0.75), (-0.12, 0.9), (0.12, 0.85), (0.34, 0.7))):
        base = c + fwd * s * 0.35 + side * off * s
        parts.append(("line", base, base + fwd * s * length, s * (0.2 if i else 0.21)))
    parts.append(("line", c + side * s * 0.45, c + side * s * 0.85 + fwd * s * 0.35, s * 0.22))
    for offset, target, value in ((np.array([12.0, 14.0]), shadow, 1.0), (0, img, skin)):
        for p in parts:
            if p[0] == "ellipse":
                cv2.ellipse(
                    target,
                    tuple(int(v) for v in p[1] + offset),
                    (int(p[2][0]), int(p[2][1])),
                    hand.angle,
                    0,
                    360,
                    value,
                    -1,
                    cv2.LINE_AA,
                )
            else:
                cv2.line(
                    target,
                    tuple(int(v) for v in p[1] + offset),
                    tuple(int(v) for v in p[2] + offset),
                    value,
                    int(p[3]),
                    cv2.LINE_AA,
                )
        if target is shadow:
            shadow = cv2.GaussianBlur(shadow, (0, 0), 8)
            img *= (1 - 0.4 * shadow)[..., None]


def render(scene: Scene, rng: np.random.Generator | None = None) -> np.ndarray:
    """Draw the scene: a uint8 BGR array of shape (height, width, 3)."""
    rng = rng if rng is not None else np.random.default_rng()
    h, w = scene.height, scene.width
    img = _surface(scene, h, w)
    for thing in scene.things:
        _draw_thing(img, thing, scene)
    dice = (*scene.dice, *(_symbol_die(t) for t in scene.things if t.kind == "symbol"))
    # Shadows first, all on the surface, then each die over them.
    shadow = np.zeros((h, w), np.float32)
    la = math.radians(scene.light_angle)
    for die in dice:
        m = _face_matrix(die, scene.view_tilt)
        e = _extrusion(die, scene.view_tilt)
        top = np.array([die.x, die.y]) + _ROUNDED @ m.T
        off = np.array([math.cos(la), math.sin(la)]) * die.size * (0.18 + 0.5 * die.tilt / 90)
        hull = cv2.convexHull(np.vstack([top, top + e, top + e + off]).astype(np.float32))
        _fill(shadow, hull.reshape(-1, 2), 1.0, scale=1)
    if dice:
        sigma = max(1.0, np.median([d.size for d in dice]) * 0.08)
        shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
        img *= (1 - scene.shadow * np.clip(shadow, 0, 1))[..., None]
    # Far dice first (the camera looks from +y): a near die may hide a far one's side, and
    # a far die's side never covers a near one's top.
    for die in sorted(dice, key=lambda d: d.y):
        reach = die.size * (1.2 + scene.view_tilt) + die.motion_blur + 4
        x0 = int(max(0, die.x - reach))
        y0 = int(max(0, die.y - reach))
        x1 = int(min(scene.width, die.x + reach))
        y1 = int(min(scene.height, die.y + reach))
        if x1 <= x0 or y1 <= y0:
            continue
        ph, pw = (y1 - y0) * _SS, (x1 - x0) * _SS
        layer = np.zeros((ph, pw, 3), np.float32)
        alpha = np.zeros((ph, pw), np.float32)
        _draw_die(layer, alpha, die, scene, np.array([x0, y0], float))
        # Ambient light falls off across the tray like on the surface.
        layer *= 1 + scene.light_gradient * (
            ((die.x / scene.width) - 0.5) * math.cos(la)
            + ((die.y / scene.height) - 0.5) * math.sin(la)
        )
        if die.motion_blur > 0.5:
            layer = _blur_line(layer, die.motion_blur, die.blur_angle)
            alpha = _blur_line(alpha, die.motion_blur, die.blur_angle)
            layer = layer * 255.0 / np.maximum(alpha, 1.0)[..., None]
        layer = cv2.resize(layer, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        a = (alpha / 255.0)[..., None]
        patch = img[y0:y1, x0:x1]
        patch[:] = patch * (1 - a) + layer * a
    if scene.hand is not None:
        _draw_hand(img, scene.hand, scene.light)
    if scene.keystone:
        k = scene.keystone * scene.width
        src = np.float32([[0, 0], [scene.width, 0], [scene.width, scene.height], [0, scene.height]])
        dst = np.float32(
            [[k, 0], [scene.width - k, 0], [scene.width, scene.height], [0, scene.height]]
        )
        hmat = cv2.getPerspectiveTransform(src, dst)
        # Replicate, not reflect: a reflection would mirror dice near the edge into extra dice.
        img = cv2.warpPerspective(
            img, hmat, (scene.width, scene.height), borderMode=cv2.BORDER_REPLICATE
        )
    if scene.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    if scene.noise > 0:
        img += rng.normal(0, scene.noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _place(
    n: int,
    rng: np.random.Generator,
    width: int,
    height: int,
    size: float,
    margin: float,
    touching: bool,
) -> list[tuple[float, float, float]]:
    """Non-overlapping (x, y, angle) for n dice; with `touching`, dice come in touching pairs.
    Dice placed one by one can leave no room for the last: then all are placed again."""
    clearance = size * 1.5
    for _layout in range(20):
        placed: list[tuple[float, float, float]] = []
        for _ in range(n):
            for _attempt in range(400):
                if touching and placed and len(placed) % 2 == 1:
                    px, py, pa = placed[-1]
                    a = math.radians(pa + rng.choice([0, 90, 180, 270]))
                    gap = size * (1.0 + rng.uniform(0.0, 0.04))
                    x, y, angle = (
                        px + math.cos(a) * gap,
                        py + math.sin(a) * gap,
                        pa + rng.uniform(-3, 3),
                    )
                    need = clearance
                    others = placed[:-1]
                else:
                    x = rng.uniform(margin, width - margin)
                    y = rng.uniform(margin, height - margin)
                    angle = rng.uniform(0, 360)
                    need = clearance * (1.25 if touching else 1.0)
                    others = placed
                inside = margin <= x <= width - margin and margin <= y <= height - margin
                if inside and all(math.hypot(x - ox, y - oy) > need for ox, oy, _ in others):
                    placed.append((x, y, angle))
                    break
            else:
                break  # no room for this die
        else:
            return placed
    raise ValueError(f"cannot fit {n} dice of {size:.0f} px in {width}x{height}")


def random_scene(
    faces: list[int] | tuple[int, ...],
    rng: np.random.Generator,
    *,
    width: int = 640,
    height: int = 480,
    style: str | None = None,
    surface: str | None = None,
    size: float | None = None,
    view_tilt: float | None = None,
    touching: bool = False,
    hand: bool = False,
    cocked: int = 0,
    pip_glare: float = 0.1,
    things: int = 0,
    finish: float = 0.0,
) -> Scene:
    """A plausible tray with one die per entry of `faces`, and `things` that are not dice
    lying about. `style` picks one die style for all
    dice (default: one at random per scene, or mixed when None and rng says so). `cocked`
    dice (the last ones) lean against the tray wall. Each die is, at the odds `finish`, one of
    FINISHED_STYLES, swirled, sheened and glossy at random (at 0, the default, the rng is
    drawn from as it always was, so a seed gives the same scene)."""
    surface_name = surface or str(rng.choice(list(SURFACES)))
    colour, texture = SURFACES[surface_name]
    size = size if size is not None else float(rng.uniform(30, 56))
    view_tilt = (
        view_tilt if view_tilt is not None else float(rng.choice([0.0, rng.uniform(0, 0.45)]))
    )
    names = [s for s in DIE_STYLES if style is None or s == style]
    if not names:
        raise ValueError(f"unknown die style {style!r}; known: {', '.join(DIE_STYLES)}")
    mixed = style is None and rng.random() < 0.5
    scene_style = str(rng.choice(names))
    wall = int(rng.integers(0, 2)) * int(size * 0.5) if cocked == 0 else int(size * 0.6)
    margin = size * 0.9 + wall
    spots = _place(len(faces), rng, width, height, size, margin, touching)
    dice = []
    for i, (face, (x, y, angle)) in enumerate(zip(faces, spots, strict=True)):
        body, pips = DIE_STYLES[str(rng.choice(names)) if mixed else scene_style]
        jitter = rng.uniform(0.9, 1.08) * rng.uniform(0.97, 1.03, 3)
        body = tuple(int(min(255, c * j)) for c, j in zip(body, jitter, strict=True))
        spec = DieSpec(
            face=int(face),
            x=x,
            y=y,
            size=size * float(rng.uniform(0.95, 1.05)),
            angle=angle,
            body=body,
            pips=pips,
            pip_glare=bool(rng.random() < pip_glare),
        )
        if finish and rng.random() < finish:
            body, pips = FINISHED_STYLES[str(rng.choice(list(FINISHED_STYLES)))]
            spec = replace(
                spec,
                body=tuple(int(min(255, c * j)) for c, j in zip(body, jitter, strict=True)),
                pips=pips,
                marble=float(rng.uniform(1.3, 2.5)) if rng.random() < 0.5 else 1.0,
                sheen=float(rng.uniform(1.2, 1.8)) if rng.random() < 0.4 else 1.0,
                gloss=int(rng.integers(1, 5)) if rng.random() < 0.7 else 0,
            )
        if i >= len(faces) - cocked:
            # Lean against the nearest wall: pushed there, tilted away from it.
            to_walls = {0.0: width - x, 180.0: x, 90.0: height - y, 270.0: y}
            toward = min(to_walls, key=to_walls.get)
            tx = {0.0: width - wall - size * 0.55, 180.0: wall + size * 0.55}.get(toward, x)
            ty = {90.0: height - wall - size * 0.55, 270.0: wall + size * 0.55}.get(toward, y)
            spec = replace(
                spec,
                x=tx,
                y=ty,
                tilt=float(rng.uniform(35, 50)),
                tilt_dir=toward + 180.0,
                angle=toward + float(rng.uniform(-8, 8)),
                cocked=True,
            )
        dice.append(spec)
    return Scene(
        width=width,
        height=height,
        dice=tuple(dice),
        surface=colour,
        texture=texture,
        texture_seed=int(rng.integers(0, 2**31)),
        tray_wall=wall,
        light=float(rng.uniform(0.8, 1.1)),
        light_gradient=float(rng.uniform(0.0, 0.25)),
        light_angle=float(rng.uniform(0, 360)),
        shadow=float(rng.uniform(0.25, 0.55)),
        view_tilt=view_tilt,
        keystone=float(rng.choice([0.0, rng.uniform(0.0, 0.08)])),
        blur=float(rng.uniform(0.3, 1.0)),
        noise=float(rng.uniform(1.0, 4.0)),
        hand=random_hand(rng, width, height) if hand else None,
        things=random_things(things, rng, width, height, size, dice) if things else (),
    )


def random_things(
    n: int, rng: np.random.Generator, width: int, height: int, size: float, dice
) -> tuple[ThingSpec, ...]:
    """Up to `n` things of THING_KINDS about a die's `size`, none on any of `dice`."""
    out: list[ThingSpec] = []
    for _ in range(n * 20):
        if len(out) == n:
            break
        side = size * float(rng.uniform(0.5, 1.3))
        x, y = float(rng.uniform(0, width)), float(rng.uniform(0, height))
        if all(math.hypot(x - d.x, y - d.y) > 0.8 * (d.size + side) for d in dice):
            colour, mark = rng.choice(len(_THING_COLOURS), 2, replace=False)
            kind = str(rng.choice(THING_KINDS))
            angle = float(rng.uniform(0, 360))
            out.append(
                ThingSpec(kind, x, y, side, angle, _THING_COLOURS[colour], _THING_COLOURS[mark])
            )
    return tuple(out)


def random_hand(rng: np.random.Generator, width: int, height: int) -> HandSpec:
    """A hand reaching in from the near edge of the frame."""
    skins = [(110, 140, 200), (130, 160, 215), (80, 110, 160), (60, 85, 130), (150, 180, 230)]
    return HandSpec(
        x=float(rng.uniform(0.25, 0.75) * width),
        y=float(rng.uniform(0.45, 0.8) * height),
        angle=float(rng.uniform(-120, -60)),
        width=float(rng.uniform(0.22, 0.32) * width),
        skin=skins[int(rng.integers(len(skins)))],
    )


def throw_sequence(
    final: Scene,
    rng: np.random.Generator,
    *,
    fps: float = 30.0,
    tumble_s: float = 0.5,
    rest_s: float = 0.6,
    hand_before: bool = True,
    hand_after: bool = False,
) -> list[Scene]:
    """The scenes of one throw ending in `final`: a hand letting go, dice tumbling in from the
    near edge and slowing down, then `final` at rest (and optionally a hand picking them up)."""
    frames: list[Scene] = []
    n_tumble = max(2, round(tumble_s * fps))
    n_rest = max(1, round(rest_s * fps))
    starts = [
        (rng.uniform(0.2, 0.8) * final.width, final.height + d.size, rng.uniform(0, 360))
        for d in final.dice
    ]
    if hand_before:
        hand = random_hand(rng, final.width, final.height)
        frames += [replace(final, dice=(), hand=hand) for _ in range(max(1, n_tumble // 4))]
    for k in range(n_tumble):
        t = (k + 1) / n_tumble
        ease = 1 - (1 - t) ** 3  # decelerating
        speed = 3 * (1 - t) ** 2  # d(ease)/dt
        dice = []
        for die, (sx, sy, sa) in zip(final.dice, starts, strict=True):
            dist = math.hypot(die.x - sx, die.y - sy)
            heading = math.degrees(math.atan2(die.y - sy, die.x - sx))
            settling = t > 0.85
            dice.append(
                replace(
                    die,
                    x=sx + (die.x - sx) * ease,
                    y=sy + (die.y - sy) * ease,
                    angle=sa + (die.angle - sa) * ease + 400 * (1 - ease),
                    face=die.face if settling else int(rng.integers(1, 7)),
                    tilt=(die.tilt if settling else float(rng.uniform(20, 60)) * (1 - t)),
                    tilt_dir=float(rng.uniform(0, 360)) if not settling else die.tilt_dir,
                    motion_blur=dist * speed / fps * 0.5,
                    blur_angle=heading,
                )
            )
        frames.append(replace(final, dice=tuple(dice), hand=None))
    frames += [final] * n_rest
    if hand_after:
        hand = random_hand(rng, final.width, final.height)
        frames += [replace(final, hand=hand) for _ in range(max(1, n_rest // 2))]
    return frames
