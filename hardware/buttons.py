"""The button panel: five push buttons to ground on BCM pins, read through gpiozero.

Default wiring (BCM numbers; every pin is configurable), each button between its pin and GND,
using the Pi's internal pull-ups:

    UP    GPIO5   (pin 29)    move up in a menu
    DOWN  GPIO6   (pin 31)    move down in a menu
    OK    GPIO13  (pin 33)    confirm / choose
    BACK  GPIO19  (pin 35)    back; hold for 1 s = undo the last command
    MENU  GPIO26  (pin 37)    open the action menu; hold = private peek (the others look away)

gpiozero's callbacks only note the raw edge, with a timestamp, on a queue. One loop thread
turns edges into `ButtonEvent`s with our own debounce and long-press logic, so real pins
(whose callbacks run in lgpio's thread) and MockFactory pins (callbacks run in the thread that
drives the pin, with bounce_time ignored) behave the same.

    panel = ButtonPanel(pin_factory=MockFactory())
    panel.pin("OK").drive_low(); panel.pin("OK").drive_high()
    panel.next_event(timeout=0)   # ButtonEvent(button='OK', kind='press', at=...)
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Clock = Callable[[], float]

UP, DOWN, OK, BACK, MENU = "UP", "DOWN", "OK", "BACK", "MENU"
DEFAULT_PINS: dict[str, int] = {UP: 5, DOWN: 6, OK: 13, BACK: 19, MENU: 26}
# Buttons whose hold means something report "press" on release (a short press), so a hold is
# never also a press. The others report on the way down: the fastest response.
DEFAULT_HOLDABLE = frozenset({BACK, MENU})


class ButtonPanelError(Exception):
    """The panel's pins cannot be opened; the message says what to check."""


@dataclass(frozen=True)
class ButtonEvent:
    """`kind` is "press" (a short press), "long" (held for `long_press_s`, reported while
    still held) or "release" (a held button let go, e.g. to end a private peek)."""

    button: str
    kind: Literal["press", "long", "release"]
    at: float


@dataclass
class _Key:
    holdable: bool
    down: bool = False  # debounced level
    raw_down: bool = False  # last level gpiozero reported
    changed_at: float = float("-inf")  # when the debounced level last changed
    long_sent: bool = False


@dataclass
class PanelDecoder:
    """Raw edges + time -> button events. Pure logic: no threads, no pins, no clock of its own.

    Debounce: an edge is taken at once (no added latency), then the button's level is frozen
    for `debounce_s`, so contact bounce right after an edge is ignored; if the raw level
    differs from the debounced one when the freeze ends, that is a real change and is taken.
    """

    holdable: Iterable[str]
    buttons: Iterable[str]
    debounce_s: float = 0.03
    long_press_s: float = 1.0
    _keys: dict[str, _Key] = field(init=False)

    def __post_init__(self) -> None:
        holdable = set(self.holdable)
        self._keys = {name: _Key(holdable=name in holdable) for name in self.buttons}

    def edge(self, button: str, down: bool, at: float) -> list[ButtonEvent]:
        key = self._keys[button]
        key.raw_down = down
        if at - key.changed_at < self.debounce_s:
            return []
        return self._change(button, key, down, at)

    def poll(self, now: float) -> list[ButtonEvent]:
        events: list[ButtonEvent] = []
        for name, key in self._keys.items():
            settled = now - key.changed_at >= self.debounce_s
            if settled and key.raw_down != key.down:
                events += self._change(name, key, key.raw_down, key.changed_at + self.debounce_s)
            held = key.holdable and key.down and not key.long_sent
            if held and now - key.changed_at >= self.long_press_s:
                key.long_sent = True
                events.append(ButtonEvent(name, "long", key.changed_at + self.long_press_s))
        return events

    def next_deadline(self) -> float | None:
        """The earliest time `poll` could produce an event without a new edge."""
        deadlines = []
        for key in self._keys.values():
            if key.raw_down != key.down:
                deadlines.append(key.changed_at + self.debounce_s)
            if key.holdable and key.down and not key.long_sent:
                deadlines.append(key.changed_at + self.long_press_s)
        return min(deadlines, default=None)

    def _change(self, name: str, key: _Key, down: bool, at: float) -> list[ButtonEvent]:
        if down == key.down:
            return []
        key.down, key.changed_at = down, at
        if down:
            key.long_sent = False
            return [] if key.holdable else [ButtonEvent(name, "press", at)]
        if not key.holdable:
            return []
        return [ButtonEvent(name, "release" if key.long_sent else "press", at)]


class ButtonPanel:
    """The panel's buttons on gpiozero, decoded into `ButtonEvent`s by one consumer.

    `pins` maps button names to BCM pin numbers. Pass gpiozero's `MockFactory()` as
    `pin_factory` off-Pi; `clock` stamps edges (tests pass a clock they control).
    Consume with `next_event(timeout)` from one thread, or `listen(handler)` to start that
    thread.
    """

    def __init__(
        self,
        pins: Mapping[str, int] | None = None,
        *,
        holdable: Iterable[str] = DEFAULT_HOLDABLE,
        debounce_s: float = 0.03,
        long_press_s: float = 1.0,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
    ):
        self.pins = dict(DEFAULT_PINS if pins is None else pins)
        if len(set(self.pins.values())) != len(self.pins):
            raise ButtonPanelError(f"Two buttons share a pin: {self.pins}")
        self._clock = clock
        # queue.Queue, not SimpleQueue: on Python 3.11 a signal handled during
        # SimpleQueue.get(timeout=...) can turn the wait into one that never ends, and the
        # service's main loop waits here while SIGTERM arrives.
        self._edges: queue.Queue[tuple[str, bool, float]] = queue.Queue()
        self._ready: deque[ButtonEvent] = deque()
        self._decoder = PanelDecoder(
            holdable=[b for b in holdable if b in self.pins],
            buttons=list(self.pins),
            debounce_s=debounce_s,
            long_press_s=long_press_s,
        )
        self._buttons = self._open(pin_factory)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def _open(self, pin_factory: Any) -> dict[str, Any]:
        try:
            from gpiozero import Button
            from gpiozero.exc import GPIOZeroError
        except ImportError as exc:
            raise ButtonPanelError("gpiozero is not installed: pip install gpiozero") from exc
        buttons: dict[str, Any] = {}
        try:
            for name, pin in self.pins.items():
                # bounce_time=None: gpiozero's debounce is unreliable across factories (mock
                # pins ignore it); PanelDecoder debounces instead.
                # hold_time: gpiozero's own hold watcher is unused, but closing a held button
                # waits up to hold_time for it.
                button = Button(
                    pin, pull_up=True, bounce_time=None, hold_time=0.05, pin_factory=pin_factory
                )
                button.when_pressed = self._edge_callback(name, True)
                button.when_released = self._edge_callback(name, False)
                buttons[name] = button
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            for button in buttons.values():
                button.close()
            raise ButtonPanelError(
                f"Cannot open the button panel's pins {self.pins}: {exc}. On a Pi 5 only "
                "lgpio works (set LG_WD to a writable directory under systemd)."
            ) from exc
        return buttons

    def _edge_callback(self, name: str, down: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edges.put((name, down, self._clock()))

        return on_edge

    def pin(self, name: str) -> Any:
        """The gpiozero pin behind a button (a MockPin off-Pi: drive_low() presses it)."""
        return self._buttons[name].pin

    def is_down(self, name: str) -> bool:
        return self._buttons[name].is_pressed

    def next_event(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next decoded event, waiting up to `timeout` seconds (None: forever)."""
        give_up = None if timeout is None else time.monotonic() + timeout
        while True:
            self._drain()
            if self._ready:
                return self._ready.popleft()
            wait = None if give_up is None else give_up - time.monotonic()
            deadline = self._decoder.next_deadline()
            if deadline is not None:
                until_due = max(0.0, deadline - self._clock())
                wait = until_due if wait is None else min(wait, until_due)
            if wait is not None and wait <= 0:
                self._drain()
                return self._ready.popleft() if self._ready else None
            try:
                edge = self._edges.get(timeout=wait)
            except queue.Empty:
                continue
            self._ready.extend(self._decoder.edge(*edge))

    def _drain(self) -> None:
        while True:
            try:
                edge = self._edges.get_nowait()
            except queue.Empty:
                break
            self._ready.extend(self._decoder.edge(*edge))
        self._ready.extend(self._decoder.poll(self._clock()))

    def listen(self, handler: Callable[[ButtonEvent], None]) -> None:
        """Start the one thread that decodes edges and calls `handler` for each event."""
        if self._thread is not None:
            raise RuntimeError("The panel already has a listener.")
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                event = self.next_event(timeout=0.1)
                if event is not None:
                    handler(event)

        self._thread = threading.Thread(target=loop, name="button-panel", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)
            self._thread = None
        # Each gpiozero Button stops a hold-watching thread on close (up to 0.1 s): in parallel.
        closers = [threading.Thread(target=b.close) for b in self._buttons.values()]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
        self._buttons.clear()

    def __enter__(self) -> ButtonPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
