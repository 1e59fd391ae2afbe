"""Waitress serving the pages, with event streams handed over to one pusher thread, and a
stop that ends the open event streams first.

A worker thread answers a stream's request with its first view, then hands the connection
over (`PushTask`): the broadcaster's pusher thread queues each later event on the channel,
which sends it without blocking (and waitress's network loop sends what the socket did not
take at once), so an open page holds no worker. The streams are bounded all the same
(web.streams), and sized as if each held a worker, leaving COMMAND_WORKERS threads for
everything else. `stop()` closes every stream, keeps the network loop running until they have
been flushed, and only then shuts the workers down, or the server would linger.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable

from flask import Flask
from waitress import wasyncore
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.server import create_server
from waitress.task import WSGITask

from web.streams import HAND_OVER

# Threads idle on a condition variable, so spare ones cost only their stacks.
THREADS = 128
COMMAND_WORKERS = 16  # never taken by streams: commands, views, pictures
MIN_THREADS = COMMAND_WORKERS + 16  # room for 12 phones' and the table's streams
CONNECTIONS_PER_THREAD = 4  # keep-alive connections idle between requests hold no thread
STREAM_DRAIN_S = 2.0
# A page that stops reading holds at most this much in the kernel (instead of megabytes each,
# as the send buffer grows by itself), then at most MAX_BACKLOG queued here before it is let go.
STREAM_SEND_BUFFER = 128 * 1024
MAX_BACKLOG = 256 * 1024

log = logging.getLogger(__name__)


class WebServer:
    """`serve()` blocks until `stop()` (callable from any thread or a signal handler)."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = THREADS):
        self.app = app
        # Fewer threads than advised (tests): half of them for streams.
        streams = threads - COMMAND_WORKERS if threads >= MIN_THREADS else max(1, threads // 2)
        if threads < MIN_THREADS:
            log.warning(
                "%d web threads: at most %d pages get live updates; %d or more are advised.",
                threads,
                streams,
                MIN_THREADS,
            )
        app.extensions["companion"].broadcaster.total = streams
        self._stop = threading.Event()
        self._stopped = threading.Event()
        self._server = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            connection_limit=CONNECTIONS_PER_THREAD * threads,
            ident="companion",
            # A phone that went to sleep leaves a dead keep-alive socket behind.
            channel_timeout=30,
            clear_untrusted_proxy_headers=True,
        )
        self._server.channel_class = PushChannel

    @property
    def port(self) -> int:
        return int(self._server.effective_port)

    @property
    def host(self) -> str:
        return str(self._server.effective_host)

    def serve(self) -> None:
        server = self._server
        socket_map = server._map
        loop = server.asyncore.loop
        timeout = server.adj.asyncore_loop_timeout
        try:
            while not self._stop.is_set():
                loop(timeout=timeout, map=socket_map, use_poll=True, count=1)
            # Stop: end the event streams, then keep flushing until their threads are done.
            broadcaster = self.app.extensions["companion"].broadcaster
            broadcaster.close()
            deadline = time.monotonic() + STREAM_DRAIN_S
            while broadcaster.count and time.monotonic() < deadline:
                loop(timeout=0.05, map=socket_map, use_poll=True, count=1)
            loop(timeout=0.05, map=socket_map, use_poll=True, count=1)
        finally:
            server.task_dispatcher.shutdown(timeout=STREAM_DRAIN_S)
            wasyncore.close_all(socket_map)
            self._stopped.set()

    def stop(self, wait: bool = False) -> None:
        if not self._stop.is_set():  # a second stop finds the loop's trigger closed
            self._stop.set()
            self._server.pull_trigger()  # wake the network loop now, not at its next timeout
        if wait:
            self._stopped.wait(STREAM_DRAIN_S * 3)


class PushTask(WSGITask):
    """A request whose event stream, after its first view, is handed over to the pusher."""

    handed_over = False

    def get_environment(self) -> dict:
        environ = super().get_environment()
        environ[HAND_OVER] = self._hand_over
        return environ

    def _hand_over(self, gone: Callable[[], None]) -> ChannelWriter | None:
        if not self.has_body:
            return None
        self.handed_over = True
        # Waitress ends a response without a length by closing the connection once the
        # worker is done: here the pusher closes it, when the stream ends.
        self.close_on_finish = False
        channel = self.channel
        channel.gone = gone
        with contextlib.suppress(OSError):  # OSError: closed already
            channel.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_SEND_BUFFER)
        if not channel.connected:  # the page left before the hand-over
            gone()
        return ChannelWriter(self)

    def finish(self) -> None:
        if not self.handed_over:  # else the pusher ends the response
            super().finish()


class PushChannel(HTTPChannel):
    """A connection that may end up carrying an event stream written by the pusher thread."""

    task_class = PushTask
    gone: Callable[[], None] | None = None  # set once the pusher writes this connection

    def received(self, data: bytes) -> bool:
        if self.gone is not None:  # an event stream's page sends nothing more: a misuse
            self.will_close = True
            return False
        return super().received(data)

    def handle_write(self) -> None:
        if self.gone is None:
            super().handle_write()
            return
        # With no request running, waitress flushes without the lock; the pusher appends.
        with self.outbuf_lock:
            super().handle_write()

    def handle_close(self) -> None:
        super().handle_close()
        if self.gone is not None:
            self.gone()


class ChannelWriter:
    """Writes a handed-over stream's events as HTTP chunks; never waits for the page."""

    def __init__(self, task: PushTask) -> None:
        self.task = task
        self.channel = task.channel

    def send(self, data: bytes) -> bool:
        channel = self.channel
        if not channel.connected:
            return False
        if self.task.chunked_response:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        with channel.outbuf_lock:
            if channel.total_outbufs_len > MAX_BACKLOG:
                self._close()
                return False
            try:
                if not channel.total_outbufs_len:  # as a rule: the socket takes it all now
                    sent = channel.send(data, do_close=False)
                    if sent:
                        channel.last_activity = time.time()
                        data = data[sent:]
                if data:  # queued for waitress's network loop
                    channel.write_soon(data)
            except (ClientDisconnected, OSError):
                self._close()
                return False
        return True

    def end(self, data: bytes) -> None:
        try:
            self.task.write(data)
            if self.task.chunked_response:
                self.channel.write_soon(b"0\r\n\r\n")  # the chunked response's end
        except (ClientDisconnected, OSError):
            pass
        self.channel.close_when_flushed = True
        self.channel.server.pull_trigger()

    def _close(self) -> None:
        self.channel.will_close = True
        self.channel.server.pull_trigger()
