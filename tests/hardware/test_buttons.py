"""The button panel through gpiozero's MockFactory: presses, bounces, holds, one loop thread."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import DEFAULT_PINS, ButtonPanel, ButtonPanelError


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def panel(factory, clock):
    with ButtonPanel(pin_factory=factory, clock=clock) as panel:
        yield panel


def events(panel):
    found = []
    while (event := panel.next_event(timeout=0)) is not None:
        found.append((event.button, event.kind))
    return found


def test_default_panel_has_five_buttons_with_pull_ups(panel, factory):
    assert set(panel.pins) == {"UP", "DOWN", "OK", "BACK", "MENU"}
    for name, number in DEFAULT_PINS.items():
        pin = factory.pin(number)
        assert pin.pull == "up"
        assert pin is panel.pin(name)
        assert not panel.is_down(name)


def test_a_press_reports_at_once_on_the_way_down(panel, clock):
    panel.pin("OK").drive_low()
    assert events(panel) == [("OK", "press")]
    clock.now = 0.15
    panel.pin("OK").drive_high()
    assert events(panel) == []


def test_contact_bounce_counts_as_one_press(panel, clock):
    # Mock pins ignore gpiozero's bounce_time: five rapid toggles would be five presses.
    for i in range(5):
        clock.now = i * 0.004
        panel.pin("DOWN").drive_low()
        clock.now = i * 0.004 + 0.002
        panel.pin("DOWN").drive_high()
    clock.now = 0.004 * 4
    panel.pin("DOWN").drive_low()
    assert events(panel) == [("DOWN", "press")]
    clock.now = 0.2
    panel.pin("DOWN").drive_high()
    clock.now = 0.4
    panel.pin("DOWN").drive_low()
    assert events(panel) == [("DOWN", "press")]


def test_bounce_on_release_does_not_make_a_second_press(panel, clock):
    panel.pin("UP").drive_low()
    clock.now = 0.2
    panel.pin("UP").drive_high()
    clock.now = 0.205
    panel.pin("UP").drive_low()  # bounce
    clock.now = 0.21
    panel.pin("UP").drive_high()
    clock.now = 0.5
    assert events(panel) == [("UP", "press")]


def test_a_bounce_that_ends_released_is_settled_by_polling(panel, clock):
    panel.pin("UP").drive_low()
    clock.now = 0.01
    panel.pin("UP").drive_high()  # inside the debounce window: level frozen as down
    assert events(panel) == [("UP", "press")]
    clock.now = 0.05  # the freeze ended with the pin up: a real release
    assert events(panel) == []
    clock.now = 0.3
    panel.pin("UP").drive_low()
    assert events(panel) == [("UP", "press")]


def test_holding_back_reports_one_long_press_while_held_and_no_press(panel, clock):
    panel.pin("BACK").drive_low()
    clock.now = 0.5
    assert events(panel) == []
    clock.now = 1.01
    assert events(panel) == [("BACK", "long")]
    clock.now = 3.0
    assert events(panel) == []
    panel.pin("BACK").drive_high()
    assert events(panel) == [("BACK", "release")]


def test_a_short_back_press_reports_on_release(panel, clock):
    panel.pin("BACK").drive_low()
    assert events(panel) == []
    clock.now = 0.3
    panel.pin("BACK").drive_high()
    assert events(panel) == [("BACK", "press")]


def test_long_press_event_carries_the_time_it_became_long(panel, clock):
    clock.now = 10.0
    panel.pin("MENU").drive_low()
    clock.now = 12.5
    event = panel.next_event(timeout=0)
    assert (event.button, event.kind, event.at) == ("MENU", "long", pytest.approx(11.0))


def test_pins_are_configurable_and_shared_pins_are_refused(factory, clock):
    with ButtonPanel({"OK": 17, "BACK": 27}, pin_factory=factory, clock=clock) as panel:
        factory.pin(17).drive_low()
        assert events(panel) == [("OK", "press")]
    with pytest.raises(ButtonPanelError, match="share a pin"):
        ButtonPanel({"OK": 17, "BACK": 17}, pin_factory=factory)


def test_a_pin_already_in_use_is_a_clear_error(panel, factory):
    with pytest.raises(ButtonPanelError, match="Cannot open the button panel"):
        ButtonPanel({"OK": DEFAULT_PINS["OK"]}, pin_factory=factory)


def test_listen_delivers_events_on_one_loop_thread(factory):
    received = []
    done = threading.Event()

    def handler(event):
        received.append((event.button, event.kind, threading.current_thread().name))
        if len(received) == 2:
            done.set()

    with ButtonPanel(pin_factory=factory, long_press_s=0.2) as panel:
        panel.listen(handler)
        panel.pin("OK").drive_low()
        panel.pin("OK").drive_high()
        panel.pin("BACK").drive_low()  # the loop thread notices the hold on its own
        assert done.wait(2)
    assert received == [("OK", "press", "button-panel"), ("BACK", "long", "button-panel")]


def test_waiting_for_a_press_ends_on_time_when_a_signal_arrives(factory):
    """The service's main loop waits here; a signal handled during the wait (SIGTERM's
    handler, say) must not turn a short wait into one that never ends."""
    import signal
    import time

    def slow_handler(signum, frame):
        time.sleep(0.2)  # the handler outlasts the wait

    previous = signal.signal(signal.SIGALRM, slow_handler)
    try:
        with ButtonPanel(pin_factory=factory) as panel:
            signal.setitimer(signal.ITIMER_REAL, 0.02)
            started = time.monotonic()
            assert panel.next_event(timeout=0.05) is None
            assert time.monotonic() - started < 2.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
