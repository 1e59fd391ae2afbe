"""A whole round without phones: gpiozero MockFactory buttons, luma's dummy OLED, the simulated
camera and the real dice reader, the real Table. Every step checks what the OLED shows."""

from __future__ import annotations

import pytest

from companion.rolls import RollWatcher, tray_watcher
from hardware.camera import SimCamera

from . import panelrig


class Rig(panelrig.Rig):
    """The panel's rig with the simulated camera looking into the tray."""

    def __init__(self, tmp_path, camera_seed=0):
        super().__init__(tmp_path)
        self.camera = SimCamera(seed=camera_seed, fps=15, hand_chance=0)
        self.camera.open()
        for _ in range(3):
            self.rolls.on_frame(self.camera.read())

    def _rolls(self):
        self.rolls = RollWatcher(self.table, tray_watcher(), auto_submit=False)
        return self.rolls

    def throw(self, faces):
        self.camera.throw(faces)
        for _ in range(45):
            self.rolls.on_frame(self.camera.read())
            if self.rolls.pending is not None:
                break
        self.refresh()
        return self.shown()

    def big_digits(self, screen):
        return [t for t in screen.texts if t.size == 22]

    def confirm_dice(self, faces):
        """On a dice reading: correct it to `faces` if the camera got it wrong, then OK.
        Corrections: UP/DOWN change the die under the cursor, OK steps to the next die."""
        screen = self.shown()
        assert screen.name == "dice", screen.text
        if [t.text for t in self.big_digits(screen)] == [str(f) for f in faces]:
            return self.press("OK")
        screen = self.press("UP")
        for i, face in enumerate(faces):
            for _ in range(7):
                if self.big_digits(screen)[i].text == str(face):
                    break
                screen = self.press("UP")
            assert self.big_digits(screen)[i].inverted  # the die being corrected
            screen = self.press("OK")
        return screen

    def choose(self, label):
        """Open the menu and pick the item `label` with DOWN presses, then OK."""
        screen = self.press("MENU")
        assert screen.name == "menu", screen.text
        for _ in range(12):
            chosen = next((t.text for t in screen.texts if t.inverted and t.size > 12), None)
            if chosen == label:
                return self.press("OK")
            screen = self.press("DOWN")
        raise AssertionError(f"{label!r} is not in the menu: {screen.text}")


@pytest.fixture
def rig(tmp_path):
    rig = Rig(tmp_path)
    rig.table.new_game("chac", {}, ["Ana", "Ben"], seed=7)
    rig.refresh()
    yield rig
    rig.close()


def adventurer(rig, seat):
    return rig.table.public_view()["seats"][seat]["adventurer"]


def test_a_full_round_played_with_the_buttons_and_the_oled(rig):
    """CHAC-ACT-1/2, CHAC-WALL-2, CHAC-BOUL-1, CHAC-PASS-1 through the panel alone."""
    # Setup: each player picks the first adventurer, the host picks the dicekeeper.
    screen = rig.shown()
    assert "Ana: choose your first adventurer" in screen.text
    dealt = rig.table.seat_view(0)["you"]["dealt"]
    screen = rig.choose(dealt[0])
    assert "Ben: choose your first adventurer" in screen.text
    rig.choose(rig.table.seat_view(1)["you"]["dealt"][0])
    screen = rig.choose("Ana keeps dice")
    assert screen.name == "roll" and "Roll 5 dice" in screen.text and "Dice: Ana" in screen.text
    assert "Round 1" in screen.text

    # The camera reads the throw; the reading waits for OK (corrected first if misread).
    screen = rig.throw([3, 5, 1, 6, 2])
    read = rig.rolls.pending.values
    assert screen.name == "dice" and f"{len(read)}/5" in screen.text
    assert [t.text for t in rig.big_digits(screen)] == [str(v) for v in read]
    screen = rig.confirm_dice([1, 2, 3, 5, 6])
    assert rig.table.public_view()["last_dice"]["values"] == [1, 2, 3, 5, 6]
    first, second = adventurer(rig, 0)["first_name"], adventurer(rig, 1)["first_name"]
    # Load level 2: the dice 2, 3, 5, 6 each give an action.
    assert screen.name == "status" and screen.find(first) and screen.find("4", whole=True)
    assert "Round 1 · Actions" in screen.text

    # The dicekeeper's adventurer moves into the walls room, deciphers, peeks, ends the turn.
    screen = rig.choose("Move to Z1")
    # The menu stays open for the next action, counting down the actions left.
    assert screen.name == "menu" and "3 left" in screen.text
    assert adventurer(rig, 0)["space"] == "Z1"
    screen = rig.choose("Decipher")
    assert screen.name == "peek-warning" and f"Only {first}!" in screen.text
    peeking, let_go = rig.hold("MENU")
    assert peeking.name == "peek" and peeking.find("5", whole=True)
    zone1_trap = rig.table.seat_view(0)["you"]["decipher"]["number"]
    assert f"Turn tile {zone1_trap}" in peeking.text  # no glyph pictures yet: CHAC-GLYPH-2
    assert rig.wait(2.0).find("3", whole=True)  # counting down while held
    screen = rig.wait(3.1)
    assert screen.name == "status"  # five seconds are up even though the button is held
    let_go()
    screen = rig.choose("End turn")
    assert screen.find(second) and screen.find("4", whole=True)

    # The second player moves, takes it back with a long BACK, and ends the turn.
    screen = rig.choose("Move to Z1")
    assert adventurer(rig, 1)["space"] == "Z1"
    screen = rig.press("BACK", hold=True)
    assert "Undone" in screen.text
    assert adventurer(rig, 1)["space"] == "E" and adventurer(rig, 1)["actions"] == 4
    screen = rig.wait(4.1)
    assert screen.find(second) and screen.find("4", whole=True)
    screen = rig.choose("End turn")

    # Walls: OK reveals three cards; the screen shows them and where both walls stand.
    assert "Reveal the next 3 wall cards" in screen.text and "Round 1 · Walls" in screen.text
    screen = rig.press("OK")
    walls = rig.table.public_view()["walls"]
    assert screen.name == "walls" and len(walls["last_revealed"]) == 3
    assert f"{walls['left']}/3" in screen.text and f"{walls['right']}/3" in screen.text
    screen = rig.press("BACK")  # dismiss the notice

    # The boulder: round 1 rolls one die (CHAC-BOUL-1).
    assert screen.name == "roll" and "Roll 1 die" in screen.text and "boulder" in screen.text
    screen = rig.throw([4])
    assert screen.name == "dice" and "/1" in screen.text
    screen = rig.confirm_dice([4])
    boulder = rig.table.public_view()["boulder"]
    assert screen.name == "boulder" and "+1" in screen.text and boulder["space"] in screen.text
    screen = rig.wait(4.1)

    # Round 2: the dice pass to the left (CHAC-PASS-1).
    assert screen.name == "roll" and "Round 2" in screen.text and "Dice: Ben" in screen.text


def test_a_reading_is_corrected_with_up_and_down_before_ok(rig):
    for seat in (0, 1):
        rig.table.submit(rig.table.legal(seat)[0])
    rig.choose("Ben keeps dice")
    rig.throw([3, 5, 1, 6, 2])
    read = list(rig.rolls.pending.values)
    # UP opens the correction on the first die and turns it up by one; OK steps on.
    screen = rig.press("UP")
    digits = rig.big_digits(screen)
    assert digits[0].inverted and digits[0].text == str(read[0] % 6 + 1)
    assert len(digits) == 5  # a die the camera missed shows as "?" until set
    for _ in range(5):  # 1 -> 6 -> ... back round to the value read
        screen = rig.press("UP")
    assert rig.big_digits(screen)[0].text == str(read[0])
    for _ in range(4):
        screen = rig.press("OK")
    last = rig.big_digits(screen)[4]
    assert last.inverted and last.text == (str(read[4]) if len(read) == 5 else "?")
    screen = rig.press("DOWN")
    expected = ((read[4] - 2) % 6 + 1) if len(read) == 5 else 6  # "?" goes down to 6
    assert rig.big_digits(screen)[4].text == str(expected)
    screen = rig.press("OK")
    assert screen.name == "status"
    assert rig.table.public_view()["last_dice"]["values"] == [*read[:4], expected]


def test_holding_back_undoes_step_by_step_and_says_when_nothing_is_left(rig):
    for seat in (0, 1):
        rig.table.submit(rig.table.legal(seat)[0])
    rig.choose("Ana keeps dice")
    rig.press("MENU")  # type the dice by hand
    for _ in range(5):
        rig.press("UP")
        screen = rig.press("OK")
    # Five ones: nobody has an action (CHAC-ACT-1); the table moves on to the walls.
    assert "Round 1 · Walls" in screen.text
    screen = rig.press("BACK", hold=True)
    assert "Undone" in screen.text
    screen = rig.wait(4.1)
    assert screen.name == "roll" and "Roll 5 dice" in screen.text
    for _ in range(3):  # the dicekeeper, then both choices
        rig.press("BACK", hold=True)
    version = rig.table.version
    screen = rig.press("BACK", hold=True)
    assert "Not possible" in screen.text and "nothing to undo" in screen.text
    assert rig.table.version == version
    assert "Ana: choose your first adventurer" in rig.wait(4.1).text
