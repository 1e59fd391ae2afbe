"""The generic parts (panel, pages and their scripts, routes, service, CLI, hardware, the
calibration tool and its host page) know no game by name, nor a game's own calibration step: a
game is one bundle under companion/game/<name>/, found through the registry. The product's own
name lives in one constant (companion/product.py)."""

from __future__ import annotations

import re
from pathlib import Path

from companion import product
from companion.game import GAMES, load_game
from companion.game.calibrating import registered_steps

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (".py", ".js", ".html", ".css", ".toml")


def generic_files() -> list[Path]:
    files = [p for p in (ROOT / "companion").glob("*.py") if p.name != "product.py"]
    files += [*(ROOT / "companion/screens").rglob("*"), *(ROOT / "web").rglob("*")]
    files += [*(ROOT / "hardware").rglob("*"), *(ROOT / "calibration").rglob("*")]
    return sorted(p for p in files if p.suffix in SOURCES and "__pycache__" not in p.parts)


def game_words() -> re.Pattern[str]:
    """Every registered game's name and the words of its title, and the names and title words
    of the games' calibration steps, as whole words."""
    words = set(GAMES)
    titles = [load_game(name).title for name in GAMES]
    for step in registered_steps():
        words.add(step.name)
        titles.append(step.title)
    for title in titles:
        words |= {w for w in re.findall(r"[A-Za-z']+", title) if len(w) > 3}
    words -= {"Temple", "Revenge", "pictures"}  # ordinary words of the titles, not names
    alternatives = "|".join(sorted(map(re.escape, words), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z])({alternatives})(?![A-Za-z])", re.IGNORECASE)


def test_no_generic_module_names_a_registered_game():
    pattern = game_words()
    assert pattern.search("companion/game/chac/seat.js") and not pattern.search("thinkable")
    assert pattern.search('session.start("glyphs")') and pattern.search("Glyph pictures")
    files = generic_files()
    assert len(files) > 40, "the generic modules were found"
    assert ROOT / "calibration/session.py" in files and ROOT / "web/calibration.py" in files
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "\n".join(found)


def test_the_product_name_is_written_once():
    files = generic_files()
    spelled = [p.relative_to(ROOT) for p in files if product.NAME in p.read_text("utf-8")]
    assert not spelled, spelled
