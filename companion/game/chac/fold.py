"""Folding events into the state: every consequence of a fact the rules check happens here.

`rules.validate` has already checked the command, so the functions below trust their event.
Everything is deterministic: the same events always give the same state (replay, undo).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game.chac.hidden import ADVENTURERS
from companion.game.chac.state import Adventurer, ChacState

Event = dict[str, Any]


# Any other action ends an alcove attempt: rerolls only follow each other (CHAC-ALC-1).
_KEEPS_ALCOVE = frozenset({"dice", "reroll", "lock_pick", "stamina", "set_planks", "set_boulder"})
_RUNNING = frozenset({"load", "roll", "actions", "walls", "boulder", "replace", "pass"})


def fold(state: ChacState, event: Event) -> ChacState:
    kind = event["type"]
    if state.alcove is not None and kind not in _KEEPS_ALCOVE:
        state.alcove = None
    FOLDERS[kind](state, event)
    if state.phase in _RUNNING and not state.alive():
        # CHAC-END-1: nobody left in the temple ends the game at once; a replacement waiting
        # for a sun space is not in the temple.
        _end_game(state)
    return state


def _adv(state: ChacState, seat: int) -> Adventurer:
    adv = state.seats[seat].adv
    assert adv is not None
    return adv


# -- setup -------------------------------------------------------------------------------------


def _choose(state: ChacState, e: Event) -> None:
    seat = state.seats[e["seat"]]
    first = e["adventurer"]
    second = next(n for n in seat.dealt if n != first)
    seat.advs = [
        Adventurer(first, ADVENTURERS[first], e["seat"], "alive", state.board.entrance),
        Adventurer(second, ADVENTURERS[second], e["seat"]),
    ]
    state.say(f"{seat.name} sends {first} into the temple first.")
    _maybe_start(state)


def _keeper(state: ChacState, e: Event) -> None:
    state.dicekeeper = e["keeper"]
    state.say(f"{state.seats[e['keeper']].name} is the first dicekeeper.")
    _maybe_start(state)


def start_triplets(state: ChacState, contenders: list[int]) -> None:
    """CHAC-COOP-3: the contenders roll the 5 dice in turn, clockwise, for three of a kind."""
    state.triplets = {"contenders": contenders, "turn": 0, "faces": {}}
    state.roll = {"purpose": "first_dicekeeper", "dice": 5, "seat": contenders[0]}


def triplet(values: list[int]) -> int | None:
    """The face shown at least three times, if any (five dice hold at most one)."""
    return next((f for f in range(6, 0, -1) if values.count(f) >= 3), None)


def _triplet_dice(state: ChacState, roll: dict[str, Any], values: list[int], shown: str) -> None:
    rolls = state.triplets
    assert rolls is not None
    seat = roll["seat"]
    face = triplet(values)
    rolls["faces"][str(seat)] = face
    name = state.seats[seat].name
    state.say(f"{name} rolls {shown}" + (f": three {face}s." if face else "."))
    rolls["turn"] += 1
    contenders = rolls["contenders"]
    if rolls["turn"] < len(contenders):
        state.roll = {"purpose": "first_dicekeeper", "dice": 5, "seat": contenders[rolls["turn"]]}
        return
    faces = {int(k): f for k, f in rolls["faces"].items() if f is not None}
    if not faces:
        state.say("No three of a kind: everyone rolls again.")
        start_triplets(state, contenders)
        return
    best = max(faces.values())
    tied = [s for s in contenders if faces.get(s) == best]
    if len(tied) > 1:
        state.say(
            f"Tied triplets of {best}s: {', '.join(state.seats[s].name for s in tied)} roll again."
        )
        start_triplets(state, tied)
        return
    state.triplets = None
    state.dicekeeper = tied[0]
    state.say(
        f"{state.seats[tied[0]].name} rolled the highest triplet and is the first dicekeeper."
    )
    _maybe_start(state)


def _maybe_start(state: ChacState) -> None:
    if state.dicekeeper is not None and all(s.advs for s in state.seats):
        _start_round(state, 1)


# -- the round ---------------------------------------------------------------------------------


def _start_round(state: ChacState, number: int) -> None:
    state.round = number
    state.say(f"Round {number} begins; {state.seats[state.dicekeeper or 0].name} keeps the dice.")
    # CHAC-LL-1: only players carrying cards have anything to discard.
    state.order = [s for s in _in_play(state) if state.seats[s].advs[state.seats[s].current].cards]
    state.turn = 0
    if state.order:
        state.phase = "load"
    else:
        _to_action_roll(state)


def _in_play(state: ChacState) -> list[int]:
    """Seats with an adventurer in the temple, the dicekeeper first, then clockwise."""
    return [s for s in state.clockwise() if (a := state.seats[s].adv) and a.status == "alive"]


def _to_action_roll(state: ChacState) -> None:
    state.phase = "roll"
    state.order = []
    state.roll = {"purpose": "actions", "dice": 5}


def _discard(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    for card in e["cards"]:
        adv.cards.remove(card)
        state.discard.append(card)
    n = len(e["cards"])
    if e.get("why") != "river":
        state.say(f"{adv.first_name} discards {n} card{'s' if n != 1 else ''}.")


def _ready(state: ChacState, e: Event) -> None:
    state.turn += 1
    _settle_load(state)


def _settle_load(state: ChacState) -> None:
    """Move the load phase on past players no longer in the temple; roll when all are done."""
    while state.turn < len(state.order):
        adv = state.seats[state.order[state.turn]].adv
        if adv is not None and adv.status == "alive":
            return
        state.turn += 1
    _to_action_roll(state)


def _stamina(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.ability_used = True
    adv.stamina_round = state.round
    state.say(f"{adv.first_name} uses Stamina: load level {state.load_level(adv)} this round.")


def _dice(state: ChacState, e: Event) -> None:
    roll = state.roll
    assert roll is not None
    values: list[int] = e["values"]
    state.roll = None
    purpose = roll["purpose"]
    state.last_dice = {"purpose": purpose, "values": values}
    shown = " ".join(map(str, values))
    if purpose == "actions":
        state.say(f"Action dice: {shown}.")
        _assign_actions(state, values)
    elif purpose in ("alcove", "alcove_reroll"):
        _alcove_dice(state, roll, values, shown)
    elif purpose == "river":
        _river_dice(state, roll, values, shown)
    elif purpose == "river_reroll":
        _river_reroll_dice(state, roll, values, shown)
    elif purpose == "bridge":
        _bridge_dice(state, roll, values, shown)
    elif purpose == "boulder":
        _boulder_dice(state, values, shown)
    elif purpose == "first_dicekeeper":
        _triplet_dice(state, roll, values, shown)


def _assign_actions(state: ChacState, values: list[int]) -> None:
    # CHAC-ACT-1: one action per die showing at least the load level.
    for adv in state.alive():
        level = state.load_level(adv)
        adv.actions = sum(1 for v in values if v >= level)
    # CHAC-ACT-2: the dicekeeper first, then clockwise.
    state.phase = "actions"
    state.order = _in_play(state)
    state.turn = 0
    _settle_turn(state)


def free_options(state: ChacState, adv: Adventurer) -> bool:
    """Whether an adventurer with no actions left can still do something free: Sprint, Lock
    Picking, Linguistics."""
    if adv.ability_used:
        return False
    if adv.ability == "linguistics":
        return bool(state.linguistics_targets(adv))
    if adv.ability == "sprint":
        here = adv.space or ""
        if state.board.kind.get(here) in (None, "river"):
            return False
        into_river = state.options["sprint_into_river"]
        return here == state.board.exit_from or any(
            state.can_enter(to) and (into_river or state.board.kind[to] != "river")
            for to in state.board.moves[here]
        )
    if adv.ability == "lock_picking":
        return state.alcove is not None and state.alcove.get("missing") == 1
    return False


def _turn_over(state: ChacState, adv: Adventurer) -> bool:
    if adv.status != "alive":
        return True
    if state.roll or state.slab_wait or state.river or state.offer:
        return False
    return adv.actions <= 0 and not free_options(state, adv)


def _settle_turn(state: ChacState) -> None:
    """Move the turn on past seats that cannot act any more; end the phase when all are done."""
    while state.turn < len(state.order):
        adv = state.seats[state.order[state.turn]].adv
        if adv is None or not _turn_over(state, adv):
            return
        _next_turn(state)
    _end_actions(state)


def _next_turn(state: ChacState) -> None:
    state.alcove = None
    state.turn += 1


def _after_action(state: ChacState) -> None:
    if state.phase == "actions":
        _settle_turn(state)


def _pass(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    state.say(f"{adv.first_name} ends the turn.")
    _next_turn(state)
    _settle_turn(state)


def _end_actions(state: ChacState) -> None:
    state.order = []
    state.turn = 0
    state.alcove = None
    if not state.alive():
        _end_game(state)  # CHAC-END-1
        return
    if state.wall_pos < len(state.hidden["walls"]) and not state.walls_closed():
        state.phase = "walls"
    else:
        _to_boulder(state)


# -- movement ----------------------------------------------------------------------------------


def _move(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    how = e.get("how", "move")
    if how == "sprint":
        adv.ability_used = True
    else:
        adv.actions -= 1
    if how == "leap":
        adv.ability_used = True
    to = e["to"]
    verb = {"move": "moves", "sprint": "sprints", "leap": "leaps"}[how]
    if to == "exit":
        adv.status = "escaped"  # CHAC-EXIT-1
        adv.fate = "escaped"
        adv.space = None
        state.say(f"{adv.first_name} {verb} out of the temple!")
        _after_action(state)
        return
    kind = state.board.kind[to]
    if kind == "lava" and state.slabs.get(to) is None:
        # CHAC-LAVA-3: the slab turns over; its number is typed in next.
        _reveal_lava(state)
        state.slab_wait = {"seat": adv.seat, "space": to}
        state.say(f"{adv.first_name} {verb} towards slab {to}; it turns over.")
        return
    _arrive(state, adv, to, verb)
    _after_action(state)


def _arrive(state: ChacState, adv: Adventurer, to: str, verb: str) -> None:
    adv.space = to
    adv.lying = False
    state.say(f"{adv.first_name} {verb} to {to}.")
    board = state.board
    if not state.lava_revealed and (to in board.near_lava or to in board.cells):
        _reveal_lava(state)  # CHAC-MOVE-2
    if to == board.bridge:
        _start_bridge_test(state, adv)


def _reveal_lava(state: ChacState) -> None:
    if not state.lava_revealed:
        state.lava_revealed = True
        state.say("The lava room is revealed: take the masking card off.")


def _slab(state: ChacState, e: Event) -> None:
    wait = state.slab_wait
    assert wait is not None
    state.slab_wait = None
    adv = _adv(state, wait["seat"])
    space, number = wait["space"], e["number"]
    state.slabs[space] = number
    if number in state.hidden["traps"].values():
        # CHAC-LAVA-1: a trap number: the slab falls with the adventurer.
        state.fallen.add(space)
        state.say(f"Slab {space} shows {number}: a trap! It collapses into the lava.")
        _eliminate(state, adv, "lava", "falls into the lava")
    else:
        state.say(f"Slab {space} shows {number}: solid.")
        _arrive(state, adv, space, "steps")
    _after_action(state)


# -- searching and treasures -------------------------------------------------------------------


def _draw(state: ChacState, adv: Adventurer, deck: str) -> None:
    card = state.decks[deck].pop()
    adv.cards.append(card)


def _search(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    deck = e["deck"]
    _draw(state, adv, deck)
    if deck == "R":
        adv.lying = True  # CHAC-RIVER-1
        state.say(f"{adv.first_name} searches the riverbed and draws a river card.")
    else:
        state.say(f"{adv.first_name} searches zone {deck[1:]} and draws a card.")
    _after_action(state)


def _decipher(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    state.decipher_count += 1
    zone = e["zone"]
    state.seats[adv.seat].decipher = {
        "id": state.decipher_count,
        "zone": zone,
        "number": state.hidden["traps"][str(zone)],
    }
    state.say(f"{adv.first_name} deciphers the glyph of zone {zone}.")
    _after_action(state)


def _take(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    _draw(state, adv, "L")
    state.emptied.add(e["space"])  # CHAC-LAVA-2
    state.say(f"{adv.first_name} takes the treasure of slab {e['space']}.")
    _after_action(state)


def _linguistics(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.ability_used = True
    state.seats[adv.seat].peek = {
        "space": e["space"],
        "traps": sorted(state.hidden["traps"].values()),
    }
    state.say(f"{adv.first_name} uses Linguistics to peek under slab {e['space']}.")
    _after_action(state)


# -- alcoves -----------------------------------------------------------------------------------


def _alcove_start(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    space = adv.space
    assert space is not None
    state.alcove = {"seat": adv.seat, "space": space, "dice": [], "missing": 0}
    state.roll = {"purpose": "alcove", "dice": 5, "seat": adv.seat}
    state.say(f"{adv.first_name} tries the alcove beside {space}.")


def _alcove_reroll(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    state.roll = {
        "purpose": "alcove_reroll",
        "dice": len(e["dice"]),
        "seat": adv.seat,
        "which": list(e["dice"]),
    }


def missing_faces(state: ChacState, space: str, dice: list[int]) -> list[int]:
    kind = state.board.alcoves[space].kind
    return [f for f in state.options["alcove_faces"][kind] if f not in dice]


def _alcove_dice(state: ChacState, roll: dict[str, Any], values: list[int], shown: str) -> None:
    attempt = state.alcove
    assert attempt is not None
    if roll["purpose"] == "alcove":
        attempt["dice"] = list(values)
    else:
        for i, v in zip(roll["which"], values, strict=True):
            attempt["dice"][i] = v
    adv = _adv(state, attempt["seat"])
    missing = missing_faces(state, attempt["space"], attempt["dice"])
    attempt["missing"] = len(missing)
    state.say(f"{adv.first_name}'s alcove dice: {' '.join(map(str, attempt['dice']))}.")
    if not missing:
        _alcove_success(state, adv)
    _after_action(state)


def _alcove_success(state: ChacState, adv: Adventurer) -> None:
    attempt = state.alcove
    assert attempt is not None
    card = state.alcoves[attempt["space"]]
    assert card is not None
    state.alcoves[attempt["space"]] = None
    adv.cards.append(card)
    state.alcove = None
    state.say(f"{adv.first_name} opens the alcove and takes its treasure ({state.values[card]})!")


def _lock_pick(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.ability_used = True
    state.say(f"{adv.first_name} picks the lock (Lock Picking).")
    _alcove_success(state, adv)
    _after_action(state)


# -- the river ---------------------------------------------------------------------------------


def _river_exit(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    level = max(1, state.load_level(adv))
    state.roll = {"purpose": "river", "dice": level, "seat": adv.seat}
    state.say(f"{adv.first_name} tries to leave the river: {level} dice.")


def _river_dice(state: ChacState, roll: dict[str, Any], values: list[int], shown: str) -> None:
    adv = _adv(state, roll["seat"])
    state.say(f"{adv.first_name}'s river dice: {shown}.")
    state.river = {"seat": adv.seat, "rerollable": values.count(1), "final": 0}
    _river_settle(state, adv)


def _river_reroll_dice(
    state: ChacState, roll: dict[str, Any], values: list[int], shown: str
) -> None:
    adv = _adv(state, roll["seat"])
    river = state.river
    assert river is not None
    state.say(f"{adv.first_name} rerolls: {shown}.")
    river["rerollable"] = 0
    river["final"] += values.count(1)
    _river_settle(state, adv)


def river_options(state: ChacState, adv: Adventurer) -> tuple[bool, bool]:
    """(may swim, may reroll) for the river exit awaiting a decision."""
    river = state.river
    assert river is not None
    swim = bool(swimmers(state))
    reroll = river["rerollable"] > 0 and len(adv.cards) >= 3 * river["rerollable"]
    return swim, reroll


def _river_settle(state: ChacState, adv: Adventurer) -> None:
    river = state.river
    assert river is not None
    # CHAC-RIVER-2: with no 1 left the adventurer is out; with 1s nobody can save, eliminated.
    if river["rerollable"] + river["final"] == 0:
        state.river = None
        _arrive(state, adv, state.board.river_exit, "climbs out of the river")
    else:
        swim, reroll = river_options(state, adv)
        if not swim and not reroll:
            state.river = None
            _eliminate(state, adv, "river", "is dragged into the waterfall")
    _after_action(state)


def swimmers(state: ChacState) -> list[int]:
    """Seats whose Swimming may ignore a 1 of the river exit awaiting a decision: the exiting
    adventurer's own, and with `swimming_helps_adjacent` one on the same or a neighbouring
    river space (CHAC-ABIL-SWIM, CHAC-COOP-5)."""
    river = state.river
    if river is None or river["rerollable"] + river["final"] == 0:
        return []
    exiting = _adv(state, river["seat"])
    board = state.board
    around = {exiting.space, *board.moves.get(exiting.space or "", ())}
    around |= {s for s in board.river if exiting.space in board.moves[s]}
    out = []
    for i, seat in enumerate(state.seats):
        a = seat.adv
        if a is None or a.status != "alive" or a.ability != "swimming" or a.ability_used:
            continue
        helper = a is not exiting
        if not helper or (
            state.options["swimming_helps_adjacent"]
            and a.space in around
            and board.kind.get(a.space or "") == "river"
        ):
            out.append(i)
    return out


def _swim(state: ChacState, e: Event) -> None:
    swimmer = _adv(state, e["seat"])
    swimmer.ability_used = True
    river = state.river
    assert river is not None
    adv = _adv(state, river["seat"])
    # CHAC-ABIL-SWIM: ignore one 1, a final one first (it cannot be rerolled).
    if river["final"]:
        river["final"] -= 1
    else:
        river["rerollable"] -= 1
    if swimmer is adv:
        state.say(f"{adv.first_name} swims: one 1 is ignored.")
    else:
        state.say(f"{swimmer.first_name} swims to help {adv.first_name}: one 1 is ignored.")
    _river_settle(state, adv)


def _river_reroll(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    river = state.river
    assert river is not None
    _discard(state, {"seat": adv.seat, "cards": e["cards"], "why": "river"})
    n = river["rerollable"]
    state.say(f"{adv.first_name} lets go of {len(e['cards'])} cards to reroll {n} dice.")
    state.roll = {"purpose": "river_reroll", "dice": n, "seat": adv.seat}


def _give_up(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    state.river = None
    _eliminate(state, adv, "river", "is dragged into the waterfall")
    _after_action(state)


# -- exchanging treasures (CHAC-COOP-4) ----------------------------------------------------


def _offer(state: ChacState, e: Event) -> None:
    state.offer = {k: e[k] for k in ("seat", "with", "cards", "ask")}
    adv, other = _adv(state, e["seat"]), _adv(state, e["with"])
    n, ask = len(e["cards"]), e["ask"]
    state.say(
        f"{adv.first_name} offers {other.first_name} an exchange: {n} card{'s' if n != 1 else ''} "
        f"for {ask}."
    )


def _exchanged(state: ChacState, e: Event) -> None:
    offer = state.offer
    assert offer is not None
    state.offer = None
    adv, other = _adv(state, offer["seat"]), _adv(state, offer["with"])
    adv.actions -= 1
    for card in offer["cards"]:
        adv.cards.remove(card)
        other.cards.append(card)
    for card in e["cards"]:
        other.cards.remove(card)
        adv.cards.append(card)
    state.say(f"{adv.first_name} and {other.first_name} exchange treasures.")
    _after_action(state)


def _exchange_declined(state: ChacState, e: Event) -> None:
    offer = state.offer
    assert offer is not None
    state.offer = None
    state.say(f"{_adv(state, offer['with']).first_name} declines the exchange.")
    _after_action(state)


# -- the bridge --------------------------------------------------------------------------------


def bridge_load(state: ChacState) -> int:
    return sum(state.load_level(a) for a in state.alive() if a.space == state.board.bridge)


def _start_bridge_test(state: ChacState, adv: Adventurer) -> None:
    state.roll = {"purpose": "bridge", "dice": state.planks, "seat": adv.seat}


def _sabotage(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["seat"])
    adv.actions -= 1
    state.say(f"{adv.first_name} hops up and down on the bridge!")
    _start_bridge_test(state, adv)


def _bridge_dice(state: ChacState, roll: dict[str, Any], values: list[int], shown: str) -> None:
    # CHAC-BRIDGE-1: each die below the total load level on the bridge breaks a plank.
    load = bridge_load(state)
    broken = min(state.planks, sum(1 for v in values if v < load))
    state.planks -= broken
    state.say(f"Bridge dice {shown} against load {load}: {broken} plank(s) break.")
    if state.planks == 0:
        _collapse_bridge(state)
    _after_action(state)


def _collapse_bridge(state: ChacState) -> None:
    state.say("The bridge collapses!")
    for adv in state.alive():
        if adv.space == state.board.bridge:
            _eliminate(state, adv, "bridge", "falls into the abyss")


# -- elimination -------------------------------------------------------------------------------


def _eliminate(state: ChacState, adv: Adventurer, fate: str, how: str) -> None:
    """Takes `adv` out of play; `fate` is one of state.FATES, `how` the log's words for it."""
    adv.status = "eliminated"
    adv.fate = fate
    adv.space = None
    adv.actions = 0
    adv.lying = False
    state.discard.extend(adv.cards)  # CHAC-REPL-1: the cards go with them
    adv.cards.clear()
    if state.alcove and state.alcove["seat"] == adv.seat:
        state.alcove = None
    if state.river and state.river["seat"] == adv.seat:
        state.river = None
    if state.offer and adv.seat in (state.offer["seat"], state.offer["with"]):
        state.offer = None
    state.say(f"{adv.name} {how} and is eliminated.")


# -- walls, boulder, replacements, pass --------------------------------------------------------


def _walls(state: ChacState, e: Event) -> None:
    cards = state.hidden["walls"][state.wall_pos : state.wall_pos + 3]
    state.wall_pos += len(cards)
    state.wall_shown = list(cards)
    # CHAC-WALL-2: one step per arrow; a wall stops at its final position.
    for card in cards:
        if card in ("left", "both"):
            state.walls[0] = min(3, state.walls[0] + 1)
        if card in ("right", "both"):
            state.walls[1] = min(3, state.walls[1] + 1)
    state.say(
        f"Wall cards: {', '.join(cards)}. Left wall at {state.walls[0]}/3, "
        f"right wall at {state.walls[1]}/3."
    )
    if state.walls_closed():
        # CHAC-WALL-3
        state.say("The walls meet!")
        for adv in state.alive():
            if state.in_walls_room(adv):
                _eliminate(state, adv, "walls", "is crushed between the walls")
    _to_boulder(state)


def _to_boulder(state: ChacState) -> None:
    state.phase = "boulder"
    state.roll = {"purpose": "boulder", "dice": min(state.round, 5)}  # CHAC-BOUL-1


def _boulder_dice(state: ChacState, values: list[int], shown: str) -> None:
    steps = sum(1 for v in values if v >= state.options["boulder_min_face"])
    state.say(f"Boulder dice {shown}: it rolls {steps} space{'s' if steps != 1 else ''}.")
    move_boulder(state, state.boulder + steps)
    if state.phase != "over":
        _to_replace(state)


def move_boulder(state: ChacState, target: int) -> None:
    board = state.board
    last = len(board.corridor) - 1
    target = min(target, last)
    passed = set(board.corridor[state.boulder + 1 : target + 1])
    state.boulder = target
    for adv in state.alive():
        if adv.space in passed:
            _eliminate(state, adv, "boulder", "is crushed by the boulder")  # CHAC-BOUL-2
    for letter in ("A", "B"):
        if not state.sun_open[letter] and target >= board.corridor_index[board.corners[letter]]:
            state.sun_open[letter] = True  # CHAC-BOUL-3
            state.say(f"Sun space {letter} opens: remove its sun tile.")
    if target == last:
        state.sealed = True  # CHAC-BOUL-4
        state.say("The boulder seals the exit!")
        for adv in state.alive():
            _eliminate(state, adv, "sealed", "is trapped inside forever")
        _end_game(state)


def replacement_seats(state: ChacState) -> list[int]:
    if not state.sun_open["A"]:
        return []
    return [
        i
        for i, s in enumerate(state.seats)
        if state.waiting_replacement(s) and s.declined_round != state.round
    ]


def _to_replace(state: ChacState) -> None:
    state.phase = "replace"
    if not replacement_seats(state):
        _finish_round(state)


def _replace(state: ChacState, e: Event) -> None:
    seat = state.seats[e["seat"]]
    seat.current = 1
    adv = seat.advs[1]
    adv.status = "alive"
    adv.space = state.board.sun[e["sun"]]
    state.say(f"{seat.name} brings in {adv.name} on sun space {e['sun']}.")
    _reveal_lava(state)
    if not replacement_seats(state):
        _finish_round(state)


def _decline(state: ChacState, e: Event) -> None:
    seat = state.seats[e["seat"]]
    seat.declined_round = state.round
    state.say(f"{seat.name} keeps the replacement out this round.")
    if not replacement_seats(state):
        _finish_round(state)


def _finish_round(state: ChacState) -> None:
    if not state.alive():
        _end_game(state)  # CHAC-END-1
        return
    if state.options["pass_dice"] == "closest_to_exit":
        nearest = nearest_to_exit(state)
        if len(nearest) > 1:
            state.phase = "pass"  # CHAC-COOP-2: on a tie the table chooses
            state.order = nearest
            return
        state.dicekeeper = nearest[0]
    else:
        state.dicekeeper = ((state.dicekeeper or 0) + 1) % len(state.seats)  # CHAC-PASS-1
    _start_round(state, state.round + 1)


def nearest_to_exit(state: ChacState) -> list[int]:
    """CHAC-COOP-2: the seats whose adventurer needs the fewest moves to leave, clockwise."""
    dist = state.board.exit_distance
    far = len(dist) + 1
    steps = {
        i: dist.get(a.space or "", far)
        for i in state.clockwise()
        if (a := state.seats[i].adv) and a.status == "alive"
    }
    best = min(steps.values())
    return [i for i, d in steps.items() if d == best]


def _pass_dice(state: ChacState, e: Event) -> None:
    state.order = []
    state.dicekeeper = e["keeper"]
    state.say(f"The table gives the dice to {state.seats[e['keeper']].name}.")
    _start_round(state, state.round + 1)


# -- the end -----------------------------------------------------------------------------------


def _end_game(state: ChacState) -> None:
    state.roll = None
    state.offer = None
    state.slab_wait = None
    state.river = None
    state.alcove = None
    state.order = []
    escaped = [i for i, s in enumerate(state.seats) if (a := s.adv) and a.status == "escaped"]
    if state.options["treasure_mode"] == "physical" and escaped:
        state.phase = "score"
        state.say("The game is over. Players who escaped: enter your treasure values.")
        return
    _score(state)


def _game_ended(state: ChacState, e: Event) -> None:
    # Ended early by the host: those still inside do not escape (CHAC-END-2).
    state.say("The host ends the game.")
    for adv in state.alive():
        _eliminate(state, adv, "ended", "is still inside as the game ends")
    _end_game(state)


def card_value(state: ChacState, card: str) -> int:
    value = state.values[card]
    if value == "casket":
        return state.hidden["caskets"][card.split("-")[0]]  # CHAC-TREAS-2
    return int(value)


def _score(state: ChacState) -> None:
    # CHAC-END-2: only escaped adventurers score; ties share the win; nobody may win.
    scores: dict[int, int] = {}
    for i, seat in enumerate(state.seats):
        adv = seat.adv
        if adv is None or adv.status != "escaped":
            continue
        if state.options["treasure_mode"] == "physical":
            values, caskets = seat.scored or ([], [])
            scores[i] = sum(values) + sum(state.hidden["caskets"][d] for d in caskets)
        else:
            scores[i] = sum(card_value(state, c) for c in adv.cards)
    state.phase = "over"
    if state.coop:
        _score_team(state, scores)
        return
    best = max(scores.values(), default=None)
    winners = [i for i, v in scores.items() if v == best]
    state.result = {
        "scores": {str(i): v for i, v in scores.items()},
        "winners": winners,
        "caskets": dict(state.hidden["caskets"]),
    }
    if winners:
        names = " and ".join(state.seats[i].name for i in winners)
        state.say(f"The game is over: {names} win{'s' if len(winners) == 1 else ''} with {best}.")
    else:
        state.say("The game is over: nobody escaped, nobody wins.")


def _score_team(state: ChacState, scores: dict[int, int]) -> None:
    """CHAC-COOP-1: everyone wins when someone escaped and the escaped treasure reaches the
    target for the number of players and the level; otherwise everyone loses."""
    total, target = sum(scores.values()), state.target()
    won = bool(scores) and total >= target
    state.result = {
        "scores": {str(i): v for i, v in scores.items()},
        "winners": list(range(len(state.seats))) if won else [],
        "caskets": dict(state.hidden["caskets"]),
        "coop": {"level": state.options["level"], "target": target, "total": total, "won": won},
    }
    if won:
        state.say(f"The game is over: the team wins, {total} treasure out of {target} needed.")
    elif scores:
        state.say(f"The game is over: the team loses, {total} treasure out of {target} needed.")
    else:
        state.say("The game is over: nobody escaped, the team loses.")


def _scored(state: ChacState, e: Event) -> None:
    seat = state.seats[e["seat"]]
    seat.scored = [list(e["values"]), list(e["caskets"])]
    state.say(f"{seat.name} enters their treasure values.")
    if all(s.scored is not None for s in state.seats if (a := s.adv) and a.status == "escaped"):
        _score(state)


# -- host corrections --------------------------------------------------------------------------


def _set_space(state: ChacState, e: Event) -> None:
    adv = _adv(state, e["player"])
    adv.space = e["to"]
    adv.lying = False
    state.say(f"Correction: {adv.first_name} stands on {e['to']}.")
    if e["to"] in state.board.near_lava or e["to"] in state.board.cells:
        _reveal_lava(state)
    _after_correction(state)


def _set_boulder(state: ChacState, e: Event) -> None:
    state.say(f"Correction: the boulder is on {e['to']}.")
    move_boulder(state, state.board.corridor_index[e["to"]])
    if state.phase not in ("over", "score"):
        _after_correction(state)


def _after_correction(state: ChacState) -> None:
    """Carry the round on past anyone a correction put out of play (or out of actions)."""
    if state.phase == "load":
        _settle_load(state)
    elif state.phase == "actions":
        _settle_turn(state)
    elif state.phase == "replace" and not replacement_seats(state):
        _finish_round(state)


def _set_planks(state: ChacState, e: Event) -> None:
    state.planks = e["planks"]
    state.say(f"Correction: {e['planks']} plank(s) left on the bridge.")
    if state.planks == 0:
        _collapse_bridge(state)
        _after_correction(state)


FOLDERS: dict[str, Callable[[ChacState, Event], None]] = {
    "chose_adventurer": _choose,
    "first_dicekeeper": _keeper,
    "discarded": _discard,
    "ready": _ready,
    "stamina": _stamina,
    "dice": _dice,
    "moved": _move,
    "slab": _slab,
    "searched": _search,
    "deciphered": _decipher,
    "took_treasure": _take,
    "linguistics": _linguistics,
    "alcove": _alcove_start,
    "reroll": _alcove_reroll,
    "lock_pick": _lock_pick,
    "river_exit": _river_exit,
    "swim": _swim,
    "river_reroll": _river_reroll,
    "river_give_up": _give_up,
    "sabotage": _sabotage,
    "passed": _pass,
    "walls": _walls,
    "replaced": _replace,
    "declined_replacement": _decline,
    "scored": _scored,
    "game_ended": _game_ended,
    "set_space": _set_space,
    "set_boulder": _set_boulder,
    "set_planks": _set_planks,
    "pass_dice": _pass_dice,
    "exchange_offered": _offer,
    "exchanged": _exchanged,
    "exchange_declined": _exchange_declined,
}
