"""Server-sent events: the table's change notices fanned out to one listener per open page.

The table calls back with its new version after every accepted change; each listener keeps
only the latest version (a slow phone skips straight to the newest view instead of replaying
a backlog) and renders its own view in its own response thread, so one page's view never
reaches another page's stream.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

HEARTBEAT_S = 15.0  # keeps an idle stream open and lets the page notice a dead one
RETRY_MS = 1000  # EventSource's first reconnect delay; the page adds its own backoff


class Listener:
    """One open event stream: a wake-up flag plus the latest version announced."""

    def __init__(self) -> None:
        self._changed = threading.Event()
        self.closed = False

    def notify(self) -> None:
        self._changed.set()

    def close(self) -> None:
        self.closed = True
        self._changed.set()

    def wait(self, timeout: float) -> bool:
        """True when something changed (or the stream must end) within `timeout` seconds."""
        changed = self._changed.wait(timeout)
        self._changed.clear()
        return changed


class Broadcaster:
    """Fans the table's change notices out to every open stream; `close()` ends them all."""

    def __init__(self, subscribe: Callable[[Callable[[int], None]], Callable[[], None]]):
        self._listeners: set[Listener] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._unsubscribe = subscribe(self._on_change)

    @property
    def count(self) -> int:
        return len(self._listeners)

    def _on_change(self, version: int) -> None:
        self.notify_all()

    def notify_all(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.notify()

    def stream(
        self, render: Callable[[], dict[str, Any]], heartbeat_s: float = HEARTBEAT_S
    ) -> Iterator[str]:
        """SSE text: the current view at once, then a new view after every change.

        The stream listens from its first chunk on: a response dropped before it is sent (a
        HEAD request, a client gone before its turn) leaves nothing behind, since a generator
        never started never runs its cleanup."""
        listener = Listener()
        with self._lock:
            if self._closed:
                return
            self._listeners.add(listener)
        try:
            yield f"retry: {RETRY_MS}\n\n"
            yield _event(render())
            while not listener.closed:
                if listener.wait(heartbeat_s):
                    if listener.closed:
                        break
                    try:
                        payload = render()
                    except ValueError:  # e.g. a new game without this page's seat
                        break
                    yield _event(payload)
                else:
                    yield "event: ping\ndata: {}\n\n"  # an event, so the page can watch for it
            yield "event: bye\ndata: {}\n\n"
        finally:
            with self._lock:
                self._listeners.discard(listener)

    def drop_all(self) -> None:
        """End the streams open now (pages reconnect, and are checked again); keep serving."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()

    def close(self) -> None:
        """End every open stream (before the server stops, or its threads linger)."""
        with self._lock:
            self._closed = True
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()
        self._unsubscribe()


def _event(payload: dict[str, Any]) -> str:
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {payload.get('version', 0)}\nevent: view\ndata: {data}\n\n"
