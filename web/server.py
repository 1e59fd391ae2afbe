"""Waitress serving the pages, with a stop that ends the open event streams first.

An open event stream holds a waitress worker thread until it ends. So the streams are bounded
to leave COMMAND_WORKERS threads for everything else (web.streams), however many pages or
attackers open streams; and `stop()` closes every stream, keeps the network loop running until
they have been flushed, and only then shuts the workers down, or the server would linger.
"""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

# Each open page holds one worker thread for its event stream. Threads idle on a condition
# variable, so spare ones cost only their stacks.
THREADS = 128
COMMAND_WORKERS = 16  # never taken by streams: commands, views, pictures
MIN_THREADS = COMMAND_WORKERS + 16  # room for 12 phones' and the table's streams
CONNECTIONS_PER_THREAD = 4  # keep-alive connections idle between requests hold no thread
STREAM_DRAIN_S = 2.0

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
        self._stop.set()
        self._server.pull_trigger()  # wake the network loop now, not at its next timeout
        if wait:
            self._stopped.wait(STREAM_DRAIN_S * 3)
