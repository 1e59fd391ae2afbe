"""The dice readers a table can choose (`companion dice --reader`, the config's
`dice.reader`). Each is `read(frame, profile=None, expected=None) -> Reading`:

- "pip-search": the pip search proposes dice and the face classifier reads them (reader.py);
- "detector": the learned detector finds the dice and reads them (learned.py). On the
  held-out photos it reads far more of an oblique webcam's rolls hands-free, and fewer of a
  top-down tray's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

READERS = ("pip-search", "detector")


def read_function(name: str) -> Callable[..., Any]:
    """The `read` of the reader called `name` (one of READERS), imported when asked for."""
    if name == "pip-search":
        from companion.dice.reader import read
    elif name == "detector":
        from companion.dice.learned import read
    else:
        raise ValueError(f"no dice reader called {name!r}: one of {', '.join(READERS)}")
    return read
