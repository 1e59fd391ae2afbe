"""Who may do what: seat tokens, the host PIN, and the URLs that carry them.

Each seat has an unguessable token (128 bits from `secrets`) carried by its join URL and QR
code; the first visit stores it in an HttpOnly cookie. Host actions need a PIN that the OLED
shows. Everything lives in DATA_DIR/access.json so a restart keeps phones and QR codes valid.
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
import threading
from pathlib import Path

from companion.atomic_file import write_atomically

SEAT_COOKIE = "companion_seat"
HOST_COOKIE = "companion_host"
MAX_SEATS = 6
PIN_DIGITS = 6


def lan_ip() -> str | None:
    """The address other machines on the LAN reach us at, or None when there is no network.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would route.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def base_url(port: int, host: str | None = None) -> str:
    """Root URL for phones: the LAN IP when known (`.local` names fail on some phones)."""
    return f"http://{host or lan_ip() or '127.0.0.1'}:{port}"


class Access:
    """Seat tokens, the host PIN and host sessions, persisted as JSON in the data directory.

    Every change is on disk before it takes effect: when the file cannot be written, the
    change raises companion.atomic_file.SaveError and memory keeps what the disk has.
    """

    def __init__(self, path: Path, data: dict):
        self._path = path
        self._lock = threading.Lock()
        self._seats: list[str] = list(data["seats"])
        self._pin: str = data["pin"]
        self._host_sessions: list[str] = list(data.get("host_sessions", []))

    @classmethod
    def load(cls, data_dir: str | Path) -> Access:
        """Read DATA_DIR/access.json, creating it (and fresh secrets) on first use."""
        path = Path(data_dir) / "access.json"
        try:
            data = json.loads(path.read_text())
        except FileNotFoundError:
            data = {
                "seats": [secrets.token_urlsafe(16) for _ in range(MAX_SEATS)],
                "pin": f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}",
                "host_sessions": [],
            }
            _save(path, data)
        return cls(path, data)

    @property
    def pin(self) -> str:
        """The host PIN, for the OLED."""
        return self._pin

    def seat_token(self, seat: int) -> str:
        return self._seats[seat]

    def seat_for(self, token: str | None) -> int | None:
        """The seat a token belongs to, compared in constant time; None for anything else."""
        if not token:
            return None
        found = None
        for seat, known in enumerate(self._seats):
            if hmac.compare_digest(known.encode(), token.encode()):
                found = seat
        return found

    def check_pin(self, pin: object) -> bool:
        return isinstance(pin, str) and hmac.compare_digest(pin.encode(), self._pin.encode())

    def open_host_session(self) -> str:
        """A new host cookie value; the last few stay valid so two host phones can coexist."""
        session = secrets.token_urlsafe(16)
        with self._lock:
            sessions = [*self._host_sessions[-7:], session]
            _save(self._path, self._data(host_sessions=sessions))
            self._host_sessions = sessions
        return session

    def is_host(self, session: str | None) -> bool:
        if not session:
            return False
        return any(hmac.compare_digest(s.encode(), session.encode()) for s in self._host_sessions)

    def reissue_seats(self) -> None:
        """New tokens for every seat (new players): old links and cookies stop working."""
        with self._lock:
            seats = [secrets.token_urlsafe(16) for _ in range(MAX_SEATS)]
            _save(self._path, self._data(seats=seats))
            self._seats = seats

    def join_path(self, seat: int) -> str:
        return f"/join/{self.seat_token(seat)}"

    def _data(self, **changes: object) -> dict:
        data = {"seats": self._seats, "pin": self._pin, "host_sessions": self._host_sessions}
        return {**data, **changes}


def _save(path: Path, data: dict) -> None:
    # Owner-only (write_atomically's default): the file holds every secret to the table.
    write_atomically(path, json.dumps(data).encode())


def join_url(data_dir: str | Path, seat: int, port: int = 8080, host: str | None = None) -> str:
    """The URL a seat's QR code carries (for the OLED screens)."""
    return base_url(port, host) + Access.load(data_dir).join_path(seat)


def host_url(port: int = 8080, host: str | None = None) -> str:
    """The host page's URL (for the OLED screens); the page asks for the PIN."""
    return base_url(port, host) + "/host"


def host_pin(data_dir: str | Path) -> str:
    """The host PIN (for the OLED screens)."""
    return Access.load(data_dir).pin
