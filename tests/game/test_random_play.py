"""The random player works for any game behind the protocol, not only Temple of Chac."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from companion.game.protocol import Command, Prompt, RuleError
from companion.game.random_play import play_random_game, random_command


class RaceToTwenty:
    """A tiny real game: seats take turns rolling one die; the first to total 20 wins."""

    name: ClassVar[str] = "race"

    def setup(self, options, seats, seed):
        return {"totals": [0] * len(seats), "turn": 0, "winner": None}

    def legal(self, state, seat):
        if state["winner"] is not None:
            return []
        if seat is None:
            return [Command("dice", None)]
        return [Command("pass", seat)] if seat == state["turn"] else []

    def apply(self, state, command):
        if command.type == "dice":
            values = command.args.get("values")
            if not isinstance(values, list) or len(values) != 1 or not 1 <= values[0] <= 6:
                raise RuleError("Roll 1 die.")
            return [{"type": "rolled", "value": values[0]}]
        if command.type == "pass" and command.seat == state["turn"]:
            return [{"type": "passed"}]
        raise RuleError("Not now.")

    def fold(self, state, event):
        n = len(state["totals"])
        if event["type"] == "rolled":
            state["totals"][state["turn"]] += event["value"]
            if state["totals"][state["turn"]] >= 20:
                state["winner"] = state["turn"]
        state["turn"] = (state["turn"] + 1) % n
        return state

    def public_view(self, state) -> dict[str, Any]:
        return {"seats": [{"total": t} for t in state["totals"]]}

    def seat_view(self, state, seat):
        return self.public_view(state)

    def prompts(self, state):
        return [Prompt("Roll 1 die for the race", "roll", None, 1, "race")]

    def is_over(self, state):
        return state["winner"] is not None


def test_dice_are_filled_from_the_roll_prompt_for_a_game_without_hooks():
    game = RaceToTwenty()
    state = game.setup({}, ["a", "b"], 1)
    rng = random.Random(1)
    seen = {random_command(game, state, rng).type for _ in range(50)}
    assert seen == {"dice", "pass"}
    command = next(
        c for c in (random_command(game, state, rng) for _ in range(50)) if c.type == "dice"
    )
    assert len(command.args["values"]) == 1 and 1 <= command.args["values"][0] <= 6


def test_play_random_game_plays_any_game_to_its_end():
    played = play_random_game(RaceToTwenty(), ["a", "b", "c"], seed=3)
    assert played.state["winner"] is not None
    assert max(played.state["totals"]) >= 20
    assert played.events == len(played.commands) > 0  # one event per command here


def test_a_games_random_menu_offers_its_legal_commands_and_picks_as_random_choices_does():
    """Moctezuma's Revenge! hands random play a cached menu: at every moment of a game it holds
    exactly what `legal` offers the acting seat, and the pick is the one `random.choices`
    makes with the game's weights, so the same seed still plays the same game."""
    from companion.game.moctezuma import MoctezumaGame

    game = MoctezumaGame()
    state = game.setup({}, ["a", "b", "c"], 7)
    rng = random.Random(7)
    weights = {"end_turn": 0.2, "move": 0.5, "note": 0.02}
    while not game.is_over(state):
        commands, _ = game.random_menu(state)
        assert list(commands) == game.legal(state, state.turn)
        twin = random.Random()
        twin.setstate(rng.getstate())
        expected = twin.choices(commands, [weights.get(c.type, 1.0) for c in commands])[0]
        command = random_command(game, state, rng)
        assert command.type == expected.type and command.seat == expected.seat
        assert command.args.items() >= expected.args.items()
        for event in game.apply(state, command):
            game.fold(state, event)
    assert game.random_menu(state) == ((), ())
