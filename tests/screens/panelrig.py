"""The table's buttons and OLED, fakes that behave like the real parts, driven as a person
would: presses, holds, waits, and the screen checked against what the OLED really holds."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from companion.panel import NOTICE_S, Panel
from companion.table import Table
from hardware.buttons import ButtonPanel
from hardware.display import dummy_display


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Rig:
    """The table's buttons and OLED, fakes that behave like the real parts."""

    def __init__(self, tmp_path):
        self.clock = Clock()
        self.factory = MockFactory()
        self.buttons = ButtonPanel(pin_factory=self.factory, clock=self.clock)
        self.display = dummy_display(clock=self.clock)
        self.table = Table.open(tmp_path / "companion.db")
        self.panel = Panel(self.table, rolls=self._rolls(), clock=self.clock)

    def _rolls(self):
        """The dice readings the panel shows: none here (see the rig with a camera)."""
        return None

    def close(self):
        self.buttons.close()
        self.table.close()
        self.factory.reset()

    def _deliver(self):
        while (event := self.buttons.next_event(timeout=0)) is not None:
            self.panel.handle(event)
        self.refresh()

    def refresh(self):
        self.panel.tick()
        self.display.show(self.panel.render())

    def press(self, name, hold=False):
        pin = self.buttons.pin(name)
        self.clock.now += 0.1
        pin.drive_low()
        self.clock.now += 1.1 if hold else 0.08
        self._deliver()
        pin.drive_high()
        self._deliver()
        return self.shown()

    def hold(self, name):
        """Press and keep holding; returns the screen while held and a function to let go."""
        pin = self.buttons.pin(name)
        self.clock.now += 0.1
        pin.drive_low()
        self.clock.now += 1.1
        self._deliver()

        def let_go():
            pin.drive_high()
            self._deliver()
            return self.shown()

        return self.shown(), let_go

    def wait(self, seconds):
        self.clock.now += seconds
        self._deliver()
        return self.shown()

    def shown(self):
        """The screen model, checked against what the dummy OLED really holds."""
        screen = self.panel.screen()
        assert self.display.device.image.tobytes() == screen.image.tobytes()
        return screen

    def pick(self, label):
        """Open the menu if it is not open, move to `label` and choose it."""
        screen = self.shown()
        if screen.name != "menu":
            screen = self.press("MENU")
        assert screen.name == "menu", screen.text
        for _ in range(15):
            if any(t.inverted and t.text == label for t in screen.texts):
                return self.press("OK")
            screen = self.press("DOWN")
        raise AssertionError(f"{label!r} not in the menu: {screen.text}")

    def home(self):
        """Close an open menu: the status screen."""
        if self.shown().name == "menu":
            self.press("BACK")
        return self.shown()

    def refused(self, label, rule, words):
        """Choosing `label` is refused: the OLED says why, the table is unchanged."""
        before = self.table.public_view()
        screen = self.pick(label)
        assert screen.name == "notice" and "Not possible" in screen.text
        assert words in screen.text and rule in screen.text, screen.text
        assert self.table.public_view() == before
        assert self.wait(NOTICE_S).name == "menu"  # the notice runs out, the menu is back
