"""What the table must do next, in words players understand."""

from __future__ import annotations

from companion.game.inka.fold import points
from companion.game.inka.state import PHASES, STATUES, STEPPING_TILES, InkaState
from companion.game.protocol import Prompt


def prompts(state: InkaState) -> list[Prompt]:
    stage = state.stage
    if stage == "over":
        winner = state.name(state.winner or 0)
        return [
            Prompt(f"Game over: {winner} wins, out of the temple with {STATUES} statues.", "over")
        ]
    if stage == "setup":
        out = [
            Prompt(f"{p.name}: choose your colour", "choose", i)
            for i, p in enumerate(state.seats)
            if p.colour is None
        ]
        if state.first is None:
            out.append(Prompt("Host: who is the youngest player? They begin.", "choose"))
        return out
    seat = state.turn
    assert seat is not None
    name = state.name(seat)
    if stage == "starts":
        return [Prompt(f"{name}: put your counter on an empty starting space", "act", seat)]
    if stage == "tiles":
        left = state.tiles_left
        return [
            Prompt(f"{name}: place a stepping tile ({left} of {STEPPING_TILES} left)", "act", seat),
        ]
    if state.phase == 1:
        return [Prompt(f"{name}: lift your blocking counter off the board", "act", seat)]
    if state.phase == 4:
        return [Prompt(f"{name}: end your turn", "act", seat)]
    phase = PHASES[state.phase]
    return [Prompt(f"{name}: {points(state.points)} left ({phase})", "act", seat)]
