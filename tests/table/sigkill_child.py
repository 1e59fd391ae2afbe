"""Plays the tiny game on a Table as fast as it can, acknowledging each accepted change.

Run by test_durability_under_sigkill.py, which kills it with SIGKILL at a random moment. Each
line on stdout is written only after Table.submit/undo returned: "command VERSION JSON" or
"undo VERSION".
"""

import json
import random
import sys

from tinygame import TinyGame, random_command

from companion.game import GAMES
from companion.table import Table

GAMES["tiny"] = "tinygame:TinyGame"


def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    game = TinyGame()
    table = Table.open(path)
    if not table.has_game or table.is_over():
        table.new_game("tiny", {"cards": 100000}, ["Ana", "Ben", "Cy"], seed=seed)
    while True:
        if rng.random() < 0.1:
            outcome = table.undo()
            if outcome.ok:
                print(f"undo {outcome.version}", flush=True)
            continue
        command = random_command(game, table._live.state, rng)
        outcome = table.submit(command)
        if outcome.ok:
            print(f"command {outcome.version} {json.dumps(command.to_json())}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
