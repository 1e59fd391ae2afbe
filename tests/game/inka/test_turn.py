"""A turn: its four phases, the three action points spent by kind, the blocking counter
(INKA-TURN-1, INKA-TILE-1, INKA-MOVE-1, INKA-STAT-1, INKA-SPEC-1, INKA-SPEC-2)."""

from __future__ import annotations

from .helpers import GAME, Play


def test_inka_turn_1_three_points_shared_between_tiles_and_the_counter():
    p = Play()
    assert p.prompt_texts() == ["Ana: 3 points left (move stepping tiles)"]
    view = p.view()
    assert (view["turn"], view["phase"], view["points"]) == (0, 2, 3)
    p.do("move_tile", 0)
    p.do("snake", 0)
    assert p.prompt_texts() == ["Ana: 1 point left (move the playing counter)"]
    p.do("secret_passage", 0)
    assert p.view()["points"] == 0
    assert p.view()["spent"] == {"tile": 1, "snake": 1, "statue": 0, "passage": 1, "diamond": 0}
    error = p.refuse("diamond", 0, "INKA-TURN-1")
    assert str(error) == "Ana has 0 points left (3 of 3 spent this turn); this needs 1 point."
    p.refuse("move_tile", 0, "INKA-TURN-1")
    p.do("end_turn", 0)
    view = p.view()
    assert (view["turn"], view["turn_number"], view["points"], view["phase"]) == (1, 2, 3, 2)
    assert view["spent"]["tile"] == 0


def test_inka_turn_1_only_the_player_in_turn_acts():
    p = Play()
    error = p.refuse("move_tile", 1, "INKA-TURN-1")
    assert str(error) == "It is Ana's turn, not Ben's."
    assert GAME.legal(p.state, 1) == [] and GAME.legal(p.state, None) == []
    p.do("move_tile", None)  # the host speaks for the player in turn
    assert p.view()["points"] == 2


def test_inka_turn_1_unused_points_are_lost():
    p = Play()
    p.do("move_tile", 0)
    p.do("end_turn", 0)
    assert "Ana ends the turn (2 points unused, lost)." in p.view()["log"]
    p.do("end_turn", 1)
    p.do("end_turn", 2)
    assert p.view()["turn"] == 0 and p.view()["points"] == 3


def test_inka_turn_1_tiles_move_before_the_counter():
    """Phase 2 before phase 3: once the counter has moved, tiles no longer do (an option
    lifts this)."""
    p = Play()
    p.do("snake", 0)
    assert p.view()["phase"] == 3
    assert "move_tile" not in p.legal_types(0)
    p.refuse("move_tile", 0, "INKA-TURN-1")
    free = Play(options={"strict_phases": False})
    free.do("snake", 0)
    assert "move_tile" in free.legal_types(0)
    free.do("move_tile", 0)
    assert free.view()["phase"] == 2 and free.view()["points"] == 1


def test_inka_turn_1_blocking_counter_placed_then_lifted_at_the_next_turn():
    p = Play(seats=2)
    p.do("move_tile", 0)
    p.do("place_blocker", 0, on="tile")
    view = p.view()
    assert view["seats"][0]["blocker"] == "tile" and view["phase"] == 4 and view["points"] == 0
    assert "Ana puts the blocking counter on a stepping tile; 2 points unused." in view["log"]
    assert p.prompt_texts() == ["Ana: end your turn"]
    assert p.legal_types(0) == ["end_turn"]
    p.refuse("snake", 0, "INKA-TURN-1")  # the points are over once the counter is down
    assert str(p.refuse("place_blocker", 0, "INKA-TURN-1", on="space")) == (
        "Ana's blocking counter is already on the board."
    )
    p.do("end_turn", 0)
    p.do("end_turn", 1)
    # Ana's next turn opens with phase 1: nothing else until the counter is lifted.
    assert p.view()["phase"] == 1
    assert p.prompt_texts() == ["Ana: lift your blocking counter off the board"]
    assert p.legal_types(0) == ["lift_blocker"]
    p.refuse("move_tile", 0, "INKA-TURN-1")
    p.refuse("end_turn", 0, "INKA-TURN-1")
    p.do("lift_blocker", 0)
    view = p.view()
    assert view["seats"][0]["blocker"] == "off" and view["phase"] == 2 and view["points"] == 3
    p.refuse("lift_blocker", 0, "INKA-TURN-1")


def test_inka_turn_1_no_blocking_counter_on_a_target_tile():
    p = Play()
    error = p.refuse("place_blocker", 0, "INKA-TURN-1", on="target")
    assert str(error) == "A blocking counter may not go on a target tile."
    p.do("place_blocker", 0, on="space")
    assert p.seat(0)["blocker"] == "space"


def test_inka_tile_1_each_tile_movement_costs_a_point_target_tiles_are_not_stepping_tiles():
    p = Play()
    for left in (2, 1, 0):
        p.do("move_tile", 0)
        assert p.view()["points"] == left
    assert p.view()["spent"]["tile"] == 3
    p.refuse("move_tile", 0, "INKA-TURN-1")
    q = Play()
    error = q.refuse("move_tile", 0, "INKA-TILE-1", tile="target")
    assert "only a diamond moves them" in str(error)


def test_inka_move_1_moving_is_free_each_snake_passed_costs_a_point():
    p = Play()
    p.do("snake", 0, count=2)
    assert p.view()["points"] == 1 and p.view()["spent"]["snake"] == 2
    assert "Ana passes 2 snakes: 1 point left." in p.view()["log"]
    error = p.refuse("snake", 0, "INKA-TURN-1", count=2)
    assert "this needs 2 points" in str(error)
    p.do("snake", 0)
    # No points left: the counter may still move where it passes no snake, and end the turn.
    assert p.legal_types(0) == ["place_blocker", "place_blocker", "end_turn"]


def test_inka_stat_1_own_colour_only_one_point_each_never_a_fourth():
    p = Play(seats=2)
    error = p.refuse("collect_statue", 0, "INKA-STAT-1", colour="yellow")
    assert str(error) == "Ana collects only red statues, not yellow ones."
    p.do("collect_statue", 0)
    assert p.seat(0)["statues"] == 1 and p.view()["points"] == 2
    assert "Ana collects a red statue (1 of 3): 2 points left." in p.view()["log"]
    p.do("collect_statue", 0, colour="red")
    p.do("collect_statue", 0)
    assert p.seat(0)["statues"] == 3
    p.do("end_turn", 0)
    p.do("end_turn", 1)
    assert "collect_statue" not in p.legal_types(0)
    error = p.refuse("collect_statue", 0, "INKA-STAT-1")
    assert str(error) == "Ana has all 3 red statues already; there is no fourth."


def test_inka_spec_1_a_secret_passage_costs_a_point():
    p = Play()
    p.do("secret_passage", 0)
    view = p.view()
    assert view["points"] == 2 and view["spent"]["passage"] == 1 and view["phase"] == 3
    assert "Ana takes a secret passage: 2 points left." in view["log"]


def test_inka_spec_2_a_diamond_moves_a_target_tile_for_a_point():
    p = Play()
    p.do("move_tile", 0)
    p.do("diamond", 0)
    view = p.view()
    assert view["points"] == 1 and view["spent"]["diamond"] == 1 and view["phase"] == 3
    assert "Ana moves a target tile from a diamond: 1 point left." in view["log"]


def test_legal_commands_are_accepted_and_labelled_in_player_words():
    """Every command `legal` offers is accepted, and `describe` labels it with its cost."""
    p = Play(start=False)
    labels = [GAME.describe(c) for c in GAME.legal(p.state, 0)]
    assert labels == ["Play red", "Play yellow", "Play green", "Play blue"]
    assert GAME.describe(GAME.legal(p.state, None)[1]) == "Seat 2 begins"
    p = Play()
    assert [GAME.describe(c) for c in GAME.legal(p.state, 0)] == [
        "Move a tile (1 pt)",
        "Pass a snake (1 pt)",
        "Red statue (1 pt)",
        "Passage (1 pt)",
        "Diamond (1 pt)",
        "Block a space",
        "Block a tile",
        "End turn",
    ]
    for command in GAME.legal(p.state, 0):
        assert GAME.apply(p.state, command)
