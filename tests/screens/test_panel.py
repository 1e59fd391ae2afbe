"""The panel's behaviour beyond one plain round: secrets, typed numbers, several prompts."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from companion.game.chac.board import DEFAULT_BOARD, load_board
from companion.game.protocol import Command
from companion.panel import NOTICE_S, Panel, pictures_in
from companion.rolls import RollWatcher, TrayState
from companion.table import Table
from hardware.buttons import ButtonEvent
from hardware.camera import Frame


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def table(tmp_path):
    table = Table.open(tmp_path / "companion.db")
    yield table
    table.close()


def press(panel, button, kind="press"):
    panel.handle(ButtonEvent(button, kind, 0.0))
    return panel.screen()


def started(table, keeper=0):
    table.new_game("chac", {}, ["Ana", "Ben"], seed=7)
    for seat in (0, 1):
        table.submit(table.legal(seat)[0])
    table.submit(Command("first_dicekeeper", None, {"keeper": keeper}))
    table.submit(Command("dice", None, {"values": [6, 6, 6, 6, 6]}))


def pick(panel, label):
    screen = press(panel, "MENU")
    for _ in range(15):
        if any(t.inverted and t.text == label for t in screen.texts):
            return press(panel, "OK")
        screen = press(panel, "DOWN")
    raise AssertionError(f"{label!r} not in the menu: {screen.text}")


def glyph(number):
    """A distinct picture per glyph number: `number` bars."""
    image = Image.new("L", (60, 60), 0)
    draw = ImageDraw.Draw(image)
    for i in range(number):
        draw.rectangle((2 + i * 4, 5, 3 + i * 4, 55), fill=255)
    return image


def test_the_peek_reads_the_pictures_of_the_game_on_the_table(table, tmp_path):
    """CHAC-GLYPH-2: the panel finds the glyph pictures through Chac's bundle (the catalog
    calibration writes); before a game, or for a game with no pictures, there are none."""
    stored = tmp_path / "glyphs" / "4.png"
    stored.parent.mkdir()
    glyph(4).save(stored)
    pictures = pictures_in(table, tmp_path)
    assert pictures(4) is None  # no game yet
    table.new_game("chac", {}, ["Ana", "Ben"], seed=7)
    assert pictures(4).tobytes() == glyph(4).tobytes() and pictures(5) is None
    table.new_game("inka", {}, ["Ana", "Ben"], seed=7)
    assert pictures(4) is None


def test_the_glyph_picture_shows_only_in_the_private_peek_of_the_seat_that_deciphered(table):
    """CHAC-WALLS-1, CHAC-GLYPH-2: the trap's glyph is shown to the decipherer alone, after a
    warning and only while MENU is held, for five seconds."""
    started(table)
    asked = []
    clock = Clock()
    panel = Panel(table, pictures=lambda n: asked.append(n) or glyph(n), clock=clock)
    pick(panel, "Move to Z1")
    screen = pick(panel, "Decipher")
    assert screen.name == "peek-warning" and asked == []  # nothing drawn before the hold
    screen = press(panel, "MENU", "long")
    secret = table.seat_view(0)["you"]["decipher"]["number"]
    assert screen.name == "peek" and asked == [secret]
    bars = np.array(screen.image.crop((0, 0, 100, 64)), dtype=bool).any(axis=0)
    runs = np.count_nonzero(bars[1:] & ~bars[:-1]) + int(bars[0])
    assert runs == secret  # the right picture, and only it
    screen = press(panel, "MENU", "release")  # letting go hides it at once
    assert screen.name != "peek"
    # The other seat's menu offers no peek, and holding MENU there shows nothing.
    press(panel, "MENU")
    screen = pick(panel, "End turn")
    screen = press(panel, "MENU")
    assert "Peek at glyph" not in screen.text
    assert press(panel, "MENU", "long").name == "menu"
    assert asked == [secret]
    # The decipherer can look again from the menu, but only on their own turn's menu.
    table.undo()  # back to Ana's turn
    press(panel, "BACK")
    screen = pick(panel, "Peek at glyph")
    assert screen.name == "peek-warning"
    clock.now = 10.0
    assert press(panel, "MENU", "long").name == "peek"
    clock.now = 15.1
    panel.tick()
    assert panel.screen().name != "peek"


def test_stepping_onto_a_trap_slab_is_typed_in_and_the_elimination_shown(table):
    """CHAC-LAVA-1/3: the number under a turned slab is typed on the panel; a trap number
    eliminates the adventurer, and the OLED says who."""
    started(table)
    table.submit(Command("set_space", None, {"player": 0, "to": "C5"}))
    panel = Panel(table)
    name = table.public_view()["seats"][0]["adventurer"]["first_name"]
    screen = pick(panel, "Move to L(3,3)")
    assert "type the number on slab L(3,3)" in screen.text
    screen = press(panel, "OK")
    assert "slab number" in screen.text and screen.find("?", whole=True)
    trap = sorted(table.public_view()["traps"].values())[0]
    for _ in range(trap):
        screen = press(panel, "UP")
    assert screen.find(str(trap), whole=True) and screen.ink_height(str(trap), whole=True) >= 10
    screen = press(panel, "OK")
    assert screen.name == "fates" and screen.find(name)
    assert table.public_view()["seats"][0]["adventurer"]["status"] == "eliminated"


def test_an_adventurer_leaving_by_the_exit_is_shown_as_escaped(table):
    """CHAC-EXIT-1: the OLED names the adventurer who just left the temple by the exit."""
    started(table)
    exit_from = load_board(DEFAULT_BOARD).exit_from
    table.submit(Command("set_space", None, {"player": 0, "to": exit_from}))
    panel = Panel(table)
    panel.tick()
    assert table.submit(Command("move", 0, {"to": "exit"})).ok
    panel.tick()
    name = table.public_view()["seats"][0]["adventurer"]["first_name"]
    screen = panel.screen()
    assert screen.name == "fates" and f"{name} escaped" in screen.text
    assert "Eliminated" not in screen.text


def test_notices_arriving_faster_than_they_run_out_keep_only_the_latest_few(table):
    """Commands from phones can come faster than the OLED's notices expire: the screen shows
    the latest ones and is back to the table's state in a few notices' time, not minutes."""
    started(table)
    table.submit(Command("set_space", None, {"player": 0, "to": "C5"}))
    trap = sorted(table.public_view()["traps"].values())[0]
    clock = Clock()
    panel = Panel(table, clock=clock)
    panel.tick()
    for _ in range(40):  # Ana falls into the lava (CHAC-LAVA-1), the host undoes it, again
        table.submit(Command("move", 0, {"to": "L(3,3)"}))
        table.submit(Command("slab", 0, {"number": trap}))
        panel.tick()
        assert panel.screen().name == "fates"
        table.undo()
        table.undo()
        panel.tick()
    for _ in range(3):  # the latest three notices at most
        clock.now += NOTICE_S
        panel.tick()
    assert panel.screen().name != "fates"


def test_several_waiting_prompts_are_stepped_through_with_down(table):
    table.new_game("chac", {}, ["Ana", "Ben"], seed=7)
    panel = Panel(table)
    assert "Ana: choose" in panel.screen().text
    assert "Ben: choose" in press(panel, "DOWN").text
    assert "Host: choose the first dicekeeper" in press(panel, "DOWN").text
    screen = press(panel, "OK")
    assert screen.name == "menu" and "Ana keeps dice" in screen.text


def test_without_a_game_the_panel_shows_the_join_code_and_pin(table):
    panel = Panel(table, join_url="http://192.168.1.23:8080/", pin="4821")
    screen = panel.screen()
    assert screen.name == "join" and "PIN 4821" in screen.text
    assert "http://192.168.1.23:8080/" in screen.text


def test_hardware_problems_are_shown_with_what_the_table_waits_for(table):
    started(table)
    problems = ["camera: No USB camera at /dev/video0"]
    panel = Panel(table, problems=lambda: problems)
    screen = panel.screen()
    assert "Check the hardware" in screen.text and "No USB camera" in screen.text
    problems.clear()
    panel.tick()
    assert panel.screen().name == "status"


def read_at_first_roll(table, read: TrayState) -> tuple[Panel, RollWatcher]:
    """A game at its first roll, the dice thrown, and the camera's reading `read` waiting for
    the table (never entered by itself): the panel and the roll watcher."""
    table.new_game("chac", {}, ["Ana", "Ben"], seed=7)
    for seat in (0, 1):
        table.submit(table.legal(seat)[0])
    table.submit(Command("first_dicekeeper", None, {"keeper": 0}))
    seen = iter([TrayState(moving=True), read])
    rolls = RollWatcher(table, lambda image, expected: next(seen), auto_submit=False)
    frame = Frame(np.zeros((16, 16, 3), np.uint8), 0.0, 0)
    rolls.on_frame(frame)
    rolls.on_frame(frame)
    return Panel(table, rolls=rolls), rolls


def test_ok_on_a_reading_with_a_die_missing_goes_to_that_die(table):
    """The camera saw 4 of 5 dice: OK does not submit a reading the table must refuse, it
    opens the correction on the missing die; the completed roll then reaches the table."""
    panel, rolls = read_at_first_roll(table, TrayState(moving=False, values=(2, 3, 5, 6)))
    screen = panel.screen()
    assert "Fix the dice" in screen.text and "4/5" in screen.text
    version = table.version
    screen = press(panel, "OK")
    big = [t for t in screen.texts if t.size == 22]
    assert [t.text for t in big] == ["2", "3", "5", "6", "?"] and big[4].inverted
    assert table.version == version  # nothing submitted yet
    press(panel, "UP")
    screen = press(panel, "OK")
    assert table.public_view()["last_dice"]["values"] == [2, 3, 5, 6, 1]
    assert rolls.pending is None and screen.name == "status"


def test_a_die_the_camera_is_not_sure_of_is_framed_and_fixed_first(table):
    """The camera read five dice but was not sure of the third: the OLED says to check them
    and frames that die alone, and a press of DOWN changes that die, not the first, so the
    keeper fixes the one die to look at and confirms the rest as read."""
    read = TrayState(moving=False, values=(2, 3, 4, 5, 6), doubted=(2,))
    panel, _ = read_at_first_roll(table, read)
    screen = panel.screen()
    assert "Check the dice" in screen.text and "5/5" in screen.text
    big = [t for t in screen.texts if t.size == 22]
    assert [t.text for t in big] == ["2", "3", "4", "5", "6"]

    def framed(digit):  # a lit line right above the digit, across its slot
        middle = (digit.box[0] + digit.box[2]) // 2
        return all(screen.image.getpixel((x, 33)) for x in range(middle - 8, middle + 9))

    assert [framed(t) for t in big] == [False, False, True, False, False]
    version = table.version
    screen = press(panel, "DOWN")
    big = [t for t in screen.texts if t.size == 22]
    assert [t.text for t in big] == ["2", "3", "3", "5", "6"] and big[2].inverted
    for _ in range(3):
        assert table.version == version  # the dice after it are the camera's, confirmed by OK
        screen = press(panel, "OK")
    assert table.public_view()["last_dice"]["values"] == [2, 3, 3, 5, 6]
