"""`companion run --simulate`: the table's pages on waitress, without any hardware.

Opens the Table at DATA_DIR/events.sqlite, builds the web app and serves it until SIGINT or
SIGTERM, which end the open event streams first so the server stops at once.
"""

from __future__ import annotations

import argparse
import logging
import signal
from pathlib import Path

DEFAULT_PORT = 8080
DEFAULT_DATA_DIR = "./var"
EVENTS_FILE = "events.sqlite"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="serve the table's pages", description="Serve the table's phone pages."
    )
    parser.add_argument(
        "--simulate", action="store_true", help="no hardware: pages only (dice entered by hand)"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="TCP port (default 8080)")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default all)")
    parser.add_argument(
        "--data-dir", default=DEFAULT_DATA_DIR, help="where the event log and secrets live"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.table import Table
    from web.access import Access, base_url
    from web.app import create_app
    from web.server import WebServer

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    data_dir = Path(args.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    table = Table.open(data_dir / EVENTS_FILE)
    try:
        app = create_app(table, data_dir, public_port=args.port)
        server = WebServer(app, args.host, args.port)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: server.stop())
        url = base_url(server.port)
        print(f"Table page: {url}/", flush=True)
        print(f"Host page:  {url}/host   PIN {Access.load(data_dir).pin}", flush=True)
        server.serve()
    finally:
        table.close()
    return 0
