"""Draw a reading over its frame, to show a person what the reader saw."""

from __future__ import annotations

import cv2
import numpy as np

from companion.dice.reading import Reading

_OK = (60, 200, 60)
_FLAG = (0, 140, 255)


def annotate(frame: np.ndarray, reading: Reading, detail: bool = False) -> np.ndarray:
    """A copy of the frame with each die's box, face and flags; with `detail`, also the pip
    candidates (red dark, blue bright) and rejected face candidates (grey, edge score)."""
    out = frame.copy()
    if detail:
        # The pip search looked at the frame resampled by this much.
        k = 1 / reading.extras.get("scale", 1.0)
        pips = reading.extras.get("pips")
        if pips is not None:
            for (x, y), r, pol in zip(pips.xy, pips.r, pips.polarity, strict=True):
                colour = (0, 0, 255) if pol < 0 else (255, 0, 0)
                cv2.circle(out, (int(x * k), int(y * k)), int((r + 2) * k), colour, 1)
        for f in reading.extras.get("candidates", []):
            x1, y1, x2, y2 = (int(v * k) for v in f.box)
            cv2.rectangle(out, (x1, y1), (x2, y2), (160, 160, 160), 1)
            label = f"{f.face}:{f.edge_score:.2f}"
            cv2.putText(out, label, (x1, y2 + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (90, 90, 90), 1)
    for die in reading.dice:
        x1, y1, x2, y2 = die.box
        colour = _FLAG if die.flagged else _OK
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2)
        text = "?" if die.face is None else str(die.face)
        if die.flags:
            text += " " + ",".join(die.flags)
        cv2.putText(out, text, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2)
    banner = f"{reading.status}: {reading.values}"
    if reading.problems:
        banner += " - " + "; ".join(reading.problems)
    cv2.putText(out, banner, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
    cv2.putText(out, banner, (6, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    return out
