"""The temple board as data: load a TOML board file, check it, and answer adjacency questions.

A bad board file raises `BoardError` naming the space, edge or key at fault, so an owner who
corrects the board (space counts, which corridor space touches what) sees what to fix.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.game.protocol import RuleError

DEFAULT_BOARD = Path(__file__).with_name("board.toml")


class BoardError(RuleError):
    """A board file that cannot be played on."""


@dataclass(frozen=True, slots=True)
class Alcove:
    space: str
    kind: str  # "lava" or "chasm": which dice faces open it (option alcove_faces)
    value: int


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    entrance: str
    zones: tuple[str, ...]
    corridor: tuple[str, ...]
    exit_from: str
    river: tuple[str, ...]
    river_exit: str
    bridge: str
    cells: dict[str, tuple[int, int]]  # lava cell -> (row, col), sun spaces included
    sun: dict[str, str]  # "A"/"B" -> cell
    corners: dict[str, str]  # "A"/"B" -> corridor space that opens it
    alcoves: dict[str, Alcove]  # corridor space -> alcove beside it
    kind: dict[str, str]  # space -> entrance/zone/corridor/lava/sun/river/bridge
    moves: dict[str, tuple[str, ...]]  # space -> spaces a normal move may reach
    diagonals: dict[str, tuple[str, ...]]  # space -> diagonal neighbours
    near_lava: frozenset[str]  # reaching one of these reveals the lava room
    slab_neighbours: dict[str, tuple[str, ...]]  # space -> orthogonally adjacent slabs
    corridor_index: dict[str, int]
    zone_number: dict[str, int]
    exit_distance: dict[str, int]  # fewest moves to leave the temple (river exit counted)

    @property
    def slabs(self) -> tuple[str, ...]:
        suns = set(self.sun.values())
        return tuple(c for c in self.cells if c not in suns)

    def spaces(self) -> list[str]:
        return list(self.kind)


def load_board(path: str | Path | None = None) -> Board:
    """Read and check a board file (the default board when `path` is None)."""
    path = Path(path) if path else DEFAULT_BOARD
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoardError(f"Board file {str(path)!r} does not exist.") from None
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"Board file {path.name} is not valid TOML: {exc}") from None
    return parse_board(data)


def _need(table: dict[str, Any], key: str, where: str, kind: type) -> Any:
    if key not in table:
        raise BoardError(f"Board: [{where}] is missing required key {key!r}.")
    value = table[key]
    if not isinstance(value, kind):
        raise BoardError(f"Board: [{where}] {key!r} must be a {kind.__name__}.")
    return value


def _names(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = _need(table, key, where, list)
    if not value or not all(isinstance(v, str) and v for v in value):
        raise BoardError(f"Board: [{where}] {key!r} must be a non-empty list of space names.")
    return tuple(value)


def _pairs(table: dict[str, Any], key: str, where: str) -> list[tuple[str, str]]:
    pairs = []
    for item in table.get(key, []):
        if not (
            isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item)
        ):
            raise BoardError(f"Board: [{where}] {key!r} entry {item!r} must be two space names.")
        pairs.append((item[0], item[1]))
    return pairs


def parse_board(data: dict[str, Any]) -> Board:
    """Build a Board from parsed TOML, checking every relation the rules rely on."""
    b = data.get("board")
    if not isinstance(b, dict):
        raise BoardError("Board: the [board] table is missing.")
    lava = data.get("lava")
    if not isinstance(lava, dict):
        raise BoardError("Board: the [lava] table is missing.")

    kind: dict[str, str] = {}

    def declare(space: str, what: str) -> None:
        if space in kind:
            raise BoardError(f"Board: duplicate space {space!r} (both {kind[space]} and {what}).")
        kind[space] = what

    entrance = _need(b, "entrance", "board", str)
    declare(entrance, "entrance")
    zones = _names(b, "zones", "board")
    if len(zones) != 4:
        raise BoardError(f"Board: the walls room needs exactly 4 zones, found {len(zones)}.")
    for z in zones:
        declare(z, "zone")
    corridor = _names(b, "corridor", "board")
    for c in corridor:
        declare(c, "corridor")
    river = _names(b, "river", "board")
    for r in river:
        declare(r, "river")
    bridge = _need(b, "bridge", "board", str)
    declare(bridge, "bridge")

    rows, cols = _need(lava, "rows", "lava", int), _need(lava, "cols", "lava", int)
    if rows < 1 or cols < 1:
        raise BoardError("Board: [lava] rows and cols must be at least 1.")
    cells = {f"L({r},{c})": (r, c) for r in range(rows) for c in range(cols)}
    sun = _need(lava, "sun", "lava", dict)
    corners = _need(lava, "corners", "lava", dict)
    for letter in ("A", "B"):
        if letter not in sun:
            raise BoardError(f"Board: [lava] sun is missing sun space {letter}.")
        if sun[letter] not in cells:
            raise BoardError(f"Board: sun space {letter} {sun[letter]!r} is not a lava cell.")
        if corners.get(letter) not in corridor:
            raise BoardError(
                f"Board: corner for sun space {letter} {corners.get(letter)!r} is not a "
                "corridor space."
            )
    if sun["A"] == sun["B"]:
        raise BoardError(f"Board: sun spaces A and B are the same cell {sun['A']!r}.")
    suns = set(sun.values())
    for cell in cells:
        declare(cell, "sun" if cell in suns else "lava")

    exit_from = _need(b, "exit_from", "board", str)
    if exit_from != corridor[-1]:
        raise BoardError(f"Board: exit_from {exit_from!r} must be the last corridor space.")
    river_exit = _need(b, "river_exit", "board", str)
    if river_exit not in corridor:
        raise BoardError(f"Board: river_exit {river_exit!r} is not a corridor space.")

    moves: dict[str, set[str]] = {s: set() for s in kind}
    diag: dict[str, set[str]] = {s: set() for s in kind}

    def check_pair(a: str, c: str, what: str) -> None:
        for s in (a, c):
            if s not in kind:
                raise BoardError(f"Board: {what} {a}-{c} names unknown space {s!r}.")
        if a == c:
            raise BoardError(f"Board: {what} {a}-{c} joins a space to itself.")

    for a, c in itertools.pairwise(corridor):
        moves[a].add(c)
        moves[c].add(a)
    for a, c in itertools.pairwise(river):
        moves[a].add(c)  # downstream only
    for a, c in _pairs(b, "edges", "board"):
        check_pair(a, c, "edge")
        if "river" in (kind[a], kind[c]):
            raise BoardError(f"Board: edge {a}-{c} touches the river; use river_entries.")
        moves[a].add(c)
        moves[c].add(a)
    entries = _pairs(b, "river_entries", "board")
    if not entries:
        raise BoardError("Board: river_entries is missing: nobody could enter the river.")
    for a, c in entries:
        check_pair(a, c, "river entry")
        if kind[a] != "corridor" or kind[c] != "river":
            raise BoardError(f"Board: river entry {a}-{c} must go from corridor to river.")
        moves[a].add(c)
    for (r1, c1), name in ((v, k) for k, v in cells.items()):
        for dr, dc in ((0, 1), (1, 0)):
            other = f"L({r1 + dr},{c1 + dc})"
            if other in cells:
                moves[name].add(other)
                moves[other].add(name)
        for dr, dc in ((1, 1), (1, -1)):
            other = f"L({r1 + dr},{c1 + dc})"
            if other in cells:
                diag[name].add(other)
                diag[other].add(name)
    for a, c in _pairs(b, "diagonals", "board"):
        check_pair(a, c, "diagonal")
        diag[a].add(c)
        diag[c].add(a)

    # Relations the rules name.
    if zones[0] not in moves[entrance]:
        raise BoardError(f"Board: entrance {entrance!r} has no edge to zone 1 {zones[0]!r}.")
    for z1, z2 in itertools.pairwise(zones):
        if z2 not in moves[z1]:
            raise BoardError(f"Board: zones {z1!r} and {z2!r} are not joined by an edge.")
    if not any(kind[s] == "corridor" for s in moves[zones[-1]]):
        raise BoardError(f"Board: zone 4 {zones[-1]!r} has no edge to the corridor.")
    bridge_ends = [s for s in moves[bridge] if kind[s] == "corridor"]
    if len(bridge_ends) != 2:
        raise BoardError(f"Board: bridge {bridge!r} must join exactly two corridor spaces.")
    if not any(kind[s] == "corridor" for s in moves[sun["A"]]):
        raise BoardError(f"Board: sun space A {sun['A']!r} has no edge to the corridor.")
    if not any(kind[s] in ("lava", "sun") for c in corridor for s in moves[c]):
        raise BoardError("Board: no corridor space has an edge into the lava room.")
    if corridor.index(corners["A"]) > corridor.index(corners["B"]):
        raise BoardError("Board: corner A must come before corner B along the corridor.")

    alcoves: dict[str, Alcove] = {}
    for i, item in enumerate(data.get("alcoves", [])):
        if not isinstance(item, dict):
            raise BoardError(f"Board: alcove #{i + 1} must be a table.")
        space = _need(item, "space", f"alcoves #{i + 1}", str)
        akind = _need(item, "kind", f"alcoves #{i + 1}", str)
        value = _need(item, "value", f"alcoves #{i + 1}", int)
        if space not in kind or kind[space] != "corridor":
            raise BoardError(f"Board: alcove beside {space!r}: that is not a corridor space.")
        if akind not in ("lava", "chasm"):
            raise BoardError(f"Board: alcove beside {space!r}: kind must be 'lava' or 'chasm'.")
        if space in alcoves:
            raise BoardError(f"Board: duplicate alcove beside {space!r}.")
        alcoves[space] = Alcove(space, akind, value)

    lava_like = set(cells)
    # CHAC-MOVE-2: only a space sharing an edge with the room reveals it, not a corner.
    near_lava = frozenset(
        s for s in kind if s not in lava_like and any(n in lava_like for n in moves[s])
    )
    slab_neighbours = {s: tuple(sorted(n for n in moves[s] if kind[n] == "lava")) for s in kind}
    exit_distance = _distances_to_exit(moves, exit_from, river[-1], river_exit)
    return Board(
        name=str(b.get("name", "Temple of Chac")),
        entrance=entrance,
        zones=zones,
        corridor=corridor,
        exit_from=exit_from,
        river=river,
        river_exit=river_exit,
        bridge=bridge,
        cells=cells,
        sun={"A": sun["A"], "B": sun["B"]},
        corners={"A": corners["A"], "B": corners["B"]},
        alcoves=alcoves,
        kind=kind,
        moves={s: tuple(sorted(v)) for s, v in moves.items()},
        diagonals={s: tuple(sorted(v)) for s, v in diag.items()},
        near_lava=near_lava,
        slab_neighbours=slab_neighbours,
        corridor_index={c: i for i, c in enumerate(corridor)},
        zone_number={z: i + 1 for i, z in enumerate(zones)},
        exit_distance=exit_distance,
    )


def _distances_to_exit(
    moves: dict[str, set[str]], exit_from: str, river_end: str, river_exit: str
) -> dict[str, int]:
    into: dict[str, set[str]] = {s: set() for s in moves}
    for a, ns in moves.items():
        for n in ns:
            into[n].add(a)
    into[river_exit].add(river_end)
    dist = {exit_from: 1}
    frontier = [exit_from]
    while frontier:
        nxt = []
        for s in frontier:
            for p in into[s]:
                if p not in dist:
                    dist[p] = dist[s] + 1
                    nxt.append(p)
        frontier = nxt
    return dist
