"""Where each space of the board data file is drawn on the pages' map (the bundle's page
part for the board; the pages fetch it from /api/table/board).

The board file says what touches what, not where things lie, so the map is a schematic in
grid units: the lava grid gives the frame, the corridor runs round it, the walls room sits
beside it, the river and the chasm above. Spaces of a corrected board file that this
schematic does not know are laid out in a row below the map (every space stays tappable).
"""

from __future__ import annotations

from typing import Any

from companion.game.chac.board import Board

# Grid units; the lava cell L(r,c) sits at (LAVA_X + c, LAVA_Y + r).
LAVA_X, LAVA_Y = 1.0, 4.4

_FIXED: dict[str, tuple[float, float]] = {
    # walls room: the entrance, then zones 1-4 down towards the corridor
    "E": (6.4, 4.4),
    "Z1": (6.4, 5.4),
    "Z2": (6.4, 6.4),
    "Z3": (6.4, 7.4),
    "Z4": (6.4, 8.6),
    # river, flowing left to right above the top corridor
    "R0": (1.0, 0.5),
    "R1": (2.0, 0.5),
    "R2": (4.0, 0.5),
    "R3": (6.0, 0.5),
    "R4": (8.0, 0.5),
    "R5": (9.0, 0.5),
    "B": (4.5, 1.8),
}


def _corridor_positions() -> dict[str, tuple[float, float]]:
    pos = {}
    # C0..C3 run down between the lava room and the walls room; C4 is the bottom-right corner
    for i in range(4):
        pos[f"C{i}"] = (5.2, LAVA_Y + i)
    bottom = LAVA_Y + 4.2
    pos["C4"] = (5.2, bottom)
    for i in range(4):  # C5..C8 under the bottom row, columns 3..0
        pos[f"C{5 + i}"] = (LAVA_X + 3 - i, bottom)
    pos["C9"] = (0.0, bottom)  # corner 1
    for i in range(4):  # C10..C13 beside the left column, rows 3..0
        pos[f"C{10 + i}"] = (0.0, LAVA_Y + 3 - i)
    pos["C14"] = (0.0, LAVA_Y - 1.2)  # corner 2
    for i, x in enumerate((1.0, 2.0, 3.0)):  # C15..C17 along the top
        pos[f"C{15 + i}"] = (x, 1.8)
    # C18..C23 round the chasm, below the bridge
    loop = ((3.0, 2.7), (3.5, 3.25), (4.2, 3.45), (4.9, 3.45), (5.6, 3.25), (6.0, 2.7))
    for i, xy in enumerate(loop):
        pos[f"C{18 + i}"] = xy
    for i in range(6):  # C24..C29 on to the exit
        pos[f"C{24 + i}"] = (6.0 + i, 1.8)
    return pos


def layout(board: Board) -> dict[str, Any]:
    """JSON for the map: every space with its position and kind, the edges, the extras."""
    known = {**_corridor_positions(), **_FIXED}
    spaces: dict[str, dict[str, Any]] = {}
    spare_x = 0.0
    for name, kind in board.kind.items():
        if kind in ("lava", "sun"):
            r, c = board.cells[name]
            x, y = LAVA_X + c, LAVA_Y + r
        elif name in known:
            x, y = known[name]
        else:
            x, y = spare_x, 9.6
            spare_x += 1.0
        spaces[name] = {"x": x, "y": y, "kind": kind}
    edges = sorted({tuple(sorted((a, b))) for a, targets in board.moves.items() for b in targets})
    xs = [s["x"] for s in spaces.values()]
    ys = [s["y"] for s in spaces.values()]
    sun_of = {cell: letter for letter, cell in board.sun.items()}
    return {
        "name": board.name,
        "spaces": spaces,
        "edges": [list(e) for e in edges],
        "zones": list(board.zones),
        "corridor": list(board.corridor),
        "river": list(board.river),
        "bridge": board.bridge,
        "exit_from": board.exit_from,
        "sun": sun_of,
        "alcoves": {
            space: {"kind": a.kind, "value": a.value} for space, a in board.alcoves.items()
        },
        "lava": {
            "x": LAVA_X,
            "y": LAVA_Y,
            "rows": 1 + max(r for r, _ in board.cells.values()),
            "cols": 1 + max(c for _, c in board.cells.values()),
        },
        "bounds": [min(xs) - 1.2, min(ys) - 0.9, max(xs) + 1.6, max(ys) + 0.9],
    }


def layout_for(path: str | None) -> dict[str, Any]:
    """The layout of the board file at `path` (a game's `board` option; None: the default
    board). Raises RuleError when the file cannot be read any more."""
    from companion.game.chac.game import board_for  # loaded once per version of the file

    return layout(board_for(path))
