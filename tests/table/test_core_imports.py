"""The core (everything in `companion` but its composition root, `companion.runtime`, and the
`companion` command's entry, `companion.cli`) runs without the web, the hardware, their
libraries or the calibration tool: importing all of it loads none of them, and no import in
its source names them. Calibration depends on the companion, never the reverse."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = (
    "flask",
    "werkzeug",
    "waitress",
    "gpiozero",
    "luma",
    "zeroconf",
    "web",
    "hardware",
    "calibration",
)
OUTSIDE_THE_CORE = ("companion.runtime", "companion.cli")

PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
loaded = {m.split(".")[0] for m in sys.modules}
loaded |= {m for m in sys.modules if m.startswith("companion.runtime")}
print(" ".join(sorted(loaded)))
"""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _core_sources() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "companion").rglob("*.py"))
        if not any(
            _module_name(path) == o or _module_name(path).startswith(o + ".")
            for o in OUTSIDE_THE_CORE
        )
    ]


def _imports(path: Path) -> list[str]:
    """Every absolute import in the file, those inside functions too."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


def test_the_core_imports_no_web_hardware_or_calibration():
    imported = [_module_name(path) for path in _core_sources()]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *imported],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = done.stdout.split()
    for part in ("companion.table", "companion.store", "companion.panel", "companion.rolls"):
        assert part in imported, f"the probe imported {part}"
    assert any(n.startswith("companion.game.") for n in imported)
    assert any(n.startswith("companion.dice.") for n in imported)
    assert not set(FORBIDDEN) & set(loaded), loaded
    assert "companion.runtime" not in loaded, "the core does not reach for its composition root"


def test_no_core_module_imports_them_even_when_called():
    """Also the imports made inside functions, read from the source."""
    core = _core_sources()
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in core
        for name in _imports(path)
        if name.split(".")[0] in FORBIDDEN or name.startswith(OUTSIDE_THE_CORE[0])
    ]
    assert len(core) > 60 and not found, found


def test_only_the_composition_root_brings_in_the_calibration_tool():
    """The owner's profile and the glyph pictures' place belong to the companion; the
    calibration tool writes them. Inside `companion`, only `companion.runtime` (which
    attaches the tool to the host page) imports `calibration`."""
    runtime = [
        path
        for path in (ROOT / "companion/runtime").rglob("*.py")
        if any(name.split(".")[0] == "calibration" for name in _imports(path))
    ]
    elsewhere = [
        path.relative_to(ROOT)
        for path in (ROOT / "companion").rglob("*.py")
        if "runtime" not in path.relative_to(ROOT).parts
        and any(name.split(".")[0] == "calibration" for name in _imports(path))
    ]
    assert runtime, "the composition root attaches the calibration tool"
    assert elsewhere == [], elsewhere
