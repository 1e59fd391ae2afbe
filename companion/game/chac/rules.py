"""Checking commands against the rules.

`validate` never changes the state: it returns the events the command causes, or raises a
RuleError whose message a player understands and whose `rule` names the rule broken.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.game.arguments import is_int, seat_of
from companion.game.chac.fold import nearest_to_exit, replacement_seats, swimmers
from companion.game.chac.hidden import DECKS
from companion.game.chac.state import PURPOSES, Adventurer, ChacState
from companion.game.protocol import Command, RuleError

Event = dict[str, Any]

CORRECTIONS = frozenset({"set_space", "set_boulder", "set_planks"})
# The host's own commands, which a random player never sends: the corrections, ending the game.
HOST_ONLY = CORRECTIONS | {"end_game"}


def _name(state: ChacState, seat: int) -> str:
    adv = state.seats[seat].adv
    return adv.first_name if adv else state.seats[seat].name


# -- setup -------------------------------------------------------------------------------------


def _choose_adventurer(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "setup":
        raise RuleError("Adventurers are chosen before the first round.", "CHAC-SET-1")
    seat = seat_of(state, cmd, None)
    if state.seats[seat].advs:
        raise RuleError(f"{state.seats[seat].name} has already chosen.", "CHAC-SET-1")
    name = cmd.args.get("adventurer")
    dealt = state.seats[seat].dealt
    if name not in dealt:
        # Not naming the pair: the message may reach a page other than the player's own.
        raise RuleError(
            f"{state.seats[seat].name}: choose one of the two adventurers dealt to you.",
            "CHAC-SET-1",
        )
    return [{"type": "chose_adventurer", "seat": seat, "adventurer": name}]


def _first_dicekeeper(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "setup" or state.dicekeeper is not None:
        raise RuleError("The first dicekeeper is chosen once, before the game.", "CHAC-SET-2")
    if state.options["first_dicekeeper"] == "triplets":
        raise RuleError(
            "The first dicekeeper is whoever rolls the highest three of a kind.", "CHAC-COOP-3"
        )
    if cmd.seat is not None:
        raise RuleError("The host chooses the first dicekeeper (the oldest player).", "CHAC-SET-2")
    keeper = cmd.args.get("keeper")
    if not is_int(keeper) or not 0 <= keeper < len(state.seats):
        raise RuleError('Name the first dicekeeper\'s seat number as "keeper".', "CHAC-SET-2")
    return [{"type": "first_dicekeeper", "keeper": keeper}]


# -- load phase --------------------------------------------------------------------------------


def _cards_arg(
    state: ChacState, adv: Adventurer, args: Mapping[str, Any], need: int | None
) -> list[str]:
    """The cards a discard names: ids (digital mode) or a count (physical mode)."""
    if state.options["treasure_mode"] == "physical":
        count = args.get("count")
        if not is_int(count) or count < 1:
            raise RuleError('Say how many cards you discard as "count".')
        if need is not None and count != need:
            raise RuleError(f"Discard exactly {need} cards.", "CHAC-RIVER-2")
        if count > len(adv.cards):
            raise RuleError(f"{adv.first_name} holds only {len(adv.cards)} cards.")
        return adv.cards[-count:]
    cards = args.get("cards")
    if not isinstance(cards, list) or not cards:
        raise RuleError('List the cards you discard as "cards" (their ids).')
    if (
        not all(isinstance(c, str) for c in cards)
        or len(set(cards)) != len(cards)
        or any(c not in adv.cards for c in cards)
    ):
        raise RuleError(f"{adv.first_name} does not hold all of those cards.")
    if need is not None and len(cards) != need:
        raise RuleError(f"Discard exactly {need} cards.", "CHAC-RIVER-2")
    return list(cards)


def _loader(state: ChacState, cmd: Command) -> tuple[int, Adventurer]:
    if state.phase != "load":
        raise RuleError("Cards are discarded in the load phase, before the roll.", "CHAC-LL-1")
    actor = state.actor()
    seat = seat_of(state, cmd, actor)
    if seat != actor:
        raise RuleError(
            f"{_name(state, actor or 0)} discards first (dicekeeper first, then clockwise).",
            "CHAC-LL-1",
        )
    adv = state.seats[seat].adv
    assert adv is not None
    return seat, adv


def _discard(state: ChacState, cmd: Command) -> list[Event]:
    seat, adv = _loader(state, cmd)
    return [{"type": "discarded", "seat": seat, "cards": _cards_arg(state, adv, cmd.args, None)}]


def _ready(state: ChacState, cmd: Command) -> list[Event]:
    seat, adv = _loader(state, cmd)
    if len(adv.cards) > 12:
        raise RuleError(f"{adv.first_name} must discard down to 12 cards first.", "CHAC-LL-1")
    return [{"type": "ready", "seat": seat}]


def _stamina(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase not in ("load", "roll"):
        raise RuleError(
            "Stamina is used after load levels are set, before the roll.", "CHAC-ABIL-STAMINA"
        )
    seat = seat_of(state, cmd, state.actor())
    adv = state.seats[seat].adv
    if adv is None or adv.status != "alive":
        raise RuleError("Only an adventurer in the temple can use Stamina.", "CHAC-ABIL-STAMINA")
    _ability(adv, "stamina", "CHAC-ABIL-STAMINA")
    return [{"type": "stamina", "seat": seat}]


def _ability(adv: Adventurer, ability: str, rule: str) -> None:
    if adv.ability != ability:
        raise RuleError(f"{adv.name} does not have this ability.", rule)
    if adv.ability_used:
        raise RuleError(f"{adv.name} has already used their ability this game.", rule)


# -- dice --------------------------------------------------------------------------------------


def _dice(state: ChacState, cmd: Command) -> list[Event]:
    roll = state.roll
    if roll is None:
        raise RuleError("No dice roll is awaited now.")
    values = cmd.args.get("values")
    n = roll["dice"]
    if not isinstance(values, list) or not all(is_int(v) and 1 <= v <= 6 for v in values):
        raise RuleError("Dice values must be a list of numbers from 1 to 6.")
    if len(values) != n:
        raise RuleError(f"Roll {n} dice for {PURPOSES[roll['purpose']]}, not {len(values)}.")
    return [{"type": "dice", "values": list(values)}]


# -- actions -----------------------------------------------------------------------------------


def _acting(state: ChacState, cmd: Command) -> Adventurer:
    """The adventurer whose turn it is, when the command speaks for them and nothing is awaited."""
    if state.phase != "actions":
        raise RuleError("Actions are taken in the action phase.", "CHAC-ACT-2")
    actor = state.actor()
    seat = seat_of(state, cmd, actor)
    if seat != actor:
        raise RuleError(f"It is {_name(state, actor or 0)}'s turn.", "CHAC-ACT-2")
    if state.roll is not None:
        raise RuleError(f"Roll the dice for {PURPOSES[state.roll['purpose']]} first.")
    if state.slab_wait is not None:
        raise RuleError("Type the number on the slab first.", "CHAC-LAVA-3")
    if state.river is not None:
        raise RuleError("Decide the river exit first: swim, reroll or give up.", "CHAC-RIVER-2")
    if state.offer is not None:
        raise RuleError(
            f"{_name(state, state.offer['with'])} answers the exchange first.", "CHAC-COOP-4"
        )
    adv = state.seats[seat].adv
    assert adv is not None
    return adv


def _spend(adv: Adventurer) -> None:
    if adv.actions < 1:
        raise RuleError(f"{adv.first_name} has no actions left.", "CHAC-ACT-1")


def _not_at_river_end(state: ChacState, adv: Adventurer) -> None:
    if adv.space == state.board.river[-1] and adv.actions > 0 and not state.river_blocked():
        raise RuleError(
            "On the last river space the only action is to exit the river.", "CHAC-RIVER-2"
        )


def check_move(state: ChacState, adv: Adventurer, to: Any, how: str) -> None:
    board = state.board
    here = adv.space
    assert here is not None
    if how == "sprint":
        _ability(adv, "sprint", "CHAC-ABIL-SPRINT")
        if board.kind[here] == "river":
            raise RuleError("Sprint cannot be used in the river.", "CHAC-ABIL-SPRINT")
        if board.kind.get(to) == "river" and not state.options["sprint_into_river"]:
            raise RuleError("Sprint cannot take you into the river.", "CHAC-ABIL-SPRINT")
    else:
        _spend(adv)
    if how == "leap":
        _ability(adv, "leap", "CHAC-ABIL-LEAP")
        if board.kind[here] == "river":
            raise RuleError("Leap cannot take you out of the river.", "CHAC-ABIL-LEAP")
    if here == board.river[-1]:
        raise RuleError("From the last river space you can only exit the river.", "CHAC-RIVER-2")
    if to == "exit":
        if here != board.exit_from or how == "leap":
            raise RuleError(
                f"The temple is left by a normal move from {board.exit_from}.", "CHAC-EXIT-1"
            )
        return
    if not isinstance(to, str) or to not in board.kind:
        raise RuleError(f"There is no space {to!r} on this board.")
    if how == "leap":
        if to not in board.diagonals[here]:
            raise RuleError(f"{to} is not diagonal to {here}.", "CHAC-ABIL-LEAP")
    elif to not in board.moves[here]:
        rule = "CHAC-RIVER-1" if "river" in (board.kind[here], board.kind[to]) else "CHAC-MOVE-1"
        raise RuleError(f"{to} is not next to {here} across a dashed line.", rule)
    kind = board.kind[to]
    if kind == "zone" and state.walls_closed():
        raise RuleError("The walls have closed: nobody may enter the walls room.", "CHAC-WALL-3")
    if to in state.fallen:
        raise RuleError(f"Slab {to} has fallen into the lava.", "CHAC-LAVA-1")
    if kind == "bridge" and state.planks == 0:
        raise RuleError("The bridge has fallen.", "CHAC-BRIDGE-1")
    _not_onto_boulder(state, to)


def _not_onto_boulder(state: ChacState, to: str) -> None:
    if to == state.board.corridor[state.boulder]:
        raise RuleError(
            f"The boulder lies on {to}: nobody may enter or pass its space.", "CHAC-BOUL-5"
        )


def _movement(how: str) -> Callable[[ChacState, Command], list[Event]]:
    def check(state: ChacState, cmd: Command) -> list[Event]:
        adv = _acting(state, cmd)
        to = cmd.args.get("to")
        check_move(state, adv, to, how)
        events: list[Event] = [{"type": "moved", "seat": adv.seat, "to": to, "how": how}]
        number = cmd.args.get("number")
        if number is not None:
            if state.board.kind.get(to) != "lava" or state.slabs.get(to) is not None:
                raise RuleError("A number is only typed for a slab being turned over.")
            events.append(_slab_event(state, number, to))
        return events

    return check


def _slab_event(state: ChacState, number: Any, space: str) -> Event:
    if not is_int(number) or not 1 <= number <= 14:
        raise RuleError("A slab's number is a Mayan number from 1 to 14.", "CHAC-LAVA-3")
    for other, n in state.slabs.items():
        if n == number and other != space:
            raise RuleError(
                f"Slab {other} already shows {number}; check the slab again.", "CHAC-LAVA-3"
            )
    return {"type": "slab", "number": number}


def _slab(state: ChacState, cmd: Command) -> list[Event]:
    wait = state.slab_wait
    if wait is None:
        raise RuleError("No slab is being turned over now.", "CHAC-LAVA-3")
    seat = seat_of(state, cmd, wait["seat"])
    if seat != wait["seat"]:
        raise RuleError(f"{_name(state, wait['seat'])} is turning the slab over.", "CHAC-LAVA-3")
    return [_slab_event(state, cmd.args.get("number"), wait["space"])]


def _search(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _not_at_river_end(state, adv)
    _spend(adv)
    board = state.board
    here = adv.space
    if here in board.zone_number:
        deck, rule = f"Z{board.zone_number[here]}", "CHAC-WALLS-1"
    elif here in board.river:
        deck, rule = "R", "CHAC-RIVER-1"
        if here == board.river[-1]:
            raise RuleError("The last river space cannot be searched.", rule)
        if adv.lying:
            raise RuleError(f"{adv.first_name} must move before searching again.", rule)
    else:
        raise RuleError("You can search only in a walls room zone or in the river.", "CHAC-WALLS-1")
    if not state.decks[deck]:
        raise RuleError("That treasure deck is empty.", rule)
    return [{"type": "searched", "seat": adv.seat, "deck": deck, "card": state.decks[deck][-1]}]


def _decipher(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _spend(adv)
    zone = state.board.zone_number.get(adv.space or "")
    if zone is None:
        raise RuleError("Glyphs are deciphered in a walls room zone.", "CHAC-WALLS-1")
    return [{"type": "deciphered", "seat": adv.seat, "zone": zone}]


def _take(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _spend(adv)
    here = adv.space or ""
    if state.board.kind.get(here) != "lava" or state.slabs.get(here) is None:
        raise RuleError("Lava treasure is taken standing on a turned slab.", "CHAC-LAVA-2")
    if here in state.emptied:
        raise RuleError(f"Slab {here} has already been emptied.", "CHAC-LAVA-2")
    if not state.decks["L"]:
        raise RuleError("The lava treasure deck is empty.", "CHAC-LAVA-2")
    return [
        {"type": "took_treasure", "seat": adv.seat, "space": here, "card": state.decks["L"][-1]}
    ]


def _linguistics(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _ability(adv, "linguistics", "CHAC-ABIL-LING")
    space = cmd.args.get("space")
    if space not in state.linguistics_targets(adv):
        raise RuleError(
            "Peek only at a glyph-side-up slab beside you (not diagonal).", "CHAC-ABIL-LING"
        )
    return [{"type": "linguistics", "seat": adv.seat, "space": space}]


def _alcove(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _spend(adv)
    here = adv.space or ""
    if here not in state.board.alcoves:
        raise RuleError("Alcoves are opened from the corridor space beside them.", "CHAC-ALC-1")
    if state.alcoves[here] is None:
        raise RuleError("That alcove has already been emptied.", "CHAC-ALC-1")
    return [{"type": "alcove", "seat": adv.seat}]


def _attempt(state: ChacState, adv: Adventurer) -> dict[str, Any]:
    attempt = state.alcove
    if attempt is None or attempt["seat"] != adv.seat or not attempt["dice"]:
        raise RuleError("There is no alcove roll this turn to build on.", "CHAC-ALC-1")
    return attempt


def _reroll(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _attempt(state, adv)
    _spend(adv)
    dice = cmd.args.get("dice")
    if (
        not isinstance(dice, list)
        or not dice
        or not all(is_int(i) and 0 <= i < 5 for i in dice)
        or len(set(dice)) != len(dice)
    ):
        raise RuleError("Name the dice to reroll by position, 0 to 4, e.g. [0, 3].", "CHAC-ALC-1")
    return [{"type": "reroll", "seat": adv.seat, "dice": sorted(dice)}]


def _lock_pick(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "actions" or state.actor() is None:
        raise RuleError("Lock Picking follows an alcove roll.", "CHAC-ABIL-LOCK")
    seat = seat_of(state, cmd, state.actor())
    adv = state.seats[seat].adv
    if seat != state.actor() or adv is None or state.roll is not None:
        raise RuleError("Lock Picking follows your own alcove roll.", "CHAC-ABIL-LOCK")
    _ability(adv, "lock_picking", "CHAC-ABIL-LOCK")
    attempt = _attempt(state, adv)
    if attempt["missing"] != 1:
        raise RuleError("Lock Picking works when exactly one face is missing.", "CHAC-ABIL-LOCK")
    return [{"type": "lock_pick", "seat": seat}]


def _river_exit(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _spend(adv)
    if adv.space != state.board.river[-1]:
        raise RuleError("The river is exited from its last space.", "CHAC-RIVER-2")
    _not_onto_boulder(state, state.board.river_exit)
    return [{"type": "river_exit", "seat": adv.seat}]


def _river_decider(state: ChacState, cmd: Command) -> Adventurer:
    river = state.river
    if river is None or state.roll is not None:
        raise RuleError("No river exit is waiting for a decision.", "CHAC-RIVER-2")
    seat = seat_of(state, cmd, river["seat"])
    if seat != river["seat"]:
        raise RuleError(f"{_name(state, river['seat'])} is leaving the river.", "CHAC-RIVER-2")
    adv = state.seats[seat].adv
    assert adv is not None
    return adv


def _swim(state: ChacState, cmd: Command) -> list[Event]:
    river = state.river
    if river is None or state.roll is not None:
        raise RuleError("No river exit is waiting for a decision.", "CHAC-RIVER-2")
    seat = seat_of(state, cmd, river["seat"])
    if seat in swimmers(state):
        return [{"type": "swim", "seat": seat}]
    adv = state.seats[seat].adv
    if seat == river["seat"] and adv is not None:
        _ability(adv, "swimming", "CHAC-ABIL-SWIM")
    if state.options["swimming_helps_adjacent"]:
        raise RuleError(
            "Swimming helps only from the same or a neighbouring river space.", "CHAC-COOP-5"
        )
    raise RuleError(f"{_name(state, river['seat'])} is leaving the river.", "CHAC-RIVER-2")


def _river_reroll(state: ChacState, cmd: Command) -> list[Event]:
    adv = _river_decider(state, cmd)
    river = state.river
    assert river is not None
    ones = river["rerollable"]
    if ones == 0:
        raise RuleError("Each 1 may be rerolled only once.", "CHAC-RIVER-2")
    if len(adv.cards) < 3 * ones:
        raise RuleError(
            f"Rerolling {ones} dice costs {3 * ones} cards; "
            f"{adv.first_name} holds {len(adv.cards)}.",
            "CHAC-RIVER-2",
        )
    cards = _cards_arg(state, adv, cmd.args, 3 * ones)
    return [{"type": "river_reroll", "seat": adv.seat, "cards": cards}]


def _river_give_up(state: ChacState, cmd: Command) -> list[Event]:
    adv = _river_decider(state, cmd)
    return [{"type": "river_give_up", "seat": adv.seat}]


def _sabotage(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _spend(adv)
    if adv.space != state.board.bridge:
        raise RuleError("Sabotage is done standing on the bridge.", "CHAC-BRIDGE-2")
    if state.planks == 0:
        raise RuleError("The bridge has fallen.", "CHAC-BRIDGE-1")
    return [{"type": "sabotage", "seat": adv.seat}]


def _pass(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    _not_at_river_end(state, adv)
    return [{"type": "passed", "seat": adv.seat}]


# -- exchanging treasures (CHAC-COOP-4) ----------------------------------------------------


def _offered(state: ChacState, adv: Adventurer, args: Mapping[str, Any], key: str) -> list[str]:
    """The cards of `adv` named in an exchange: ids (digital mode) or a count (physical)."""
    if state.options["treasure_mode"] == "physical":
        count = args.get("count", 0)
        if not is_int(count) or not 0 <= count <= len(adv.cards):
            raise RuleError(
                f'Say how many of {adv.first_name}\'s {len(adv.cards)} cards as "count".',
                "CHAC-COOP-4",
            )
        return adv.cards[len(adv.cards) - count :]
    cards = args.get(key, [])
    if (
        not isinstance(cards, list)
        or not all(isinstance(c, str) for c in cards)
        or len(set(cards)) != len(cards)
        or any(c not in adv.cards for c in cards)
    ):
        raise RuleError(f"{adv.first_name} does not hold all of those cards.", "CHAC-COOP-4")
    return list(cards)


def _exchange(state: ChacState, cmd: Command) -> list[Event]:
    adv = _acting(state, cmd)
    if not state.options["exchange_treasures"]:
        raise RuleError("Exchanging treasures is a variant the host did not choose.", "CHAC-COOP-4")
    _spend(adv)
    _not_at_river_end(state, adv)
    other_seat = cmd.args.get("with")
    if not is_int(other_seat) or not 0 <= other_seat < len(state.seats) or other_seat == adv.seat:
        raise RuleError('Name the other player\'s seat as "with".', "CHAC-COOP-4")
    other = state.seats[other_seat].adv
    if other is None or other.status != "alive" or other.space != adv.space:
        raise RuleError("Exchange only with an adventurer on your space.", "CHAC-COOP-4")
    cards = _offered(state, adv, cmd.args, "cards")
    ask = cmd.args.get("ask", 0)
    if not is_int(ask) or not 0 <= ask <= len(other.cards):
        raise RuleError(
            f"Ask for 0 to {len(other.cards)} of {other.first_name}'s cards.", "CHAC-COOP-4"
        )
    if not cards and not ask:
        raise RuleError("An exchange moves at least one card.", "CHAC-COOP-4")
    return [
        {
            "type": "exchange_offered",
            "seat": adv.seat,
            "with": other_seat,
            "cards": cards,
            "ask": ask,
        }
    ]


def _answerer(state: ChacState, cmd: Command) -> int:
    offer = state.offer
    if offer is None:
        raise RuleError("No exchange is waiting for an answer.", "CHAC-COOP-4")
    seat = seat_of(state, cmd, offer["with"])
    if seat != offer["with"]:
        raise RuleError(f"{_name(state, offer['with'])} answers the exchange.", "CHAC-COOP-4")
    return seat


def _accept_exchange(state: ChacState, cmd: Command) -> list[Event]:
    seat = _answerer(state, cmd)
    offer = state.offer
    assert offer is not None
    adv = state.seats[seat].adv
    assert adv is not None
    cards = _offered(state, adv, cmd.args, "cards")
    if len(cards) != offer["ask"]:
        raise RuleError(f"Give exactly {offer['ask']} cards in return.", "CHAC-COOP-4")
    return [{"type": "exchanged", "seat": seat, "cards": cards}]


def _decline_exchange(state: ChacState, cmd: Command) -> list[Event]:
    return [{"type": "exchange_declined", "seat": _answerer(state, cmd)}]


def _pass_dice(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "pass":
        raise RuleError(
            "The dice go to the adventurer nearest the exit at the round's end.", "CHAC-COOP-2"
        )
    if cmd.seat is not None:
        raise RuleError("The table chooses who gets the dice on a tie.", "CHAC-COOP-2")
    keeper = cmd.args.get("keeper")
    tied = nearest_to_exit(state)
    if keeper not in tied or not is_int(keeper):
        names = " or ".join(state.seats[i].name for i in tied)
        raise RuleError(f"The dice go to {names} (nearest the exit).", "CHAC-COOP-2")
    return [{"type": "pass_dice", "keeper": keeper}]


# -- after the actions -------------------------------------------------------------------------


def _walls(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "walls":
        raise RuleError("The wall cards are revealed after everyone's actions.", "CHAC-WALL-2")
    if cmd.seat is not None and cmd.seat != state.dicekeeper:
        raise RuleError(
            f"The dicekeeper ({_name(state, state.dicekeeper or 0)}) or the host reveals the "
            "wall cards.",
            "CHAC-WALL-2",
        )
    return [{"type": "walls"}]


def _replacer(state: ChacState, cmd: Command) -> int:
    if state.phase != "replace":
        raise RuleError("Replacements come in after the boulder moves.", "CHAC-REPL-1")
    seat = seat_of(state, cmd, None)
    if seat not in replacement_seats(state):
        raise RuleError(
            f"{state.seats[seat].name} has no replacement to bring in now.", "CHAC-REPL-1"
        )
    return seat


def _replace(state: ChacState, cmd: Command) -> list[Event]:
    seat = _replacer(state, cmd)
    sun = cmd.args.get("sun")
    if sun not in ("A", "B") or not state.sun_open[sun]:
        opened = [k for k, v in state.sun_open.items() if v]
        raise RuleError(f"Choose an open sun space: {' or '.join(opened)}.", "CHAC-REPL-1")
    return [{"type": "replaced", "seat": seat, "sun": sun}]


def _decline(state: ChacState, cmd: Command) -> list[Event]:
    return [{"type": "declined_replacement", "seat": _replacer(state, cmd)}]


def _score(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase != "score":
        raise RuleError(
            "Treasure values are entered once the game is over (physical cards).", "CHAC-END-2"
        )
    seat = seat_of(state, cmd, None)
    adv = state.seats[seat].adv
    if adv is None or adv.status != "escaped":
        raise RuleError("Only players whose adventurer escaped score.", "CHAC-END-2")
    if state.seats[seat].scored is not None:
        raise RuleError(f"{state.seats[seat].name} has already entered their values.")
    values = cmd.args.get("values")
    caskets = cmd.args.get("caskets", [])
    if not isinstance(values, list) or not all(is_int(v) and 1 <= v <= 6 for v in values):
        raise RuleError('Enter each card\'s value (1 to 6) as "values".', "CHAC-END-2")
    taken = {d for s in state.seats if s.scored for d in s.scored[1]}
    if (
        not isinstance(caskets, list)
        or not all(isinstance(d, str) for d in caskets)
        or any(d not in DECKS or d in taken for d in caskets)
        or len(set(caskets)) != len(caskets)
    ):
        raise RuleError(
            "Name each casket by its deck (Z1-Z4, L, R); each deck has one.", "CHAC-TREAS-2"
        )
    if len(values) + len(caskets) != len(adv.cards):
        raise RuleError(
            f"{adv.first_name} carried {len(adv.cards)} cards; enter one value per card.",
            "CHAC-END-2",
        )
    return [{"type": "scored", "seat": seat, "values": values, "caskets": caskets}]


def _end_game(state: ChacState, cmd: Command) -> list[Event]:
    """The host ends the game early (the table has to stop): scored as at the rules' end."""
    if cmd.seat is not None:
        raise RuleError("Only the host ends the game early.")
    if state.phase == "score":
        raise RuleError(
            "The game has ended: players who escaped enter their treasure values.", "CHAC-END-2"
        )
    return [{"type": "game_ended"}]


# -- host corrections --------------------------------------------------------------------------


def _host(state: ChacState, cmd: Command) -> None:
    if cmd.seat is not None:
        raise RuleError("Only the host makes corrections.")
    if state.phase in ("setup", "over", "score"):
        raise RuleError("Corrections are made while the game is running.")
    # A player's roll, slab or river decision is finished first, so nothing is left half done.
    if state.roll is not None and "seat" in state.roll:
        raise RuleError(f"Finish the roll for {PURPOSES[state.roll['purpose']]} first.")
    if state.slab_wait is not None:
        raise RuleError("Type the number on the slab first.", "CHAC-LAVA-3")
    if state.river is not None:
        raise RuleError("Decide the river exit first.", "CHAC-RIVER-2")
    if state.offer is not None:
        raise RuleError("Answer the exchange first.", "CHAC-COOP-4")


def _set_space(state: ChacState, cmd: Command) -> list[Event]:
    _host(state, cmd)
    seat = seat_of(state, cmd, None)
    adv = state.seats[seat].adv
    if adv is None or adv.status != "alive":
        raise RuleError(f"{state.seats[seat].name} has no adventurer in the temple.")
    to = cmd.args.get("to")
    if not isinstance(to, str) or to not in state.board.kind or to in state.fallen:
        raise RuleError(f"There is no space {to!r} to stand on.")
    if to == state.board.bridge and state.planks == 0:
        raise RuleError("The bridge has fallen.", "CHAC-BRIDGE-1")
    if state.board.kind[to] == "lava" and state.slabs.get(to) is None:
        raise RuleError(f"Slab {to} is still glyph side up: move onto it to turn it over.")
    _not_onto_boulder(state, to)
    return [{"type": "set_space", "player": seat, "to": to}]


def _set_boulder(state: ChacState, cmd: Command) -> list[Event]:
    _host(state, cmd)
    to = cmd.args.get("to")
    index = state.board.corridor_index.get(to) if isinstance(to, str) else None
    if index is None:
        raise RuleError(f"The boulder stays on the corridor; {to!r} is not a corridor space.")
    if index <= state.boulder:
        raise RuleError(
            "The boulder never rolls back; undo the command that moved it instead.", "CHAC-BOUL-2"
        )
    return [{"type": "set_boulder", "to": to}]


def _set_planks(state: ChacState, cmd: Command) -> list[Event]:
    _host(state, cmd)
    planks = cmd.args.get("planks")
    if not is_int(planks) or not 0 <= planks <= 5:
        raise RuleError("The bridge has 0 to 5 planks.", "CHAC-BRIDGE-1")
    return [{"type": "set_planks", "planks": planks}]


VALIDATORS: dict[str, Callable[[ChacState, Command], list[Event]]] = {
    "choose_adventurer": _choose_adventurer,
    "first_dicekeeper": _first_dicekeeper,
    "discard": _discard,
    "ready": _ready,
    "stamina": _stamina,
    "dice": _dice,
    "move": _movement("move"),
    "sprint": _movement("sprint"),
    "leap": _movement("leap"),
    "slab": _slab,
    "search": _search,
    "decipher": _decipher,
    "take": _take,
    "linguistics": _linguistics,
    "alcove": _alcove,
    "reroll": _reroll,
    "lock_pick": _lock_pick,
    "river_exit": _river_exit,
    "swim": _swim,
    "river_reroll": _river_reroll,
    "river_give_up": _river_give_up,
    "sabotage": _sabotage,
    "pass": _pass,
    "walls": _walls,
    "replace": _replace,
    "decline_replacement": _decline,
    "score": _score,
    "end_game": _end_game,
    "set_space": _set_space,
    "set_boulder": _set_boulder,
    "set_planks": _set_planks,
    "exchange": _exchange,
    "accept_exchange": _accept_exchange,
    "decline_exchange": _decline_exchange,
    "pass_dice": _pass_dice,
}


def validate(state: ChacState, cmd: Command) -> list[Event]:
    if state.phase == "over":
        raise RuleError("The game is over.", "CHAC-END-1")
    check = VALIDATORS.get(cmd.type)
    if check is None:
        raise RuleError(f"Unknown command {cmd.type!r}.")
    return check(state, cmd)
