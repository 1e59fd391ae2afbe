"""OLED screens: what a person at the table can read on them, and how big the numbers are."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.game import load_game
from companion.game.chac import screens as chac
from companion.game.protocol import Command
from companion.screens import HEIGHT, HUGE, WIDTH, common

LEGIBLE_PX = 10  # a number that matters is at least this tall at arm's length


class Game:
    """A real Temple of Chac game driven through the engine, for real views."""

    def __init__(self, seats=("Ana", "Ben")):
        self.engine = load_game("chac")
        self.state = self.engine.setup({}, list(seats), 7)

    def do(self, command):
        for event in self.engine.apply(self.state, command):
            self.state = self.engine.fold(self.state, event)

    def start(self):
        for seat in range(len(self.state.seats)):
            self.do(self.engine.legal(self.state, seat)[0])
        self.do(Command("first_dicekeeper", None, {"keeper": 0}))
        return self

    @property
    def view(self):
        return self.engine.public_view(self.state)

    @property
    def prompts(self):
        return self.engine.prompts(self.state)


def inside(screen):
    for item in screen.texts:
        left, top, right, bottom = item.box
        assert left >= 0 and top >= 0 and right <= WIDTH + 1 and bottom <= HEIGHT + 1, item


def test_screens_are_128x64_one_bit():
    screen = common.notice("Hello", "world")
    assert screen.image.size == (128, 64) and screen.image.mode == "1"


def test_actions_screen_shows_round_phase_keeper_turn_and_actions_left():
    game = Game().start()
    game.do(Command("dice", None, {"values": [3, 5, 1, 6, 2]}))
    screen = chac.status(game.view, game.prompts)
    mover = game.view["seats"][0]["adventurer"]["first_name"]
    assert "Round 1 · Actions" in screen.text
    assert "Dice: Ana" in screen.text
    assert screen.find(mover) is not None
    # CHAC-ACT-1: load level 2 -> every die showing 2 or more is an action: 3, 5, 6, 2.
    assert screen.find("4", whole=True) is not None and "actions" in screen.text
    assert screen.ink_height("4", whole=True) >= LEGIBLE_PX
    assert screen.ink_height("Round 1") >= LEGIBLE_PX
    inside(screen)


def test_roll_screen_says_how_many_dice_and_for_what():
    game = Game().start()
    screen = chac.roll_wait(game.view, game.prompts[0])
    assert "Roll 5 dice" in screen.text and "for actions" in screen.text
    assert screen.ink_height("Roll 5 dice") >= LEGIBLE_PX


def test_dice_reading_shows_each_value_big_with_the_confirm_prompt():
    screen = common.dice_reading([3, 5, 1, 6, 2])
    digits = [t.text for t in screen.texts if t.text.isdigit()]
    assert digits == ["3", "5", "1", "6", "2"]
    for digit in "35162":
        assert screen.ink_height(digit, whole=True) >= 14
    assert "OK confirm" in screen.text and "5/5" in screen.text
    inside(screen)


def test_dice_correction_marks_the_die_being_changed():
    screen = common.dice_reading([3, 5, None, 6], cursor=2, expected=5)
    big = [t for t in screen.texts if t.size == HUGE]
    assert [t.text for t in big] == ["3", "5", "?", "6"]
    assert [t.inverted for t in big] == [False, False, True, False]
    assert "3/5" in screen.text
    assert screen.ink_height(big[2]) >= LEGIBLE_PX  # dark on a lit box


def test_walls_screen_shows_the_three_cards_and_both_walls():
    """CHAC-WALL-2: three cards revealed, one step per arrow; positions out of 3."""
    game = Game().start()
    game.do(Command("dice", None, {"values": [1, 1, 1, 1, 1]}))  # nobody can act
    game.do(Command("walls", None))
    view = game.view
    screen = chac.walls(view)
    cards = view["walls"]["last_revealed"]
    marks = [chac.WALL_CARD_MARKS[c] or "\u2013" for c in cards]
    shown = [t.text for t in screen.texts if t.text in ("\u2013", *chac.WALL_CARD_MARKS.values())]
    assert shown == marks
    left, right = view["walls"]["left"], view["walls"]["right"]
    assert f"{left}/3" in screen.text and f"{right}/3" in screen.text
    assert screen.ink_height(f"{right}/3") >= LEGIBLE_PX
    assert f"{view['walls']['cards_left']} left" in screen.text


def test_walls_meeting_is_announced():
    """CHAC-WALL-3: when both walls reach the end, the screen says so."""
    view = {"walls": {"left": 3, "right": 3, "closed": True, "cards_left": 3, "last_revealed": []}}
    assert "The walls meet!" in chac.walls(view).text


def test_boulder_screen_shows_the_move_and_where_it_is():
    """CHAC-BOUL-1/3/4: how far it rolled, its space, and the sun spaces it opened."""
    view = {
        "boulder": {"space": "C9", "index": 9, "last_index": 29, "sealed": False},
        "sun_open": {"A": True, "B": False},
    }
    screen = chac.boulder(view, 3, [5, 3, 1, 2])
    assert screen.find("+3") and screen.find("C9") and "5 3 1 2" in screen.text
    assert screen.ink_height("+3") >= LEGIBLE_PX and screen.ink_height("C9") >= LEGIBLE_PX
    assert "20 spaces to the exit" in screen.text and "Sun open: A" in screen.text
    sealed = {"boulder": {**view["boulder"], "index": 29, "sealed": True}, "sun_open": {}}
    assert "The exit is sealed!" in chac.boulder(sealed, 2).text


def test_eliminations_and_escapes_name_the_adventurers():
    screen = chac.fates(["Lea"], ["Bill"])
    assert screen.find("Lea") and "Bill escaped" in screen.text
    assert screen.ink_height("Lea") >= LEGIBLE_PX


def test_long_names_shrink_or_are_cut_but_stay_on_screen():
    screen = chac.fates(["Maximiliana-Theodora"], [])
    inside(screen)
    assert screen.find("Maximilian") is not None


@pytest.mark.parametrize(
    "url",
    ["http://192.168.1.23:8080/join", "http://10.0.0.5:8080/", "http://chac.local:8080/j/Xy7Kq2"],
)
def test_join_code_decodes_back_to_the_url_with_opencv(url):
    screen = common.join_code(url)
    pixels = np.array(screen.image.convert("L"))
    big = cv2.resize(pixels, (512, 256), interpolation=cv2.INTER_NEAREST)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(big)
    assert decoded == url
    assert url.split("//")[1].split(":")[0][:8] in screen.text  # the address to type by hand


def test_menu_keeps_the_selection_visible_and_lit():
    items = ["Move to Z1", "Move to C4", "Search", "Decipher", "Take treasure", "End turn"]
    screen = common.menu("Ana", items, 5, "2 left")
    chosen = screen.find("End turn")
    assert chosen is not None and chosen.inverted
    assert screen.find("Move to Z1") is None  # scrolled
    assert screen.ink_height("End turn") >= LEGIBLE_PX
    top = common.menu("Ana", items, 0)
    assert top.find("Move to Z1").inverted and not top.find("Move to C4").inverted


def test_peek_dithers_the_glyph_and_counts_down():
    grey = Image.new("L", (80, 80), 128)  # mid grey: dithering gives a mix of dots
    screen = common.peek(grey, 4.6, "Zone 2 glyph")
    area = np.array(screen.image.crop((30, 10, 70, 50)), dtype=bool)
    assert 0.3 < area.mean() < 0.7
    assert screen.ink_height("5", whole=True) >= LEGIBLE_PX


def test_peek_without_glyph_pictures_points_at_the_clue_tile():
    """CHAC-GLYPH-2: without pictures the peek is physical."""
    screen = common.peek(None, 3, "Turn tile 9")
    assert "Turn tile 9" in screen.text


def test_game_over_names_the_winner_and_score():
    view = {
        "seats": [{"name": "Ana"}, {"name": "Ben"}],
        "result": {"winners": [1], "scores": {"1": 17}},
    }
    screen = chac.game_over(view)
    assert screen.find("Ben") and screen.ink_height("17", whole=True) >= LEGIBLE_PX


def test_co_op_shows_the_team_haul_over_the_target_chac_coop_1():
    """CHAC-COOP-1: in co-op the status bar keeps the escaped treasure and the target in view;
    the end says whether the team won, with its total over the target."""
    engine = load_game("chac")
    state = engine.setup({"mode": "coop", "level": 2, "first_dicekeeper": "oldest"}, ["A"], 7)
    for event in engine.apply(state, engine.legal(state, 0)[0]):
        engine.fold(state, event)
    for event in engine.apply(state, Command("first_dicekeeper", None, {"keeper": 0})):
        engine.fold(state, event)
    view = engine.public_view(state)
    screen = chac.status(view, engine.prompts(state))
    assert screen.find("0/15") and screen.ink_height("0/15") >= LEGIBLE_PX - 2
    over = {
        "seats": [{"name": "A"}],
        "result": {
            "winners": [0],
            "scores": {"0": 17},
            "coop": {"total": 17, "target": 15, "won": True},
        },
    }
    screen = chac.game_over(over)
    assert screen.find("Team wins") and screen.ink_height("17/15", whole=True) >= LEGIBLE_PX
