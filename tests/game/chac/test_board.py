"""The board as data: the default board keeps the relations the rules name; bad files are
rejected with a message naming the fault."""

from __future__ import annotations

import pytest

from companion.game.chac import ChacGame
from companion.game.chac.board import DEFAULT_BOARD, BoardError, load_board
from companion.game.protocol import RuleError

from .helpers import Play

DEFAULT = DEFAULT_BOARD.read_text(encoding="utf-8")


def test_default_board_relations():
    b = load_board()
    assert b.moves["E"] == ("Z1",)
    assert "Z2" in b.moves["Z1"] and "Z3" in b.moves["Z2"] and "Z4" in b.moves["Z3"]
    assert "C4" in b.moves["Z4"]
    assert b.corridor[0] == "C0" and b.corridor[-1] == "C29" == b.exit_from
    assert len(b.cells) == 16 and len(b.slabs) == 14
    assert b.sun == {"A": "L(3,0)", "B": "L(0,0)"}
    assert b.corners == {"A": "C9", "B": "C14"}
    for c, col in zip(("C5", "C6", "C7", "C8"), (3, 2, 1, 0), strict=True):
        assert f"L(3,{col})" in b.moves[c]
    for c, row in zip(("C10", "C11", "C12", "C13"), (3, 2, 1, 0), strict=True):
        assert f"L({row},0)" in b.moves[c]
    assert {s: a.value for s, a in b.alcoves.items()} == {
        "C10": 4,
        "C11": 4,
        "C12": 4,
        "C13": 4,
        "C28": 6,
    }
    assert "R0" in b.moves["C15"] and "R1" in b.moves["C16"] and "R4" in b.moves["C26"]
    assert b.moves["R5"] == () and b.river_exit == "C27"
    assert set(b.moves["B"]) == {"C17", "C24"}


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('["Z4", "C4"]', '["Z4", "C44"]', "edge Z4-C44 names unknown space 'C44'"),
        ('"R0", "R1"', '"R0", "C3"', "duplicate space 'C3'"),
        ('bridge = "B"\n', "", "missing required key 'bridge'"),
        ('sun = { A = "L(3,0)", B = "L(0,0)" }', 'sun = { A = "L(3,0)" }', "sun space B"),
        ('["C17", "B"], ["B", "C24"],', '["C17", "B"],', "bridge 'B' must join exactly two"),
        ('["Z3", "Z4"], ', "", "zones 'Z3' and 'Z4' are not joined"),
        ('["C15", "R0"]', '["R0", "C15"]', "river entry R0-C15 must go from corridor to river"),
        ('space = "C28"', 'space = "R3"', "alcove beside 'R3'"),
        ('exit_from = "C29"', 'exit_from = "C20"', "exit_from 'C20' must be the last"),
        ('corners = { A = "C9", B = "C14" }', 'corners = { A = "C9", B = "X" }', "corner for sun"),
        ("[board]", "[board", "not valid TOML"),
    ],
)
def test_a_bad_board_file_is_rejected_naming_the_fault(tmp_path, old, new, words):
    assert old in DEFAULT
    path = tmp_path / "board.toml"
    path.write_text(DEFAULT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert words in str(info.value)
    with pytest.raises(RuleError, match="Board"):
        ChacGame().setup({"board": str(path)}, ["a", "b"], 1)


def test_the_board_option_plays_on_another_board_chac_boul_3(tmp_path):
    """An owner's corrected board: here sun space A opens at C7 (CHAC-BOUL-3)."""
    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT.replace('A = "C9"', 'A = "C7"'), encoding="utf-8")
    p = Play(options={"board": str(path)})
    assert p.view()["board"] == {"name": load_board().name, "file": str(path)}
    p.to_actions()
    p.do("set_boulder", None, to="C7")
    assert p.view()["sun_open"]["A"]
    assert Play().view()["board"]["file"] is None, "the default board"
