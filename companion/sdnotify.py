"""systemd's notify protocol: readiness, watchdog pings, status text, stopping.

A datagram to the socket named by $NOTIFY_SOCKET (sd_notify(3)); a name starting with "@" is
in the abstract namespace. Outside systemd there is no socket and every call does nothing.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, address: str | None = None):
        address = address if address is not None else os.environ.get("NOTIFY_SOCKET", "")
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._sock: socket.socket | None = None
        if self._address:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @property
    def enabled(self) -> bool:
        return self._sock is not None

    def notify(self, **fields: str | int) -> bool:
        """Send KEY=value lines; False when there is no manager or it did not take them."""
        if self._sock is None:
            return False
        message = "\n".join(f"{key}={value}" for key, value in fields.items())
        try:
            self._sock.sendto(message.encode(), self._address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.notify(READY=1, **({"STATUS": status} if status else {}))

    def watchdog(self) -> bool:
        return self.notify(WATCHDOG=1)

    def status(self, text: str) -> bool:
        return self.notify(STATUS=text.replace("\n", " "))

    def stopping(self) -> bool:
        return self.notify(STOPPING=1)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def watchdog_interval() -> float | None:
    """Seconds between pings (half of WatchdogSec), or None when no watchdog watches us."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 2_000_000
