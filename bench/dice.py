"""Dice reader benchmark: 1,000 rendered trays plus any labelled sets given.

    .venv/bin/python bench/dice.py                       # synthetic only
    .venv/bin/python bench/dice.py ../shared/data/dice/*  # real sets too

Same scoring and output as `companion dice bench` (add --json for JSON).
"""

from __future__ import annotations

import sys

from companion.cli import main

if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(["dice", "bench", "--synthetic", "1000", *args]))
