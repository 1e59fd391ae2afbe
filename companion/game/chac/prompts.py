"""What the table must do next, in words players understand."""

from __future__ import annotations

from companion.game.chac.fold import replacement_seats, river_options
from companion.game.chac.state import PURPOSES, ChacState
from companion.game.protocol import Prompt


def _who(state: ChacState, seat: int) -> str:
    adv = state.seats[seat].adv
    return adv.first_name if adv else state.seats[seat].name


def prompts(state: ChacState) -> list[Prompt]:
    phase = state.phase
    if phase == "over":
        result = state.result or {}
        winners = result.get("winners", [])
        team = result.get("coop")
        if team is not None:  # CHAC-COOP-1
            verdict = "the team wins" if team["won"] else "the team loses"
            return [Prompt(f"Game over: {verdict}, {team['total']} of {team['target']}.", "over")]
        if winners:
            best = result["scores"][str(winners[0])]
            names = " and ".join(state.seats[i].name for i in winners)
            text = f"Game over: {names} win{'s' if len(winners) == 1 else ''} with {best}."
        else:
            text = "Game over: nobody escaped, nobody wins."
        return [Prompt(text, "over")]
    if state.roll is not None and phase == "setup":
        return [_roll(state), *_setup(state)]
    if state.roll is not None:
        return [_roll(state)]
    if phase == "setup":
        return _setup(state)
    if phase == "pass":
        names = " or ".join(state.seats[i].name for i in state.order)
        return [Prompt(f"Table: the dice go to the nearest the exit: {names}?", "choose")]
    if state.offer is not None:
        offer = state.offer
        n = len(offer["cards"])
        return [
            Prompt(
                f"{_who(state, offer['with'])}: {_who(state, offer['seat'])} offers {n} "
                f"card{'s' if n != 1 else ''} for {offer['ask']} of yours: accept or decline?",
                "choose",
                offer["with"],
            )
        ]
    return _later(state)


def _roll(state: ChacState) -> Prompt:
    assert state.roll is not None
    n, purpose = state.roll["dice"], state.roll["purpose"]
    who = f"{_who(state, state.roll['seat'])}: " if "seat" in state.roll else ""
    return Prompt(
        f"{who}Roll {n} {'die' if n == 1 else 'dice'} for {PURPOSES[purpose]}",
        "roll",
        state.roll.get("seat"),
        n,
        purpose,
    )


def _setup(state: ChacState) -> list[Prompt]:
    # Prompts are public: the dealt adventurers stay on each player's own page.
    out = [
        Prompt(f"{s.name}: choose your first adventurer", "choose", i)
        for i, s in enumerate(state.seats)
        if not s.advs
    ]
    if state.dicekeeper is None and state.triplets is None:
        out.append(Prompt("Host: choose the first dicekeeper (the oldest player)", "choose"))
    return out


def _later(state: ChacState) -> list[Prompt]:
    phase = state.phase
    if phase == "load":
        seat = state.actor()
        assert seat is not None
        adv = state.seats[seat].adv
        assert adv is not None
        if len(adv.cards) > 12:
            return [Prompt(f"{adv.first_name}: discard down to 12 cards", "choose", seat)]
        return [
            Prompt(
                f"{adv.first_name}: discard cards or say ready "
                f"({len(adv.cards)} card{'' if len(adv.cards) == 1 else 's'})",
                "choose",
                seat,
            )
        ]
    if state.slab_wait is not None:
        seat, space = state.slab_wait["seat"], state.slab_wait["space"]
        return [Prompt(f"{_who(state, seat)}: type the number on slab {space}", "enter", seat)]
    if state.river is not None:
        seat = state.river["seat"]
        adv = state.seats[seat].adv
        assert adv is not None
        swim, reroll = river_options(state, adv)
        ones = state.river["rerollable"] + state.river["final"]
        ways = [
            w
            for w, ok in (
                ("swim", swim),
                (f"discard {3 * state.river['rerollable']} cards to reroll", reroll),
            )
            if ok
        ]
        return [
            Prompt(
                f"{adv.first_name}: {ones} one(s) in the river: {' or '.join(ways)}, "
                "or be swept away",
                "choose",
                seat,
            )
        ]
    if phase == "actions":
        seat = state.actor()
        assert seat is not None
        adv = state.seats[seat].adv
        assert adv is not None
        n = adv.actions
        if n == 0:
            return [
                Prompt(f"{adv.first_name}: no actions left (ability still possible)", "act", seat)
            ]
        return [Prompt(f"{adv.first_name}: {n} action{'s' if n != 1 else ''} left", "act", seat)]
    if phase == "walls":
        return [Prompt("Reveal the next 3 wall cards", "confirm")]
    if phase == "replace":
        opened = " or ".join(k for k, v in state.sun_open.items() if v)
        return [
            Prompt(
                f"{state.seats[i].name}: bring in your replacement on sun space {opened}?",
                "choose",
                i,
            )
            for i in replacement_seats(state)
        ]
    if phase == "score":
        return [
            Prompt(f"{s.name}: enter your treasure card values", "enter", i)
            for i, s in enumerate(state.seats)
            if (a := s.adv) and a.status == "escaped" and s.scored is None
        ]
    return []
