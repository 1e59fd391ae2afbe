"""The button panel and the OLED together: a round can be played without any phone.

Button events and the table's views/prompts go in; screens and commands come out. All
commands go through the Table (and dice readings through the roll watcher), like a phone's.

Buttons (hardware.buttons):
    MENU or OK   open the menu of what the seat whose turn it is may do (or the table's step)
    UP / DOWN    move in a menu; on a dice reading: correct it; on the home screen with more
                 than one prompt waiting (setup): show the next one
    OK           choose / confirm the dice reading / go ahead (walls)
    BACK         close the menu, discard a dice reading, dismiss a notice
    hold BACK    undo the last command
    hold MENU    private peek at what only that seat may see, such as a picture its last
                 action revealed (the others look away)

What is drawn comes from the game's own screens (its bundle's `screens()`), and from the
generic ones for whatever a game's screens leave out.

`handle(event)` and `tick()` return True when the screen may have changed, and `version` then
grows; `screen()` gives the current Screen and `render()` its image, for the display.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import product
from companion.game.protocol import Command, Prompt
from companion.screens import Screen, common, generic

if TYPE_CHECKING:
    from PIL import Image

    from companion.table import Outcome, Table

log = logging.getLogger(__name__)

Clock = Callable[[], float]
PictureSource = Callable[[int], "Image.Image | None"]

NOTICE_S = 4.0
# Notices waiting at most; older ones are dropped. When commands come faster than notices
# run out, the people looking at the OLED want the latest few, not minutes of backlog.
MAX_NOTICES = 3
PEEK_S = 5.0


@dataclass
class _Menu:
    seat: int | None
    items: list[tuple[str, Command | str]]  # label, command or a panel action ("peek")
    selected: int = 0


@dataclass
class _Editor:
    """Typing values with UP/DOWN: the dice of a roll, one number (a slab), or the values a
    menu's command is completed with (the chits a research peeks at)."""

    kind: str  # "dice", a command type from the game screens' NUMBER_COMMANDS, or "command"
    values: list[int | None]
    low: int = 1
    high: int = 6
    cursor: int = 0
    seat: int | None = None
    command: Command | None = None  # kind "command": the menu's command to complete
    label: str = ""  # kind "command": its menu label


_MISSING = object()


class _Screens:
    """A game's screens module, with the generic screens for the names it does not define."""

    def __init__(self, module: Any):
        self._module = module

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._module, name, _MISSING)
        return getattr(generic, name) if found is _MISSING else found


def pictures_in(table: Table, data_dir: str | Path) -> PictureSource:
    """The pictures the private peek of the game on the table shows, by the number its secret
    names (its bundle's `private_pictures(data_dir)`), or None when it has none stored."""

    def load(number: int) -> Image.Image | None:
        pictures = getattr(table.game, "private_pictures", None)
        data = pictures(data_dir)(number) if pictures else None
        if data is None:
            return None
        from PIL import Image

        return Image.open(io.BytesIO(data)).convert("L")

    return load


class Panel:
    """The table's own face: menus on the OLED driven by the five buttons.

        panel = Panel(table, rolls=watcher, pictures=pictures_in(table, data_dir), join_url=url)
        if panel.handle(event):
            display.show(panel.render())

    Call `tick()` a few times a second: notices and the peek run out on their own.
    """

    def __init__(
        self,
        table: Table,
        *,
        rolls: Any = None,
        pictures: PictureSource | None = None,
        join_url: str = "",
        pin: str = "",
        problems: Callable[[], list[str]] | None = None,
        clock: Clock = time.monotonic,
        notice_s: float = NOTICE_S,
        peek_s: float = PEEK_S,
    ):
        self.table = table
        self.rolls = rolls
        self.pictures = pictures
        self.join_url = join_url
        self.pin = pin
        self.problems = problems or (lambda: [])
        self._clock = clock
        self.notice_s = notice_s
        self.peek_s = peek_s
        self._lock = threading.RLock()
        self._menu: _Menu | None = None
        self._editor: _Editor | None = None
        self._notices: deque[Screen] = deque()
        self._notice_until = 0.0
        self._peek_seat: int | None = None  # warned: that seat may peek now
        self._peek_until: float | None = None  # peeking until then
        self._private_refusal = ""  # why the peeking seat's command was refused, in secret
        self._prompt_index = 0
        self._seen_version = -1
        self._view: dict | None = None
        self.version = 0  # grows whenever the screen may have changed
        self._drawn_version = -1
        if rolls is not None and hasattr(rolls, "subscribe"):
            rolls.subscribe(self._changed)

    def _changed(self) -> None:
        self.version += 1

    # --- input -------------------------------------------------------------------------

    def handle(self, event: Any) -> bool:
        """One ButtonEvent; returns True when the screen may have changed."""
        with self._lock:
            self._sync()
            self._changed()
            button, kind = event.button, event.kind
            if kind == "long" and button == "BACK":
                self._close_all()
                self._notices.clear()  # what they said is being taken back
                self._outcome(self.table.undo(), done="Undone")
                return True
            if self._peek_until is not None:
                if (kind == "release" and button == "MENU") or kind == "press":
                    self._end_peek()
                return True
            if kind == "long" and button == "MENU":
                self._start_peek()
                return True
            if kind != "press":
                return False
            if self._notices:
                self._next_notice()
                return True
            if self._peek_seat is not None:
                if button == "BACK":
                    self._end_peek()
                return True
            if self._editor is not None:
                self._edit(button)
            elif self._menu is not None:
                self._navigate(button)
            else:
                self._home(button)
            return True

    def tick(self) -> bool:
        """Time passing: notices and the peek run out; table changes become notices."""
        with self._lock:
            self._sync()
            now = self._clock()
            if self._peek_until is not None and now >= self._peek_until:
                self._end_peek()
            if self._notices and now >= self._notice_until:
                self._next_notice()
            if self._peek_until is not None:
                self._changed()  # the countdown
            changed = self.version != self._drawn_version
            self._drawn_version = self.version
            return changed

    # --- output ------------------------------------------------------------------------

    def screen(self) -> Screen:
        with self._lock:
            self._sync()
            return self._screen()

    def render(self) -> Image.Image:
        return self.screen().image

    def _screen(self) -> Screen:
        if not self.table.has_game:
            caption = f"PIN {self.pin}" if self.pin else "Scan to start"
            if self.join_url:
                return common.join_code(self.join_url, caption)
            return common.notice(product.NAME, "Start a game on", "the host page.", big=caption)
        view = self._view or {}
        screens = self._screens()
        if self._peek_until is not None:
            return self._peek_screen()
        if self._notices:
            return self._notices[0]
        if self._peek_seat is not None:
            return common.peek_warning(screens.seat_name(view, self._peek_seat))
        if self._editor is not None:
            return self._editor_screen(view)
        if self._menu is not None:
            menu = self._menu
            labels = [label for label, _ in menu.items]
            title = screens.seat_name(view, menu.seat)
            actions = screens.actions_left(view, menu.seat)
            right = f"{actions} left" if actions is not None else ""
            return common.menu(title, labels, menu.selected, right)
        prompts = self.table.prompts()
        pending = self._pending()
        if pending is not None and any(p.kind == "roll" for p in prompts):
            if len(pending.values) != pending.expected:
                title = "Fix the dice"
            else:
                title = "Check the dice" if pending.doubted else "Dice read"
            return common.dice_reading(
                pending.values, title, expected=pending.expected, doubted=pending.doubted
            )
        problems = self.problems()
        if problems:
            return common.notice("Check the hardware", *problems, *(p.text for p in prompts[:1]))
        if not prompts:
            return screens.status(view, prompts)
        prompt = prompts[self._prompt_index % len(prompts)]
        if prompt.kind == "over":
            return screens.game_over(view)
        if prompt.kind == "roll":
            return screens.roll_wait(view, prompt)
        return screens.status(view, prompts[self._prompt_index % len(prompts) :])

    def _screens(self) -> Any:
        """The game's own screens module, the generic one filling in what it lacks."""
        game = self.table.game
        return _Screens(game.screens()) if hasattr(game, "screens") else generic

    def _editor_screen(self, view: dict) -> Screen:
        editor = self._editor
        assert editor is not None
        if editor.kind == "dice":
            return common.dice_reading(
                editor.values, "Enter dice", "\u25b2\u25bc value  OK next", editor.cursor
            )
        screens = self._screens()
        if editor.command is not None:
            typed = " ".join("_" if v is None else str(v) for v in editor.values)
            return common.notice(
                editor.label,
                f"{screens.TYPED_NAME} {editor.cursor + 1} of {len(editor.values)}: "
                "\u25b2\u25bc change  OK next",
                big=typed,
            )
        value = editor.values[0]
        key = screens.NUMBER_COMMANDS[editor.kind][0]
        return common.notice(
            f"{screens.seat_name(view, editor.seat)}: {editor.kind} {key}",
            "\u25b2\u25bc change  OK enter",
            big="?" if value is None else str(value),
        )

    def _peek_screen(self) -> Screen:
        assert self._peek_seat is not None
        left = (self._peek_until or 0) - self._clock()
        if self._private_refusal:
            return self._screens().private_refusal(self._private_refusal, left)
        secret = self._secret(self._peek_seat)
        if not secret:
            return common.notice("Private peek", "Nothing to peek at.")
        return self._screens().peek(secret, self.pictures, left)

    # --- the home screen ---------------------------------------------------------------

    def _home(self, button: str) -> None:
        prompts = self.table.prompts() if self.table.has_game else []
        if not prompts:
            return
        prompt = prompts[self._prompt_index % len(prompts)]
        if button in ("UP", "DOWN") and len(prompts) > 1 and prompt.kind != "roll":
            self._prompt_index += 1 if button == "DOWN" else -1
            return
        if prompt.kind == "roll":
            self._home_roll(button, prompt)
        elif prompt.kind == "confirm" and button == "OK":
            steps = self._menu_items(None)
            if len(steps) == 1:
                self._submit(steps[0][1])  # type: ignore[arg-type]
            else:
                self._open_menu(None)
        elif prompt.kind == "enter" and button in ("OK", "MENU"):
            self._open_number_editor(prompt)
        elif button in ("OK", "MENU"):
            self._open_menu(prompt.seat)

    def _home_roll(self, button: str, prompt: Prompt) -> None:
        pending = self._pending()
        if pending is not None:
            values: list[int | None] = list(pending.values)[: prompt.dice]
            values += [None] * (prompt.dice - len(values))
            if button == "OK" and len(pending.values) != prompt.dice:
                # Too few or too many dice seen: OK goes straight to the correction.
                cursor = values.index(None) if None in values else 0
                self._editor = _Editor("dice", values, cursor=cursor)
            elif button == "OK":
                self._outcome(self.rolls.confirm(), done="")
            elif button == "BACK":
                self.rolls.discard()
            elif button in ("UP", "DOWN"):
                # Straight to the first die the camera was not sure of: the one to check.
                doubted = [i for i in pending.doubted if i < prompt.dice]
                self._editor = _Editor("dice", values, cursor=doubted[0] if doubted else 0)
                self._edit(button)
        elif button in ("MENU", "OK", "UP", "DOWN"):
            self._editor = _Editor("dice", [None] * prompt.dice)

    # --- menus -------------------------------------------------------------------------

    def _menu_items(self, seat: int | None) -> list[tuple[str, Command | str]]:
        items: list[tuple[str, Command | str]] = []
        last: list[tuple[str, Command | str]] = []
        legal = self.table.legal(seat)
        for command in self._screens().menu_commands(self._view or {}, seat, legal):
            label = self._label(command)
            if label is None:
                continue  # needs typing (cards, corrections): the host or seat page does it
            (last if command.type == "pass" else items).append((label, command))
        if seat is not None and self._secret(seat):
            items.append((self._screens().PEEK_LABEL, "peek"))
        return items + last

    def _label(self, command: Command) -> str | None:
        """The game's short label for the menu when it has one (None: not on the panel),
        else the words it describes the command with."""
        game = self.table.game
        if game is None:
            return None
        short = getattr(game, "menu_label", None)
        return (
            short(command, [s.strip() for s in self.table.seats])
            if short
            else game.describe(command)
        )

    def _open_menu(self, seat: int | None) -> None:
        items = self._menu_items(seat)
        if not items:
            self._notify(common.notice("Nothing to do", "Use the host page", "for this step."))
            return
        self._menu = _Menu(seat, items)

    def _navigate(self, button: str) -> None:
        menu = self._menu
        assert menu is not None
        if button == "BACK":
            self._menu = None
        elif button in ("UP", "DOWN"):
            step = 1 if button == "DOWN" else -1
            menu.selected = (menu.selected + step) % len(menu.items)
        elif button == "OK":
            action = menu.items[menu.selected][1]
            if action == "peek":
                self._menu = None
                self._peek_seat = menu.seat
                return
            assert isinstance(action, Command)
            typed = self._screens().typed(self._view or {}, action)
            if typed is not None:
                values, low, high = typed
                label = menu.items[menu.selected][0]
                self._editor = _Editor(
                    "command",
                    list(values),
                    low,
                    high,
                    seat=action.seat,
                    command=action,
                    label=label,
                )
                return
            self._submitted(action)

    def _submitted(self, command: Command) -> bool:
        """Submit a command chosen on the panel; after one that reveals a secret to its seat,
        offer that seat the private peek."""
        if not self._submit(command):
            return False
        if command.type in self._screens().PEEK_AFTER:
            self._menu = None
            self._peek_seat = command.seat
        return True

    def _refresh_menu(self) -> None:
        """After the table changed: the same seat's menu, rebuilt; closed if now empty."""
        menu = self._menu
        if menu is None:
            return
        chosen = menu.items[menu.selected][0] if menu.items else ""
        prompts = self.table.prompts()
        still_theirs = any(p.seat == menu.seat for p in prompts if p.kind in ("act", "choose"))
        items = self._menu_items(menu.seat) if still_theirs else []
        if not items or (menu.seat is None and not any(p.kind == "confirm" for p in prompts)):
            self._menu = None
            return
        labels = [label for label, _ in items]
        menu.items = items
        menu.selected = labels.index(chosen) if chosen in labels else 0

    # --- typing values -----------------------------------------------------------------

    def _open_number_editor(self, prompt: Prompt) -> None:
        numbers = self._screens().NUMBER_COMMANDS
        for command in self.table.legal(prompt.seat):
            if command.type in numbers:
                _, low, high = numbers[command.type]
                self._editor = _Editor(command.type, [None], low, high, seat=prompt.seat)
                return
        self._notify(common.notice("Use a phone", prompt.text, "(host or seat page)"))

    def _edit(self, button: str) -> None:
        editor = self._editor
        assert editor is not None
        value = editor.values[editor.cursor]
        if button in ("UP", "DOWN"):
            span = editor.high - editor.low + 1
            if value is None:
                value = editor.low if button == "UP" else editor.high
            else:
                value = editor.low + (value - editor.low + (1 if button == "UP" else -1)) % span
            editor.values[editor.cursor] = value
        elif button == "BACK":
            if editor.cursor == 0:
                self._editor = None
            else:
                editor.cursor -= 1
        elif button in ("OK", "MENU") and value is not None:
            if editor.cursor < len(editor.values) - 1:
                editor.cursor += 1
            else:
                self._finish_editor(editor)

    def _finish_editor(self, editor: _Editor) -> None:
        values = [int(v) for v in editor.values if v is not None]
        if editor.kind == "dice":
            if self.rolls is not None:
                outcome = self.rolls.confirm(values)
            else:
                outcome = self.table.submit(Command("dice", None, {"values": values}))
            if self._outcome(outcome, done=""):
                self._editor = None
            return
        screens = self._screens()
        if editor.command is not None:
            if self._submitted(screens.complete(editor.command, values)):
                self._editor = None
            return
        key = screens.NUMBER_COMMANDS[editor.kind][0]
        if self._submit(Command(editor.kind, editor.seat, {key: values[0]})):
            self._editor = None

    # --- the private peek --------------------------------------------------------------

    def _start_peek(self) -> None:
        seat = self._peek_seat
        if seat is None and self._menu is not None:
            seat = self._menu.seat
        if seat is None:
            return
        if not self._secret(seat) and not self._private_refusal:
            return
        self._peek_seat = seat
        self._peek_until = self._clock() + self.peek_s

    def _end_peek(self) -> None:
        self._changed()
        self._peek_until = None
        self._peek_seat = None
        self._private_refusal = ""

    # --- table changes -----------------------------------------------------------------

    def _sync(self) -> None:
        version = self.table.version
        if version == self._seen_version:
            return
        self._seen_version = version
        self._changed()
        if not self.table.has_game:
            self._view = None
            self._close_all()
            return
        old, new = self._view, self.table.public_view()
        self._view = new
        if old is not None and new.get("log_count", 0) > old.get("log_count", 0):
            for screen in self._screens().notices(old, new):
                self._notify(screen)
        self._refresh_menu()
        if self._peek_seat is not None and not self._secret(self._peek_seat):
            self._end_peek()  # what it showed was undone
        prompts = self.table.prompts()
        editing_dice = self._editor is not None and self._editor.kind == "dice"
        if editing_dice and not any(p.kind == "roll" for p in prompts):
            self._editor = None  # the roll was entered elsewhere
        if self._prompt_index >= len(prompts):
            self._prompt_index = 0

    def _notify(self, screen: Screen) -> None:
        if len(self._notices) >= MAX_NOTICES:
            self._notices.popleft()  # the oldest, even on screen: the newer ones matter more
            self._notice_until = self._clock() + self.notice_s
        if not self._notices:
            self._notice_until = self._clock() + self.notice_s
        self._notices.append(screen)

    def _next_notice(self) -> None:
        self._changed()
        self._notices.popleft()
        self._notice_until = self._clock() + self.notice_s

    def _close_all(self) -> None:
        self._menu = None
        self._editor = None
        self._end_peek()

    # --- commands ----------------------------------------------------------------------

    def _submit(self, command: Command) -> bool:
        outcome = self.table.submit(command)
        private = self._screens().PRIVATE_RULES
        if not outcome.ok and command.seat is not None and outcome.rule in private:
            # The reason would tell the table a secret (e.g. which drawn card is which): the
            # shared screen only asks the others to look away, as before any private peek.
            self._menu = self._editor = None
            self._peek_seat = command.seat
            self._private_refusal = outcome.reason
            return False
        return self._outcome(outcome, done="")

    def _outcome(self, outcome: Outcome, done: str) -> bool:
        if outcome.ok:
            self._sync()
            if done:
                self._notify(common.notice(done))
            return True
        # A refusal answers the button just pressed: show it before anything queued.
        self._notices.appendleft(self._screens().refusal(outcome.reason))
        self._notice_until = self._clock() + self.notice_s
        if len(self._notices) > MAX_NOTICES:
            del self._notices[1]  # the oldest of those waiting behind it
        return False

    def _secret(self, seat: int) -> dict | None:
        """What the seat may peek at alone now (from its seat view: the one place it may come
        from), as its game's screens find it."""
        return self._screens().secret(self.table.seat_view(seat))

    def _pending(self) -> Any:
        return self.rolls.pending if self.rolls is not None else None
