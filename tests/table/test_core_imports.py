"""The core (the games, the dice reader, the Table, the event store) runs without the web,
the hardware or their libraries: importing all of it loads none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("flask", "waitress", "gpiozero", "luma", "zeroconf", "web", "hardware")

PROBE = """
import importlib, pkgutil, sys
import companion.dice, companion.game
names = ["companion.table", "companion.store"]
for package in (companion.game, companion.dice):
    names += [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
for name in names:
    importlib.import_module(name)
print(len(names))
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_the_core_imports_no_web_or_hardware_library():
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    count, loaded = done.stdout.splitlines()
    assert int(count) > 20, "the probe imported the core's modules"
    assert "companion" in loaded.split()
    assert not set(FORBIDDEN) & set(loaded.split()), loaded


def test_no_core_module_imports_them_even_when_called():
    """Also the imports made inside functions, read from the source."""
    import ast

    core = [*(ROOT / "companion/game").rglob("*.py"), *(ROOT / "companion/dice").rglob("*.py")]
    core += [ROOT / "companion/table.py", ROOT / "companion/store.py"]
    found = []
    for path in core:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            found += [
                f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN
            ]
    assert len(core) > 20 and not found, found
