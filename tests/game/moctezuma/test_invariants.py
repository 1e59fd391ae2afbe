"""The invariants `companion simulate` checks after every command catch a broken state, also
when they are handed the previous state's snapshot and count only what changed."""

from __future__ import annotations

import random
import re

import pytest

from companion.game.moctezuma.invariants import Watcher, check
from companion.game.random_play import play_random_game, random_command

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


def _watched_until_caught(corrupt, seed: int = 4):
    """A random game checked as `companion simulate` checks it (`Watcher.after`, told each
    command's events); `corrupt(state, events)` breaks the state right after a command, as a
    faulty engine would, when it returns True. Gives the AssertionError, and (commands played,
    chits turned) when the state was broken and when the break was caught."""
    watcher, broken, now = Watcher(), [], []

    def watch(state, events):
        now[:] = [len(now) and now[0] + 1, state.turned]
        if not broken and corrupt(state, events):
            broken.extend(now)
        watcher.after(state, events)

    with pytest.raises(AssertionError) as caught:
        play_random_game(GAME, NAMES[:3], seed, watch=watch)
    assert broken, "the state was never broken"
    return caught.value, tuple(broken), tuple(now)


def _lose_a_drawn_card(state, events):
    if events[0]["type"] == "explored" and state.explore is not None:
        state.explore["cards"].pop()
        return True
    return False


def _keep_a_name_card(state, events):
    if events[0]["type"] == "kept":
        hand = state.seats[events[0]["seat"]].kept
        hand[-1] = (hand[-1][0], "Clue")
        return True
    return False


def _lose_a_returned_card(state, events):
    if events[0]["type"] == "kept" and len(events[1]["cards"]) > 0:
        state.decks[events[1]["temple"]].pop(0)
        return True
    return False


def _move_off_the_board(state, events):
    if events[0]["type"] == "moved":
        state.seats[events[0]["seat"]].at = 11
        return True
    return False


def _record_a_wrong_face(state, events):
    if events[0]["type"] == "researched":
        space, face = events[0]["seen"][0]
        state.seats[events[0]["seat"]].record.chits[space] = (
            "Safe" if face == "Cursed" else "Cursed"
        )
        return True
    return False


def _too_many_points(state, events):
    if events[0]["type"] == "moved":
        state.points = 6
        return True
    return False


def _a_round_skipped(state, events):
    if events[0]["type"] == "moved":
        state.round += 1
        return True
    return False


@pytest.mark.parametrize(
    ("corrupt", "broken"),
    [
        (_lose_a_drawn_card, "temple"),
        (_keep_a_name_card, "name card"),
        (_lose_a_returned_card, "temple cards"),
        (_move_off_the_board, "on the board"),
        (_record_a_wrong_face, "record sheets"),
        (_too_many_points, "action points"),
        (_a_round_skipped, "one chit turned a round"),
    ],
)
def test_what_a_command_broke_is_caught_at_that_command(corrupt, broken):
    """MOCT-SET-2, MOCT-EXPL-1, MOCT-EXPL-2, MOCT-MOVE-1, MOCT-REC-1, MOCT-TURN-1,
    MOCT-ROUND-1: the check `companion simulate` runs, told a command's events, catches a
    break in what the command moved (cards drawn, kept or put back, a position, a record
    sheet) and in the points and the round, right after that command."""
    error, broke, caught = _watched_until_caught(corrupt)
    assert broken in str(error)
    assert caught == broke


def _change_a_treasure_elsewhere(state, events):
    """A treasure's points changed in a temple the acting player is not at."""
    here = state.seats[state.turn].at
    deck = next(
        (d for t, d in state.decks.items() if t != here and 1 in d and state.turned >= 2), None
    )
    if deck is None or events[0]["type"] != "moved":
        return False
    deck[deck.index(1)] = 5
    return True


def _record_elsewhere(state, events):
    """A wrong face on the record sheet of a player who is not acting."""
    if state.turned < 2 or events[0]["type"] != "moved":
        return False
    _corrupt_a_record(state)
    return True


def _position_elsewhere(state, events):
    """A researcher who is not acting put off the board."""
    if state.turned < 2 or events[0]["type"] != "moved":
        return False
    _corrupt_a_position(state)
    return True


@pytest.mark.parametrize(
    "corrupt", [_change_a_treasure_elsewhere, _record_elsewhere, _position_elsewhere]
)
def test_what_no_command_touched_is_caught_within_the_round_moct_set_2(corrupt):
    """MOCT-SET-2, MOCT-REC-1, MOCT-MOVE-1: a break in a part of the state the command did
    not touch (another temple's deck, another player's sheet or position) is caught when the
    round ends, before the next chit is turned."""
    error, broke, caught = _watched_until_caught(corrupt)
    assert re.search(r"treasure cards|record sheets|on the board", str(error))
    assert caught[1] <= broke[1] + 1
