"""The dice readers a table can choose (`companion dice --reader`, the config's
`dice.reader`). Each is `read(frame, profile=None, expected=None) -> Reading`:

- "detector" (the default): the learned detector finds the dice and reads them
  (learned.py). On real photos its readings are right (hands-free or one tap to confirm)
  far more often than the pip search's, and read without the count it accepts fewer of
  them wrong;
- "pip-search": the pip search proposes dice and the face classifier reads them
  (reader.py). It learns the owner's dice (companion.dice.adapt), which the detector does
  not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

READERS = ("detector", "pip-search")
DEFAULT = READERS[0]
LEARNING_READERS = ("pip-search",)  # those that read with the owner's adaptation


def read_function(name: str) -> Callable[..., Any]:
    """The `read` of the reader called `name` (one of READERS), imported when asked for."""
    if name == "pip-search":
        from companion.dice.reader import read
    elif name == "detector":
        from companion.dice.learned import read
    else:
        raise ValueError(f"no dice reader called {name!r}: one of {', '.join(READERS)}")
    return read


def load_models(name: str) -> None:
    """Load now the networks the reader called `name` reads with (the detector's: its own, its
    face classifier's and the pip search's, which it asks about doubted rolls), so a missing
    or corrupt file is named at start-up (ModelError), not at the first roll."""
    from companion.dice import detector, faceclass

    faceclass.model()
    if name == "detector":
        faceclass.model(detector.model().settings.classifier)
