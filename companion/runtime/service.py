"""The running companion: settings -> hardware + table + web server, and the main loop.

One process owns everything (GPIO, camera, OLED, the event log, the web server), so nothing
else can fight over a device. Threads:

- main: the loop. Turns button events into commands, keeps the OLED showing the table, pings
  systemd's watchdog only while the other threads are alive and making progress.
- camera: reads frames at `camera.fps`, hands them to the roll watcher, reopens a failed
  camera every `camera.retry_after` seconds (manual dice entry works meanwhile).
- web: waitress serving the pages.

On a Raspberry Pi (or `hardware = "pi"`) the real drivers are used; elsewhere (or with
`--simulate`) gpiozero's MockFactory pins, an OLED mirrored on a page, and a camera that
renders dice into a tray, so the same code runs on a laptop (controls at /sim). SIGTERM stops
cleanly: systemd is told, the event streams end, the camera closes, the OLED is blanked, the
log is flushed.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import product
from companion.atomic_file import SaveError, disk_fault, disk_state
from companion.config import BUTTON_NAMES, Config, ConfigError, is_raspberry_pi
from companion.data_lock import DataDirBusy, DataDirLock
from companion.sdnotify import Notifier, watchdog_interval
from companion.table import Table

log = logging.getLogger(__name__)

LOOP_TICK_S = 0.05
DISPLAY_RETRY_S = 30.0
CALIBRATION_SCREEN_S = 300.0  # the OLED guides calibration until it rests this long
# Buffers this large get their own mapping from glibc, returned to the system when freed:
# numpy's own line for huge pages (4 MiB).
LARGE_BUFFER_BYTES = 4 * 2**20
M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


@dataclass
class Health:
    """What the host page and the OLED say about the hardware; written by the worker threads."""

    camera: str = "starting"  # "ok", "off", or a sentence saying what is wrong
    display: str = "starting"
    buttons: str = "starting"
    changed: threading.Event = field(default_factory=threading.Event, repr=False)

    def set(self, part: str, text: str) -> None:
        if getattr(self, part) != text:
            setattr(self, part, text)
            self.changed.set()

    def as_json(self) -> dict[str, str]:
        return {"camera": self.camera, "display": self.display, "buttons": self.buttons}


class CameraWorker:
    """Reads the camera at a steady rate on its own thread; survives the camera going away.

    `on_frame(frame)` runs on this thread for every frame. A CameraError closes the camera,
    reports the error through `health`, calls `on_lost()` (the last frame is no longer what
    the camera sees), and the camera is reopened after `retry_after` seconds, for as long as
    the service runs.
    """

    def __init__(
        self,
        camera: Any,
        on_frame: Callable[[Any], None],
        health: Health,
        fps: float,
        retry_after: float,
        on_lost: Callable[[], None] = lambda: None,
    ):
        self.camera = camera
        self.on_frame = on_frame
        self.on_lost = on_lost
        self.health = health
        self.period = 1.0 / fps
        self.retry_after = retry_after
        self.heartbeat = time.monotonic()
        self._reader_failing = False
        self._reopen = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def reopen(self) -> None:
        """Close and open the camera before the next frame (its settings changed)."""
        self._reopen.set()

    def alive(self, within: float) -> bool:
        """The thread runs and finished a step (a frame or a retry wait) within `within` s."""
        return self._thread.is_alive() and time.monotonic() - self.heartbeat < within

    def _run(self) -> None:
        from hardware.camera import CameraError

        while not self._stop.is_set():
            self.heartbeat = time.monotonic()
            try:
                if self._reopen.is_set():
                    self._reopen.clear()
                    self.camera.close()
                if not self.camera.is_open:
                    self.camera.open()
                    log.info("Camera open: %s", getattr(self.camera, "name", "camera"))
                frame = self.camera.read()
            except CameraError as exc:
                self._failed(str(exc))
                continue
            except Exception as exc:  # a driver bug must not end the retries
                log.exception("The camera failed unexpectedly")
                self._failed(f"The camera failed ({exc}).")
                continue
            self.health.set("camera", "ok")
            try:
                self.on_frame(frame)
                self._reader_failing = False
            except Exception:
                if not self._reader_failing:  # once per run of failures, not every frame
                    log.exception("Reading the dice failed on frame %s", frame.index)
                self._reader_failing = True
            self._stop.wait(max(0.0, self.period - (time.monotonic() - self.heartbeat)))

    def _failed(self, message: str) -> None:
        if self.health.camera != message:
            log.warning("Camera: %s Retrying every %g s.", message, self.retry_after)
        self.health.set("camera", message)
        self.on_lost()
        try:
            self.camera.close()
        except Exception:
            log.exception("Closing the failed camera failed")
        # Each wait counts as progress for the watchdog: a missing camera is not a hang.
        deadline = time.monotonic() + self.retry_after
        while not self._stop.is_set() and time.monotonic() < deadline:
            self.heartbeat = time.monotonic()
            self._stop.wait(min(1.0, deadline - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        try:
            self.camera.close()
        except Exception:
            log.exception("Closing the camera failed")


def keep_large_buffers_out_of_the_heap() -> None:
    """Large image buffers must not leave resident memory behind in the malloc heaps; for
    the whole process.

    numpy advises transparent huge pages on buffers of 4 MiB and more. glibc raises its mmap
    threshold to the largest block freed so far (up to 32 MiB), so after the first camera
    frames such buffers are carved from the heaps, and the advice outlives them there: the
    kernel's khugepaged fills whole 2 MiB pages around freed memory, and the resident size
    crept up game after game (bench/soak.py). So numpy gives no such advice, and a fixed
    threshold keeps the large buffers in mappings of their own, unmapped when freed. Smaller
    buffers stay in the heaps: mapping every frame anew costs page faults."""
    import ctypes
    import ctypes.util
    import os
    import sys

    os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")  # read when numpy is imported
    numpy = sys.modules.get("numpy")
    if numpy is not None and os.environ["NUMPY_MADVISE_HUGEPAGE"] == "0":
        core = getattr(numpy, "_core", None) or numpy.core  # numpy 2 / numpy 1
        core.multiarray._set_madvise_hugepage(False)
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt if name else None
    except (OSError, AttributeError):  # not glibc: no such threshold to fix
        mallopt = None
    if mallopt is not None and not mallopt(M_MMAP_THRESHOLD, LARGE_BUFFER_BYTES):
        log.warning("Could not fix the allocator's mmap threshold; memory may creep up.")


def uses_real_hardware(config: Config, simulate: bool) -> bool:
    if simulate or config.hardware == "sim":
        return False
    return config.hardware == "pi" or is_raspberry_pi()


def make_data_dir(data_dir: Path) -> None:
    """The data directory, made if missing; a ConfigError names the setting when it cannot be."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise ConfigError(f"data_dir: {data_dir} is a file, not a folder") from None
    except OSError as exc:
        raise ConfigError(f"data_dir: cannot make the folder {data_dir} ({exc.strerror})") from exc


def open_table(data_dir: Path) -> Table:
    """The table on the data directory's log, once the log is checked (without writing to
    it): a damaged log, or one that lost acknowledged entries, raises LogNeedsOwner. On a
    read-only disk the table opens for viewing; commands are refused, naming the disk."""
    from companion.log_check import LogNeedsOwner, check
    from companion.store import DB_NAME, Store

    path = data_dir / DB_NAME
    report = check(path)
    if not report.ok:
        raise LogNeedsOwner(report, data_dir)
    disk = disk_state(data_dir)
    if disk != "ok":
        log.warning("Commands will be refused: %s.", disk_fault(data_dir))
    if disk == "read-only":
        return Table(Store(path, readonly=True))
    return Table.open(path)


def check_files(config: Config) -> None:
    """Files the settings name must be there: a default in their place would go unnoticed."""
    profile = config.dice.profile
    if profile and not Path(profile).is_file():
        raise ConfigError(
            f"dice.profile: no file {profile} (leave it empty for DATA_DIR/profile.toml, "
            "which calibration writes)"
        )


class Screen:
    """The OLED, kept from ever taking the service down.

    `open_display()` returns a display (hardware.display: the real OLED, or a FrameSink that
    the simulated table's page mirrors). A missing or failing display is logged once, shown in
    `health`, and reopened every DISPLAY_RETRY_S seconds; the service runs on without it.
    """

    def __init__(self, open_display: Callable[[], Any] | None, health: Health):
        self._open_display = open_display
        self.health = health
        self.display: Any = None
        self._retry_at = 0.0
        self._image: Any = None
        if open_display is None:
            health.set("display", "off")

    def show(self, image: Any) -> bool:
        """Draw a 128x64 1-bit PIL image; False while there is no working display."""
        self._image = image
        return self._use(lambda display: display.show(image))

    def wake(self) -> None:
        self._use(lambda display: display.wake())

    def tick(self) -> None:
        """Retries a lost display with the last image, and lets an idle one dim."""
        if self.display is None and self._image is not None:
            self.show(self._image)
        else:
            self._use(lambda display: display.tick())

    def _use(self, action: Callable[[Any], None]) -> bool:
        if self._open_display is None:
            return False
        now = time.monotonic()
        if self.display is None:
            if now < self._retry_at:
                return False
            try:
                self.display = self._open_display()
            except Exception as exc:
                return self._failed(str(exc), now)
            log.info("Display open")
        try:
            action(self.display)
        except Exception as exc:
            self.display = None
            return self._failed(str(exc), now)
        self.health.set("display", "ok")
        return True

    def _failed(self, message: str, now: float) -> bool:
        if self.health.display != message:
            log.warning(
                "Display: %s Running on without it; retrying every %g s.", message, DISPLAY_RETRY_S
            )
        self.health.set("display", message)
        self._retry_at = now + DISPLAY_RETRY_S
        return False

    def close(self) -> None:
        """Blank the panel, so a stopped companion shows nothing stale."""
        display, self.display = self.display, None
        if display is None:
            return
        try:
            display.close()
        except Exception:
            log.exception("Blanking the display failed")


class Service:
    """The companion, assembled from its settings. `run()` blocks until SIGTERM/SIGINT or
    `stop()`; everything is released on the way out, in an order that loses nothing."""

    def __init__(
        self,
        config: Config,
        *,
        simulate: bool = False,
        limits: Any = None,
        sim_seed: int | None = None,
        fixed_seeds: bool = False,
    ):
        """`limits`: the web app's request rate limits (web.app.Limits; default: its own);
        `sim_seed` fixes the simulated tray's look and throws (default: a fresh one);
        `fixed_seeds` lets the host seed games (tests and benchmarks replaying recorded
        games; the pages then say the hidden cards are not secret)."""
        check_files(config)
        self._fixed_seeds = fixed_seeds
        keep_large_buffers_out_of_the_heap()  # before the camera's first frame
        self._sim_seed = time.time_ns() % 2**32 if sim_seed is None else sim_seed
        self.config = config
        self.real = uses_real_hardware(config, simulate)
        self.health = Health()
        self.notifier = Notifier()
        self._stop = threading.Event()
        self._mdns: Any = None
        self.data_dir = config.resolved_data_dir()
        make_data_dir(self.data_dir)
        self.lock = DataDirLock.hold(self.data_dir)  # one companion per data directory
        self.buttons: Any = None
        try:
            self.table = open_table(self.data_dir)
        except BaseException:
            self.lock.release()
            raise
        try:
            self._assemble(limits)
        except BaseException:
            if self.buttons is not None:
                self.buttons.close()
            self.table.close()
            self.lock.release()
            raise

    def _assemble(self, limits: Any) -> None:
        from companion.profile import default_path
        from companion.profile_source import ProfileSource
        from companion.rolls import RollWatcher, tray_watcher

        config = self.config
        self._display: Any = None
        self.screen = Screen(self._display_opener(), self.health)
        self.profile = ProfileSource(config.dice.profile or default_path(self.data_dir))
        self.camera = self._make_camera()
        watch = None
        if self.camera is not None:
            watch = tray_watcher(
                self.profile.current, fps=config.camera.fps, reader=config.dice.reader
            )
        from companion.dice.readers import LEARNING_READERS
        from companion.dice_learning import DiceLearner
        from companion.dice_record import DiceRecord

        self.dice_record = DiceRecord(self.data_dir)
        self.dice_learner = DiceLearner(
            self.dice_record, learns=config.dice.reader in LEARNING_READERS
        )
        self.rolls = RollWatcher(
            self.table, watch, auto_submit=config.dice.auto_submit, record=self.dice_record
        )
        self.buttons = self._make_buttons()
        self.simulator = None
        if not self.real:
            from companion.runtime.simulator import Simulator, stock_media

            try:  # private reveals show a picture on a simulated table too
                stock_media(self.data_dir)
            except SaveError as exc:  # a read-only or full disk: the table still serves views
                log.warning("No stand-in pictures for private reveals: %s", exc)
            self.simulator = Simulator(
                self.buttons, self.camera, self._display, config.buttons.hold_time
            )
        self.web = self._make_web(limits)
        self.panel = self._make_panel()
        self.camera_worker = None
        if self.camera is not None:
            cam = config.camera
            self.camera_worker = CameraWorker(
                self.camera,
                self.rolls.on_frame,
                self.health,
                cam.fps,
                cam.retry_after,
                on_lost=self.rolls.camera_lost,
            )
            self.profile.subscribe(self._recalibrated)
        else:
            self.health.set("camera", "off")
        self._web_thread = threading.Thread(target=self.web.serve, name="web", daemon=True)

    # --- assembly ------------------------------------------------------------------------

    def _display_opener(self) -> Callable[[], Any] | None:
        cfg = self.config.display
        if cfg.driver == "none":
            return None
        if not self.real:
            from hardware.display import FrameSink

            self._display = FrameSink(dim_after=cfg.dim_after)
            return lambda: self._display
        from hardware.display import open_oled

        return lambda: open_oled(
            cfg.driver, cfg.port, cfg.address, cfg.rotation, cfg.contrast, cfg.dim_after
        )

    def _make_camera(self) -> Any:
        cam = self.config.camera
        kind = cam.kind
        if kind == "auto":
            kind = "pi" if self.real else "sim"
        if kind == "none":
            return None
        if kind == "sim":
            from hardware.camera import SimTrayCamera

            return SimTrayCamera(fps=cam.fps, seed=self._sim_seed)
        from hardware.camera import CameraSettings, FolderCamera, PiCamera, UsbCamera

        width, height = cam.resolution
        self._camera_base = CameraSettings(width=width, height=height)  # before calibration
        settings = self.profile.profile.camera_settings(self._camera_base)
        if kind == "pi":
            return PiCamera(settings)
        if kind == "usb":
            return UsbCamera(cam.device or cam.index, settings)
        return FolderCamera(cam.folder, fps=cam.fps, loop=True)

    def _make_buttons(self) -> Any:
        cfg = self.config.buttons
        if not cfg.enabled:
            self.health.set("buttons", "off")
            return None
        from hardware.buttons import ButtonPanel, ButtonPanelError

        pins = {name.upper(): getattr(cfg, name) for name in BUTTON_NAMES}
        factory = None
        if not self.real:
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        try:
            panel = ButtonPanel(pins, long_press_s=cfg.hold_time, pin_factory=factory)
        except ButtonPanelError as exc:
            log.warning("%s Running on without the buttons.", exc)
            self.health.set("buttons", str(exc))
            return None
        self.health.set("buttons", "ok")
        return panel

    def _make_web(self, limits: Any) -> Any:
        from companion.runtime.web_ports import service_ports
        from web import sim
        from web.app import create_app
        from web.server import WebServer

        app = create_app(
            self.table,
            self.data_dir,
            camera_frame=self.rolls.camera_jpeg,
            public_port=self.config.web.port,
            limits=limits,
            names=[f"{self.config.mdns.name}.local"] if self.config.mdns.enabled else [],
            fixed_seeds=self._fixed_seeds,
        )
        sim.install(app, service_ports(self.health, self.rolls, self.dice_learner, self.simulator))
        self._attach_calibration(app)
        self.access = app.extensions["companion"].access
        web = self.config.web
        return WebServer(app, web.host, web.port, web.threads)

    def _attach_calibration(self, app: Any) -> None:
        """Calibration works on raw frames and writes the profile this service reads."""
        from calibration.session import DICE_ROLLS, CalibrationSession
        from web.calibration import attach

        def calibration_roll(view: Any, faces: list[int]) -> None:
            self.dice_record.calibration_roll(view, faces, self.profile.current().dice)
            if len(session.rolls) >= DICE_ROLLS:  # the dice are calibrated: learn them
                self.dice_learner.request()

        session = CalibrationSession(
            self.data_dir,
            profile_path=self.profile.path,
            on_roll=calibration_roll,
            reader=self.config.dice.reader,
        )
        self.calibration = attach(
            app,
            latest_image=self.rolls.latest_image,
            camera_settings=lambda: getattr(self.camera, "settings", None),
            session=session,
        )

    def _recalibrated(self, profile: Any) -> None:
        """A newly saved profile: the camera takes its settings (the reader already reads
        with it)."""
        camera = self.camera
        current = getattr(camera, "settings", None)
        if current is None:
            return  # a simulated or recorded camera has no settings to change
        settings = profile.camera_settings(self._camera_base)
        if settings != current:
            camera.settings = settings
            self.camera_worker.reopen()
            log.info("Camera settings from the calibration profile applied")

    def _make_panel(self) -> Any:
        from companion.panel import Panel, pictures_in
        from web.access import host_url

        return Panel(
            self.table,
            rolls=self.rolls,
            pictures=pictures_in(self.table, self.data_dir),
            join_url=host_url(self.config.web.port),
            pin=self.access.pin,
            problems=self.problems,
        )

    def _status_line(self) -> str:
        """For `systemctl status`: the port and any hardware fault."""
        return "; ".join([f"Serving on port {self.web.port}", *self.problems()])

    def problems(self) -> list[str]:
        """Hardware faults in a few words each, for the OLED (the host page has them in full);
        a read-only or full disk first."""
        disk = disk_state(self.data_dir)
        faults = [f"disk: {disk}"] if disk != "ok" else []
        return faults + [
            f"{part}: {text}"
            for part, text in self.health.as_json().items()
            if text not in ("ok", "off", "starting") and part != "display"
        ]

    # --- running -------------------------------------------------------------------------

    def stop(self, *_: object) -> None:
        """Ask the main loop to finish (safe from a signal handler)."""
        self._stop.set()

    def run(self) -> int:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, self.stop)
        try:
            self._web_thread.start()
            if self.camera_worker is not None:
                self.camera_worker.start()
            self._start_mdns()
            self._announce()
            return self._loop()
        finally:
            self.close()

    def _announce(self) -> None:
        from web.access import base_url

        url = base_url(self.web.port)
        kind = "Raspberry Pi hardware" if self.real else "simulated table"
        log.info("Serving on port %d (%s)", self.web.port, kind)
        # The host PIN stays off this output: under systemd it goes to the journal, which more
        # people may read than stand at the table. The OLED shows it, and so does /sim.
        print(f"Table page: {url}/", flush=True)
        if self.simulator is None:
            print(f"Host page:  {url}/host (PIN on the companion's screen)", flush=True)
        else:
            print(f"Host page:  {url}/host (PIN on the simulated table)", flush=True)
            print(f"Simulated table: http://127.0.0.1:{self.web.port}/sim", flush=True)
        self.notifier.ready(f"Serving on port {self.web.port}")

    def _loop(self) -> int:
        ping_every = watchdog_interval()
        next_ping = 0.0
        first = True
        shown_guide: tuple[int, bool] | None = None
        while not self._stop.is_set():
            if self.buttons is not None:
                event = self.buttons.next_event(timeout=LOOP_TICK_S)
                if event is not None:
                    self.screen.wake()
                    self._guarded(self.panel.handle, event)
            else:
                self._stop.wait(LOOP_TICK_S)
            if not self._web_thread.is_alive():
                log.error("The web server stopped; exiting so that systemd restarts the service.")
                return 1
            changed = self._guarded(self.panel.tick)
            guide = self._calibration_key()
            if guide != shown_guide:
                changed, shown_guide = True, guide
            if changed or self.health.changed.is_set() or first:
                if self.health.changed.is_set():
                    self.notifier.status(self._status_line())
                first = False
                self.health.changed.clear()
                screen = self._guarded(self._oled_screen)
                if screen is not None:
                    self.screen.show(screen.image)
            else:
                self.screen.tick()  # dims when idle; reopens a lost display
            now = time.monotonic()
            if ping_every and now >= next_ping and self._healthy(2 * ping_every):
                self.notifier.watchdog()
                next_ping = now + ping_every
        return 0

    def _calibration_key(self) -> tuple[int, bool]:
        """Changes whenever the OLED's calibration guide appears, changes or goes."""
        desk = self.calibration
        return desk.version, desk.active(CALIBRATION_SCREEN_S)

    def _oled_screen(self) -> Any:
        """The table's screen, or what to do next while the owner calibrates."""
        desk = self.calibration
        if desk.active(CALIBRATION_SCREEN_S):
            with desk.lock:
                return desk.session.guide().screen()
        return self.panel.screen()

    @staticmethod
    def _guarded(action: Callable[..., Any], *args: Any) -> Any:
        """A fault in a button's action or a screen is logged; the table keeps running."""
        try:
            return action(*args)
        except Exception:
            log.exception("%s failed", getattr(action, "__qualname__", action))
            return None

    def _healthy(self, within: float) -> bool:
        worker = self.camera_worker
        return worker is None or worker.alive(within)

    def close(self) -> None:
        log.info("Stopping")
        self.notifier.stopping()
        self.web.stop(wait=True)  # ends the event streams first
        if self.camera_worker is not None:
            self.camera_worker.stop()
        self.dice_learner.close()
        self.dice_record.close()
        if self.simulator is not None:
            self.simulator.close()
        if self.buttons is not None:
            self.buttons.close()
        self.screen.close()
        if self._mdns is not None:
            self._mdns.close()
        self.table.close()
        self.lock.release()
        self.notifier.close()
        log.info("Stopped")
        for handler in logging.getLogger().handlers:
            handler.flush()

    def _start_mdns(self) -> None:
        if not self.config.mdns.enabled:
            return
        try:
            self._mdns = announce_mdns(self.config.mdns.name, self.web.port)
        except Exception as exc:  # no network yet, or another host took the name
            log.warning("mDNS announcement failed (%s); use the IP address instead.", exc)


def announce_mdns(name: str, port: int) -> Any:
    """Answer for http://<name>.local:<port> and list the pages as an HTTP service.
    Returns the Zeroconf instance; `close()` withdraws the announcement."""
    import socket

    from zeroconf import ServiceInfo, Zeroconf

    from web.access import lan_ip

    address = lan_ip()
    if address is None:
        raise OSError("no network address")
    info = ServiceInfo(
        "_http._tcp.local.",
        f"{product.NAME} ({name})._http._tcp.local.",
        addresses=[socket.inet_aton(address)],
        port=port,
        properties={"path": "/"},
        server=f"{name}.local.",
    )
    zc = Zeroconf()
    zc.register_service(info)
    log.info("Announced http://%s.local:%d over mDNS", name, port)
    return zc


def main(
    config_path: str | None = None,
    *,
    simulate: bool = False,
    port: int | None = None,
    host: str | None = None,
    data_dir: str | None = None,
) -> int:
    """`companion run`: settings from `config_path`, then the command line's overrides."""
    import errno
    import sys

    from companion.config import ConfigError, load
    from companion.log_check import EXIT_LOG_NEEDS_OWNER
    from companion.profile import ProfileError
    from companion.store import StoreError

    overrides: dict[str, Any] = {}
    if simulate:
        overrides["hardware"] = "sim"
    if port is not None:
        overrides["web.port"] = port
    if host is not None:
        overrides["web.host"] = host
    if data_dir is not None:
        overrides["data_dir"] = data_dir
    try:
        config = load(config_path, overrides)
    except ConfigError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    from companion.dice.network import ModelError
    from companion.dice.readers import load_models

    try:
        load_models(config.dice.reader)
    except ModelError as exc:
        log.error("Cannot start: %s", exc)
        return 1
    try:
        service = Service(config, simulate=simulate)
    except DataDirBusy as exc:
        log.error("Cannot start: %s", exc)
        return 1
    except StoreError as exc:  # the owner must look: systemd does not restart on this code
        log.error("Cannot open the event log: %s", exc)
        return EXIT_LOG_NEEDS_OWNER
    except SaveError as exc:
        log.error("Cannot start: %s", exc)
        return 1
    except ConfigError as exc:  # names the setting
        log.error("Cannot start: %s", exc)
        return 1
    except ProfileError as exc:  # names the file and the key
        log.error("Cannot start: calibration profile: %s", exc)
        return 1
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            log.error(
                "Cannot start: port %d is in use already (another companion?); set web.port "
                "or --port to another",
                config.web.port,
            )
        else:
            log.error("Cannot start: %s", exc)
        return 1
    return service.run()
