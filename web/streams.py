"""Server-sent events: the table's change notices fanned out to one listener per open page.

The table calls back with its new version after every accepted change; each listener keeps
only the latest version (a slow phone skips straight to the newest view instead of replaying
a backlog) and renders its own view in its own response thread, so one page's view never
reaches another page's stream.

An open stream holds one of the web server's worker threads, so streams are bounded: a client
(a phone's cookie, else its address) keeps at most `per_client` open, its oldest ending when
it opens one more (a page that reconnected left its old stream behind); and all clients
together keep at most `total`, so the rest of the workers answer commands. At the total, the
client with the most streams gives up its oldest, unless it is the one asking: then the new
stream is turned away and the page retries later.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

HEARTBEAT_S = 15.0  # keeps an idle stream open and lets the page notice a dead one
RETRY_MS = 1000  # EventSource's first reconnect delay; the page adds its own backoff
PING = b"event: ping\ndata: {}\n\n"  # an event, so the page can watch for it
BYE = b"event: bye\ndata: {}\n\n"
BUSY_RETRY_MS = 10_000  # a stream turned away: the page tries again this much later
PER_CLIENT = 8  # a phone's table, seat and host pages, and streams of pages it reopened


class Listener:
    """One open event stream: a wake-up flag plus the latest version announced."""

    def __init__(self, client: str) -> None:
        self.client = client
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

    def __init__(
        self,
        subscribe: Callable[[Callable[[int], None]], Callable[[], None]],
        per_client: int = PER_CLIENT,
        total: int | None = None,
    ):
        self.per_client = per_client
        self.total = total  # None: unbounded (the web server sets it from its worker count)
        self._listeners: dict[Listener, None] = {}  # oldest first
        self._lock = threading.Lock()
        self._closed = False
        self._version = 0  # the table's latest version announced
        self._texts: dict[str, tuple[int, bytes]] = {}  # view -> (its version, its event)
        self._render_locks: dict[str, threading.Lock] = {}
        self._unsubscribe = subscribe(self._on_change)

    @property
    def count(self) -> int:
        return len(self._listeners)

    def _on_change(self, version: int) -> None:
        self._version = max(self._version, version)
        self.notify_all()

    def notify_all(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.notify()

    def stream(
        self,
        render: Callable[[], dict[str, Any]],
        client: str = "",
        view: str = "",
        heartbeat_s: float = HEARTBEAT_S,
    ) -> Iterator[bytes]:
        """SSE text, UTF-8: the current view at once, then a new view after every change.

        The stream listens from its first chunk on: a response dropped before it is sent (a
        HEAD request, a client gone before its turn) leaves nothing behind, since a generator
        never started never runs its cleanup. `client` is whom the bounds count it for.
        Streams with the same `view` (e.g. "table", "seat:2") get the same text after a change:
        it is rendered once for all of them, not once per open page."""
        listener = Listener(client)
        with self._lock:
            if self._closed:
                return
            admitted = self._admit(listener)
        if not admitted:
            yield f"retry: {BUSY_RETRY_MS}\n\n".encode()
            yield BYE
            return
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            yield _event(render())
            while not listener.closed:
                if listener.wait(heartbeat_s):
                    if listener.closed:
                        break
                    try:
                        text = self._rendered(view, render) if view else _event(render())
                    except ValueError:  # e.g. a new game without this page's seat
                        break
                    yield text
                else:
                    yield PING
            yield BYE
        finally:
            with self._lock:
                self._listeners.pop(listener, None)

    def _rendered(self, view: str, render: Callable[[], dict[str, Any]]) -> bytes:
        """The event for `view` at the table's latest version, rendered by the first stream
        that asks (the others wait for it rather than render the same view again)."""
        with self._lock:
            lock = self._render_locks.setdefault(view, threading.Lock())
        with lock:
            version, text = self._texts.get(view, (-1, b""))
            if version < self._version:
                payload = render()
                version, text = payload.get("version", 0), _event(payload)
                self._texts[view] = (version, text)
            return text

    def _admit(self, listener: Listener) -> bool:
        """Make room for `listener` within the bounds (under the lock); False: turned away."""
        mine = [other for other in self._listeners if other.client == listener.client]
        if len(mine) >= self.per_client:
            self._end(mine[0])
        elif self.total is not None and len(self._listeners) >= self.total:
            counts = Counter(other.client for other in self._listeners)
            heaviest, most = counts.most_common(1)[0]
            if most <= len(mine) + 1:
                return False
            self._end(next(o for o in self._listeners if o.client == heaviest))
        self._listeners[listener] = None
        return True

    def _end(self, listener: Listener) -> None:
        del self._listeners[listener]
        listener.close()

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


def _event(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {payload.get('version', 0)}\nevent: view\ndata: {data}\n\n".encode()
