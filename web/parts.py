"""Page parts a game bundle ships (`companion/game/<name>/pages/*.js|css`): its own drawing,
setup fields and seat actions, served here and loaded by the pages when that game is set up."""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from pathlib import Path

from flask import Blueprint, abort, send_from_directory

from companion.game import GAMES, load_game

bp = Blueprint("parts", __name__, url_prefix="/parts")

KINDS = (".js", ".css")


@cache
def parts_dir(game: str) -> Path | None:
    """The bundle's `pages/` folder, found without importing the engine."""
    if game not in GAMES:
        return None
    spec = find_spec(GAMES[game].split(":")[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "pages"
    return folder if folder.is_dir() else None


@cache
def part_files(game: str | None) -> list[str]:
    """The files of `game`'s page parts, e.g. ["host.js", "table.css"]; [] for none."""
    folder = parts_dir(game) if game else None
    if folder is None:
        return []
    return sorted(p.name for p in folder.iterdir() if p.suffix in KINDS)


def page_parts(game: str | None) -> dict:
    """What a page loads: the parts of the game on the table, or before any game those of
    the default game (the first registered), whose board the pages show while waiting."""
    game = game or next(iter(GAMES))
    return {"game": game, "title": game_title(game), "files": part_files(game)}


@cache
def game_title(game: str | None) -> str:
    """The title the pages carry: the game on the table's, else the default game's."""
    return load_game(game or next(iter(GAMES))).title


@bp.get("/<game>/<name>")
def part(game: str, name: str):
    if name not in part_files(game):
        abort(404)
    return send_from_directory(parts_dir(game), name, max_age=0)
