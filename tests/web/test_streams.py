"""Live updates: every open page gets the new view after a command, and streams end on stop."""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import threading
import time
from contextlib import contextmanager

from webplay import NAMES, host_client, seat_client, start_game

import web.server
from companion.game import load_game
from companion.game.protocol import Command
from companion.game.random_play import play_random_game
from web.access import HOST_COOKIE
from web.app import Limits, create_app
from web.server import WebServer
from web.streams import BUSY_RETRY_MS, PER_CLIENT, Broadcaster


def events(response):
    """Parse an SSE body as (event, data) pairs, lazily."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1)
                for line in block.splitlines()
                if ": " in line and line[0] != ":"
            )
            if "event" in fields:
                yield fields["event"], json.loads(fields["data"])


def test_stream_sends_the_current_view_then_each_change(app, host, table):
    start_game(host)
    response = app.test_client().get("/api/table/stream", buffered=False)
    assert response.mimetype == "text/event-stream"
    stream = events(response)
    kind, first = next(stream)
    assert kind == "view" and first["version"] == table.version
    choice = table.legal(0)[0]
    started = time.perf_counter()
    threading.Timer(0.05, lambda: table.submit(choice)).start()
    kind, second = next(stream)
    elapsed = time.perf_counter() - started - 0.05
    assert kind == "view" and second["version"] > first["version"]
    assert second["view"]["seats"][0]["chosen"] is True
    assert elapsed < 0.25  # bench/web.py measures the real figure (p99 well under 100 ms)
    response.close()


def test_seat_stream_carries_only_that_seats_view(app, host, table):
    start_game(host)
    ana = next(events(seat_client(app, 0).get("/api/seat/stream", buffered=False)))[1]
    ben = next(events(seat_client(app, 1).get("/api/seat/stream", buffered=False)))[1]
    assert ana["view"]["you"]["seat"] == 0 and ben["view"]["you"]["seat"] == 1
    assert ana["view"]["you"]["dealt"] != ben["view"]["you"]["dealt"]
    assert app.test_client().get("/api/seat/stream").status_code == 403
    assert app.test_client().get("/api/host/stream").status_code == 403


def test_closing_the_broadcaster_ends_every_stream(app, host, web):
    start_game(host)
    streams = [events(app.test_client().get("/api/table/stream", buffered=False)) for _ in range(3)]
    streams.append(events(host_client(app).get("/api/host/stream", buffered=False)))
    for stream in streams:
        assert next(stream)[0] == "view"
    assert web.broadcaster.count == 4
    web.broadcaster.close()
    for stream in streams:
        assert [kind for kind, _ in stream] == ["bye"]
    assert web.broadcaster.count == 0


def test_a_slow_page_catches_up_with_the_newest_view_at_once(app, host, table):
    start_game(host)
    stream = events(app.test_client().get("/api/table/stream", buffered=False))
    next(stream)
    for seat in range(3):  # three changes while the page is not reading
        assert table.submit(Command.from_json(table.legal(seat)[0].to_json())).ok
    _, view = next(stream)
    assert view["version"] == table.version


def test_dropping_the_streams_lets_pages_reconnect(app, host, web):
    start_game(host)
    client = app.test_client()
    first = events(client.get("/api/table/stream", buffered=False))
    assert next(first)[0] == "view"
    web.broadcaster.drop_all()
    assert [kind for kind, _ in first] == ["bye"]
    again = events(client.get("/api/table/stream", buffered=False))
    assert next(again)[0] == "view"
    assert web.broadcaster.count == 1


def test_a_seat_stream_ends_when_a_new_game_has_no_such_seat(app, host, web):
    start_game(host)  # three seats
    stream = events(seat_client(app, 2).get("/api/seat/stream", buffered=False))
    assert next(stream)[0] == "view"
    response = host.post("/api/host/new-game", json={"seats": ["Ana", "Ben"]})
    assert response.status_code == 200
    assert [kind for kind, _ in stream] == ["bye"]


def test_streams_dropped_before_their_first_event_leave_no_listener(app, host, web, table):
    """HEAD requests and responses closed unread hold no listener that every change would
    wake for as long as the companion runs."""
    start_game(host)
    client = app.test_client()
    for _ in range(25):
        assert client.head("/api/table/stream").status_code == 200
        client.get("/api/table/stream", buffered=False).close()
    assert web.broadcaster.count == 0
    stream = events(client.get("/api/table/stream", buffered=False))
    assert next(stream)[0] == "view"
    assert web.broadcaster.count == 1
    assert table.submit(Command.from_json(table.legal(0)[0].to_json())).ok
    assert next(stream)[1]["version"] == table.version


def test_a_client_keeps_at_most_eight_streams_its_oldest_end_first(app, host, web):
    """A phone that reconnects often leaves old streams behind: its newest ones stay live."""
    start_game(host)
    phone = app.test_client()
    streams = [events(phone.get("/api/table/stream", buffered=False)) for _ in range(10)]
    for stream in streams:
        assert next(stream)[0] == "view"
    assert web.broadcaster.count == PER_CLIENT == 8
    for old in streams[:2]:
        assert [kind for kind, _ in old] == ["bye"]
    # another phone is not counted with this one
    seat = events(seat_client(app, 0).get("/api/seat/stream", buffered=False))
    assert next(seat)[0] == "view"
    assert web.broadcaster.count == 9


def test_at_the_total_the_client_with_most_streams_gives_way(app, host, web):
    start_game(host)
    web.broadcaster.total = 4
    greedy = app.test_client()
    greedy_streams = [events(greedy.get("/api/table/stream", buffered=False)) for _ in range(4)]
    for stream in greedy_streams:
        assert next(stream)[0] == "view"
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    fair = events(other.get("/api/table/stream", buffered=False))
    assert next(fair)[0] == "view"
    assert [kind for kind, _ in greedy_streams[0]] == ["bye"]
    # the greedy client asks again: turned away, told to retry later, nobody else ends
    response = greedy.get("/api/table/stream", buffered=False)
    body = b"".join(response.response).decode()
    assert f"retry: {BUSY_RETRY_MS}" in body and "event: bye" in body and "event: view" not in body
    assert web.broadcaster.count == 4


def test_a_thousand_streams_from_one_client_leave_commands_answering(table, data_dir):
    """Streams hold worker threads: however many one client opens, commands still answer
    once the server has seen them all (a command starved of threads would hang to its
    timeout; on a busy machine one may wait up to the server loop's one-second wake)."""
    app = create_app(
        table, data_dir, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)), fixed_seeds=True
    )
    server = WebServer(app, "127.0.0.1", 0, threads=48)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    sockets = []
    try:
        host = host_client(app)
        session = host.get_cookie(HOST_COOKIE).value
        start_game(host)
        request = b"GET /api/table/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for _ in range(1000):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            sock.sendall(request)
            sockets.append(sock)
        waiting = selectors.DefaultSelector()
        for sock in sockets:
            waiting.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + 60
        while waiting.get_map() and time.monotonic() < deadline:
            for key, _ in waiting.select(timeout=1.0):
                key.fileobj.recv(4096)
                waiting.unregister(key.fileobj)
        assert not waiting.get_map(), f"{len(waiting.get_map())} streams got no answer"
        assert app.extensions["companion"].broadcaster.count == PER_CLIENT
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        headers = {"Cookie": f"{HOST_COOKIE}={session}", "Content-Type": "application/json"}
        body = json.dumps({"seats": ["Ana", "Ben"]})
        took = []
        for _ in range(20):
            started = time.perf_counter()
            conn.request("POST", "/api/host/new-game", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            took.append(time.perf_counter() - started)
            assert response.status == 200
        assert max(took) < 1.0, [round(t * 1000) for t in took]
    finally:
        for sock in sockets:
            sock.close()
        server.stop(wait=True)
        thread.join(10)


def test_pages_showing_the_same_view_share_one_rendering_of_each_change():
    """A change is rendered once per view, not once per open page (a hundred open table
    pages would otherwise delay every page's update)."""
    changed = []
    broadcaster = Broadcaster(lambda callback: changed.append(callback) or (lambda: None))
    version = [1]
    renders = []

    def render():
        renders.append(version[0])
        return {"version": version[0]}

    streams = [broadcaster.stream(render, client=f"phone {i}", view="table") for i in range(20)]
    for stream in streams:
        next(stream), next(stream)  # retry, then the view as it is
    renders.clear()
    version[0] = 2
    changed[0](2)
    texts = {next(stream) for stream in streams}
    assert texts == {b'id: 2\nevent: view\ndata: {"version":2}\n\n'}
    assert renders == [2]
    broadcaster.close()


@contextmanager
def served(app, threads: int):
    """`app` on a real waitress server at 127.0.0.1 with `threads` workers."""
    server = WebServer(app, "127.0.0.1", 0, threads=threads)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop(wait=True)
        thread.join(10)


def open_stream(server, path="/api/table/stream", cookie="", phone=1):
    """A page's event stream over HTTP/1.1, from its own loopback address (phones each have
    theirs): the response (closing it hangs up) and its (event, data) pairs, as they arrive."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", server.port, timeout=5, source_address=(f"127.0.1.{phone}", 0)
    )
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = conn.getresponse()
    assert response.status == 200

    def parse():
        kind = None
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind:
                yield kind, json.loads(line[6:])
                kind = None

    return response, parse()


def wait_until(condition, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_open_pages_hold_no_worker_each_gets_every_change(table, data_dir):
    """Four open pages on a server with two workers: every page gets each change, and commands
    still answer (a stream is written by one pusher thread after its first view)."""
    app = create_app(
        table, data_dir, limits=Limits(reads=(1e6, 1e6), writes=(1e6, 1e6)), fixed_seeds=True
    )
    host = host_client(app)
    start_game(host)
    with served(app, threads=2) as server:
        app.extensions["companion"].broadcaster.total = None  # the bounds are tested above
        pages = [open_stream(server, phone=i) for i in range(1, 5)]
        for _, events in pages:
            assert next(events)[0] == "view"
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        cookie = f"{HOST_COOKIE}={host.get_cookie(HOST_COOKIE).value}"
        body = json.dumps({"seats": ["Ana", "Ben"], "seed": 3})
        for _ in range(3):
            conn.request(
                "POST",
                "/api/host/new-game",
                body=body,
                headers={"Cookie": cookie, "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            assert response.status == 200
            for _, events in pages:
                kind, view = next(events)
                assert kind == "view" and view["version"] == table.version
                assert view["seats"] == ["Ana", "Ben"]
        for page, _ in pages:
            page.close()


def test_seat_streams_carry_only_their_seats_view_after_each_change(table, data_dir):
    """CHAC-FAIR-1: over the real server too, a seat's stream gets its own seat view after a
    change and the table's stream no seat's."""
    app = create_app(table, data_dir, fixed_seeds=True)
    host = host_client(app)
    start_game(host)
    with served(app, threads=32) as server:
        access = app.extensions["companion"].access
        seats = [
            open_stream(server, "/api/seat/stream", f"companion_seat={access.seat_token(s)}", s + 1)
            for s in range(3)
        ]
        _, public = open_stream(server, phone=9)
        for _, events in [*seats, (None, public)]:
            assert next(events)[0] == "view"
        assert table.submit(table.legal(0)[0]).ok
        bodies = {}
        for seat, (_, events) in enumerate(seats):
            kind, view = next(events)
            assert kind == "view" and view["version"] == table.version
            assert view["seat"] == seat and view["view"]["you"]["seat"] == seat
            bodies[seat] = json.dumps(view)
        kind, view = next(public)
        assert kind == "view" and "you" not in view["view"]
        bodies["table"] = json.dumps(view)
        for seat in (1, 2):  # still choosing: the two adventurers dealt to them are secret
            for name in table.seat_view(seat)["you"]["dealt"]:
                assert [page for page, body in bodies.items() if name in body] == [seat]
        for page, _ in seats:
            page.close()


def test_a_page_that_hangs_up_leaves_no_stream_behind(table, data_dir):
    app = create_app(table, data_dir)
    with served(app, threads=32) as server:
        broadcaster = app.extensions["companion"].broadcaster
        pages = [open_stream(server, phone=i) for i in range(1, 4)]
        for _, events in pages:
            next(events)
        assert broadcaster.count == 3
        for page, _ in pages:
            page.close()
        assert wait_until(lambda: broadcaster.count == 0), broadcaster.count


def test_an_idle_page_hears_a_ping_and_stop_ends_its_stream(table, data_dir):
    app = create_app(table, data_dir)
    broadcaster = app.extensions["companion"].broadcaster
    broadcaster.heartbeat_s = 0.2
    with served(app, threads=32) as server:
        page, events = open_stream(server)
        assert next(events)[0] == "view"
        assert next(events)[0] == "ping"
        server.stop(wait=True)
        assert [kind for kind, _ in events if kind != "ping"] == ["bye"]  # then the end
        page.close()
    assert broadcaster.count == 0


def test_a_page_that_stops_reading_is_let_go_and_the_others_keep_up(table, data_dir, monkeypatch):
    """Events a page does not take wait in the server's queue; a page too far behind (here:
    behind at all) is disconnected, and the pages that read get every change meanwhile."""
    monkeypatch.setattr(web.server, "MAX_BACKLOG", 0)
    app = create_app(table, data_dir, fixed_seeds=True)
    host = host_client(app)
    start_game(host, seed=5)
    broadcaster = app.extensions["companion"].broadcaster
    with served(app, threads=32) as server:
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # a tiny window, never read
        stuck.bind(("127.0.1.1", 0))
        stuck.connect(("127.0.0.1", server.port))
        stuck.sendall(b"GET /api/table/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        page, events = open_stream(server, phone=2)
        assert next(events)[0] == "view"
        assert wait_until(lambda: broadcaster.count == 2)
        commands = play_random_game(load_game("chac"), NAMES, 5).commands
        for command in commands:
            assert table.submit(command).ok
            kind, view = next(events)
            assert kind == "view" and view["version"] == table.version
            if broadcaster.count == 1:
                break
        assert broadcaster.count == 1, f"the stuck page still open after {len(commands)} changes"
        stuck.settimeout(5)
        while stuck.recv(65536):  # what the server had sent, then the end of the connection
            pass
        stuck.close()
        page.close()
