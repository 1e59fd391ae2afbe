"""The systemd notify protocol, against a real datagram socket standing in for the manager."""

from __future__ import annotations

import os
import socket

import pytest

from companion.sdnotify import Notifier, watchdog_interval


@pytest.fixture
def manager(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_ready_watchdog_status_and_stopping_reach_the_manager(manager, monkeypatch):
    path, sock = manager
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    notifier = Notifier()
    assert notifier.ready("Serving on port 8080")
    assert sock.recv(4096) == b"READY=1\nSTATUS=Serving on port 8080"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.status("Camera lost\nretrying")
    assert sock.recv(4096) == b"STATUS=Camera lost retrying"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()


def test_abstract_socket_names_start_with_at():
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"chac-test-{os.getpid()}"
    sock.bind("\0" + name)
    sock.settimeout(2)
    try:
        assert Notifier("@" + name).ready()
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_outside_systemd_every_call_is_a_quiet_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    assert not notifier.ready()
    assert not notifier.watchdog()


def test_a_vanished_manager_does_not_crash_the_service(tmp_path):
    assert not Notifier(str(tmp_path / "gone")).watchdog()


def test_watchdog_interval_is_half_of_watchdog_sec(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert watchdog_interval() is None
