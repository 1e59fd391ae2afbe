"""Server-sent events: the table's change notices fanned out to one listener per open page.

The table calls back with its new version after every accepted change; each listener keeps
only the latest version (a slow phone skips straight to the newest view instead of replaying
a backlog). Streams with the same view (e.g. "table", "seat 2") share one rendering of each
change, so one page's view never reaches another page's stream and a hundred open table
pages cost one rendering.

A stream starts in the request's worker thread (its first view at once). When the server
can take it over (`hand_over`, see web.server), the rest of it is written by one pusher
thread for every open page, and the worker goes back to answering requests; otherwise (the
test client) the worker keeps the stream to its end.

Streams are bounded all the same: a client (a phone's cookie, else its address) keeps at
most `per_client` open, its oldest ending when it opens one more (a page that reconnected
left its old stream behind); and all clients together keep at most `total`. At the total,
the client with the most streams gives up its oldest, unless it is the one asking: then the
new stream is turned away and the page retries later.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, Protocol

HEARTBEAT_S = 15.0  # keeps an idle stream open and lets the page notice a dead one
RETRY_MS = 1000  # EventSource's first reconnect delay; the page adds its own backoff
PING = b"event: ping\ndata: {}\n\n"  # an event, so the page can watch for it
BYE = b"event: bye\ndata: {}\n\n"
BUSY_RETRY_MS = 10_000  # a stream turned away: the page tries again this much later
PER_CLIENT = 8  # a phone's table, seat and host pages, and streams of pages it reopened

Render = Callable[[], dict[str, Any]]

log = logging.getLogger(__name__)


class Writer(Protocol):
    """The server's side of a stream it took over: writes without waiting for the page."""

    def send(self, data: bytes) -> bool:
        """Queue `data` for the page; False when the page is gone (or far behind)."""

    def end(self, data: bytes) -> None:
        """Queue `data` as the stream's last event, then close the connection."""


HAND_OVER = "companion.hand_over"  # the WSGI environ key of the server's HandOver, if any

# hand_over(gone) -> a Writer for the rest of the stream, or None: the worker keeps it.
# The server calls `gone()` when the page's connection closes.
HandOver = Callable[[Callable[[], None]], Writer | None]


class Listener:
    """One open event stream: a wake-up flag, what it shows, and (once taken over by the
    pusher) its writer and the version it last received."""

    def __init__(self, client: str, view: str, render: Render) -> None:
        self.client = client
        self.view = view
        self.render = render
        self._changed = threading.Event()
        self.closed = False
        self.writer: Writer | None = None
        self.sent = -1  # version of the last view written
        self.written_at = 0.0  # monotonic time of the last write

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
        heartbeat_s: float = HEARTBEAT_S,
    ):
        self.per_client = per_client
        self.total = total  # None: unbounded (the web server sets it from its worker count)
        self.heartbeat_s = heartbeat_s
        self._listeners: dict[Listener, None] = {}  # oldest first
        self._pushed: dict[Listener, None] = {}  # written by the pusher thread
        self._lock = threading.Lock()
        self._wake = threading.Event()  # the pusher has work
        self._pusher: threading.Thread | None = None
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
            listeners = [listener for listener in self._listeners if listener.writer is None]
        for listener in listeners:  # the streams that wait in their own thread
            listener.notify()
        self._wake.set()  # and the pusher, for the others

    def stream(
        self, render: Render, client: str = "", view: str = "", hand_over: HandOver | None = None
    ) -> Iterator[bytes]:
        """SSE text, UTF-8: the current view at once, then a new view after every change.

        The stream listens from its first chunk on: a response dropped before it is sent (a
        HEAD request, a client gone before its turn) leaves nothing behind, since a generator
        never started never runs its cleanup. `client` is whom the bounds count it for.
        Streams with the same `view` get the same text after a change: it is rendered once
        for all of them, not once per open page. With `hand_over`, the stream ends for the
        caller after its first view, the pusher writing the rest."""
        listener = Listener(client, view, render)
        with self._lock:
            if self._closed:
                return
            admitted = self._admit(listener)
        if not admitted:
            yield f"retry: {BUSY_RETRY_MS}\n\n".encode()
            yield BYE
            return
        pushed = False
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            listener.sent, text = self._render(listener)
            yield text
            if hand_over is not None:
                writer = hand_over(lambda: self._hang_up(listener))
                if writer is not None:
                    pushed = True
                    self._push_from_now(listener, writer)
                    return
            while not listener.closed:
                if listener.wait(self.heartbeat_s):
                    if listener.closed:
                        break
                    try:
                        listener.sent, text = self._rendered(listener)
                    except ValueError:  # e.g. a new game without this page's seat
                        break
                    yield text
                else:
                    yield PING
            yield BYE
        finally:
            if not pushed:
                with self._lock:
                    self._listeners.pop(listener, None)

    def _render(self, listener: Listener) -> tuple[int, bytes]:
        """The listener's view rendered now: its version and its event."""
        payload = listener.render()
        return payload.get("version", 0), _event(payload)

    def _rendered(self, listener: Listener) -> tuple[int, bytes]:
        """The event for the listener's view at the table's latest version, rendered by the
        first stream that asks (the others wait for it rather than render the same view
        again)."""
        view = listener.view
        if not view:
            return self._render(listener)
        with self._lock:
            lock = self._render_locks.setdefault(view, threading.Lock())
        with lock:
            version, text = self._texts.get(view, (-1, b""))
            if version < self._version:
                version, text = self._render(listener)
                self._texts[view] = (version, text)
            return version, text

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
        self._wake.set()

    def _hang_up(self, listener: Listener) -> None:
        """The page's connection closed: the pusher forgets its stream."""
        listener.close()
        self._wake.set()

    # --- the pusher: one thread writes every stream the server handed over ----------------

    def _push_from_now(self, listener: Listener, writer: Writer) -> None:
        listener.writer = writer
        listener.written_at = time.monotonic()
        with self._lock:
            self._pushed[listener] = None
            if self._pusher is None:
                self._pusher = threading.Thread(target=self._push, name="sse-pusher", daemon=True)
                self._pusher.start()
        self._wake.set()  # a change may have come between its first view and now

    def _push(self) -> None:
        while True:
            self._wake.wait(self.heartbeat_s / 3)
            self._wake.clear()
            with self._lock:
                streams = list(self._pushed)
            now = time.monotonic()
            for listener in streams:
                try:
                    self._push_to(listener, now)
                except Exception:  # one page's failure must not stop the others' updates
                    log.exception("An event stream failed")
                    self._finish(listener, None)
            with self._lock:
                if self._closed and not self._pushed:
                    self._pusher = None
                    return

    def _push_to(self, listener: Listener, now: float) -> None:
        writer = listener.writer
        assert writer is not None
        if listener.closed:
            self._finish(listener, BYE)
            return
        if listener.sent < self._version:
            try:
                listener.sent, text = self._rendered(listener)
            except ValueError:  # e.g. a new game without this page's seat
                self._finish(listener, BYE)
                return
        elif now - listener.written_at >= self.heartbeat_s:
            text = PING
        else:
            return
        listener.written_at = now
        if not writer.send(text):
            self._finish(listener, None)

    def _finish(self, listener: Listener, last: bytes | None) -> None:
        """End a pushed stream: `last` is its final event (None: the page is gone)."""
        with self._lock:
            self._pushed.pop(listener, None)
            self._listeners.pop(listener, None)
        listener.closed = True
        if last is not None and listener.writer is not None:
            listener.writer.end(last)

    # --- ending streams ----------------------------------------------------------------

    def drop_all(self) -> None:
        """End the streams open now (pages reconnect, and are checked again); keep serving."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()
        self._wake.set()

    def close(self) -> None:
        """End every open stream (before the server stops, or its threads linger)."""
        with self._lock:
            self._closed = True
            listeners = list(self._listeners)
        for listener in listeners:
            listener.close()
        self._wake.set()
        self._unsubscribe()


def _event(payload: dict[str, Any]) -> bytes:
    data = json.dumps(payload, separators=(",", ":"))
    return f"id: {payload.get('version', 0)}\nevent: view\ndata: {data}\n\n".encode()
