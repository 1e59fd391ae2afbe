"""The boards a new game may be played on, chosen by name: the board the game ships
(`default`) and those the owner installed as DATA_DIR/boards/<name>.toml.

The host page sends a name, never a path: a request cannot make the companion read a file of
its choosing, and a refusal reads the same whether or not some file exists.
"""

from __future__ import annotations

import re
from pathlib import Path

DEFAULT = "default"
NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
MAX_BYTES = 256 * 1024  # a board file is a few KB; anything larger is not one


def installed(data_dir: Path) -> dict[str, Path | None]:
    """Name -> board file: the game's own board (None), then the owner's (regular files only)."""
    boards: dict[str, Path | None] = {DEFAULT: None}
    folder = data_dir / "boards"
    try:
        files = sorted(folder.glob("*.toml"))
    except OSError:
        files = []
    for path in files:
        name = path.stem.lower()
        if NAME.fullmatch(name) and name != DEFAULT and _plain_file(path):
            boards[name] = path
    return boards


def resolve(data_dir: Path, name: object) -> str | None:
    """The board file for `name` (None for the default board); ValueError otherwise, with a
    message listing the boards there are."""
    boards = installed(data_dir)
    key = name.lower() if isinstance(name, str) else None
    if key == DEFAULT:
        return None
    if key is None or not NAME.fullmatch(key) or key not in boards:
        raise ValueError(f"There is no such board; the boards here are: {', '.join(boards)}.")
    return str(boards[key])


def _plain_file(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size <= MAX_BYTES
    except OSError:
        return False
