"""The invariants `companion simulate` checks after every command catch a broken state, also
when they are handed the previous state's snapshot and count only what changed."""

from __future__ import annotations

import random

import pytest

from companion.game.moctezuma.invariants import check
from companion.game.random_play import random_command

from .helpers import GAME, NAMES


def _midgame(seed: int = 4):
    """A game some 40 commands in, and the snapshot `check` returned for it."""
    rng = random.Random(seed)
    state = GAME.setup({}, NAMES[:3], seed)
    last = check(state)
    for _ in range(40):
        for event in GAME.apply(state, random_command(GAME, state, rng)):
            GAME.fold(state, event)
        last = check(state, last)
    return state, last


def test_a_card_moved_to_another_temple_is_caught_moct_set_2():
    """MOCT-SET-2: each temple keeps its 11 treasure cards and its name card; a card slipped
    from one deck to another breaks the temples it left and joined."""
    state, last = _midgame()
    state.decks[5].append(state.decks[6].pop())
    with pytest.raises(AssertionError, match="temple"):
        check(state, last)


def test_a_kept_name_card_is_caught_moct_expl_2():
    """MOCT-EXPL-2: a name card in a hand breaks the invariants."""
    state, last = _midgame()
    temple = next(t for t, deck in state.decks.items() if isinstance(deck[-1], str))
    state.seats[0].kept.append((temple, state.decks[temple].pop()))
    with pytest.raises(AssertionError, match="name card"):
        check(state, last)


def test_a_lost_card_and_a_card_taken_back_from_a_hand_are_caught():
    """A card gone from the game breaks the count of 120; a kept card put back in its deck
    keeps the count but breaks "cards kept only grow"."""
    state, last = _midgame()
    state.decks[next(t for t, d in state.decks.items() if d)].pop()
    with pytest.raises(AssertionError, match="120 temple cards"):
        check(state, last)
    state, last = _midgame()
    seat = next(s for s in state.seats if s.kept)
    temple, points = seat.kept.pop()
    state.decks[temple].insert(0, points)
    with pytest.raises(AssertionError, match="only grow"):
        check(state, last)


def test_the_acting_researcher_off_the_board_is_caught_moct_move_1():
    """MOCT-MOVE-1: researchers stand on the Library or a temple."""
    state, last = _midgame()
    state.seats[state.turn].at = 11
    with pytest.raises(AssertionError, match="on the board"):
        check(state, last)


def test_a_hand_with_a_card_changed_is_caught():
    """A kept card stays as it was kept: a hand's card changed in place breaks "cards kept only
    grow" (the counts alone would not show it)."""
    state, last = _midgame()
    seat = next(s for s in state.seats if s.kept)
    temple, points = seat.kept[0]
    seat.kept[0] = (temple, points + 1)
    with pytest.raises(AssertionError, match="only grow"):
        check(state, last)


def test_action_points_and_the_clock_are_checked():
    """MOCT-TURN-1, MOCT-ROUND-1: points stay 0-5, one chit is turned a round and the round
    never goes back."""
    for corrupt, broken in [
        (lambda s: setattr(s, "points", 6), "action points"),
        (lambda s: setattr(s, "round", s.round + 1), "one chit turned a round"),
        (lambda s: setattr(s, "turned", s.turned - 1), "only growing"),
    ]:
        state, last = _midgame()
        corrupt(state)
        with pytest.raises(AssertionError, match=broken):
            check(state, last)


def test_a_record_sheet_showing_a_wrong_face_is_caught_moct_rec_1():
    """MOCT-REC-1: the record sheet of the acting player holds only what is really there."""
    state, last = _midgame()
    chits = state.hidden["chits"]
    record = state.seats[state.turn].record.chits
    record[14] = "Safe" if chits[14] == "Cursed" else "Cursed"
    with pytest.raises(AssertionError, match="record sheets"):
        check(state, last)


def _corrupt_a_treasure(state) -> None:
    """A treasure card's points changed where it lies, the deck's size kept."""
    deck = next(d for d in state.decks.values() if any(c == 1 for c in d))
    deck[deck.index(1)] = 5


def _corrupt_a_record(state) -> None:
    """A wrong face on the record sheet of a player who is not acting."""
    other = state.seats[(state.turn + 1) % len(state.seats)]
    other.record.chits[14] = "Safe" if state.hidden["chits"][14] == "Cursed" else "Cursed"


def _corrupt_a_position(state) -> None:
    """A researcher who is not acting put off the board."""
    state.seats[(state.turn + 1) % len(state.seats)].at = 11


@pytest.mark.parametrize("corrupt", [_corrupt_a_treasure, _corrupt_a_record, _corrupt_a_position])
def test_a_broken_state_is_caught_before_the_game_ends_moct_set_2(corrupt):
    """MOCT-SET-2, MOCT-REC-1, MOCT-MOVE-1: a corruption in a part no later command changes is
    still caught, at the latest when the finished game is checked whole."""
    state, last = _midgame()
    corrupt(state)
    rng = random.Random(9)
    with pytest.raises(AssertionError, match=r"treasure cards|record sheets|on the board"):
        while not GAME.is_over(state):
            for event in GAME.apply(state, random_command(GAME, state, rng)):
                GAME.fold(state, event)
            last = check(state, last)
