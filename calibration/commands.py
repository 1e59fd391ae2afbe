"""`companion calibrate frame` and `companion calibrate glyphs`: the guided calibration's first
and last steps on the command line, from a camera or from image files.

    companion calibrate frame --camera pi --data-dir DATA_DIR
    companion calibrate glyphs --camera usb:0 --data-dir var          # prompts tile by tile
    companion calibrate glyphs --images g1.jpg n1.jpg g2.jpg n2.jpg   # picture, number, ...
    companion calibrate glyphs --camera sim --data-dir var            # a rendered demo

Both write into the data directory: the profile (DIR/profile.toml), the empty tray's picture
and the glyph pictures (DIR/glyphs/<n>.png). Exit status 0 when every step succeeded.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the session pulls in numpy and OpenCV: only the commands themselves load it
    from calibration.session import CalibrationSession


def add_frame_command(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "frame",
        help="find the tray and lock the camera's exposure",
        description="Find the tray in an empty-tray picture, lock exposure, store both.",
    )
    _add_source_args(p, "--image", "a picture of the empty tray instead of a camera")
    p.add_argument(
        "--corners",
        metavar="X,Y,...",
        help="the tray's four corners in pixels (x1,y1,x2,y2,...) when it cannot be found",
    )
    p.set_defaults(func=run_frame)


def add_glyphs_command(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "glyphs",
        help="photograph the 14 clue tiles into the glyph catalog",
        description="For each clue tile: its picture side, then its number side.",
    )
    _add_source_args(
        p, "--images", "pictures in pairs: a tile's picture side, then its number side", nargs="+"
    )
    p.add_argument(
        "--numbers",
        metavar="N",
        type=int,
        nargs="+",
        help="the tiles' numbers in order, when they should not be read from the pictures",
    )
    p.set_defaults(func=run_glyphs)


def _add_source_args(p: argparse.ArgumentParser, flag: str, doc: str, nargs=None) -> None:
    source = p.add_mutually_exclusive_group()
    source.add_argument(
        "--camera",
        default="sim",
        metavar="KIND",
        help="pi, usb[:N|:DEVICE], folder:PATH or sim (a rendered table; default)",
    )
    source.add_argument(flag, metavar="FILE", nargs=nargs, help=doc)
    p.add_argument("--data-dir", type=Path, help="where to store (default: the service's)")
    p.add_argument("--seed", type=int, default=0, help="the simulated table's seed")


# Cameras ---------------------------------------------------------------------------------
def camera_factory(spec: str, seed: int = 0) -> Callable[[Any], Any]:
    """A function from CameraSettings to an unopened camera of the kind `spec` names."""
    from hardware.camera import FolderCamera, PiCamera, UsbCamera

    kind, _, arg = spec.partition(":")
    if kind == "sim":
        from calibration.tile_synth import SimTableCamera

        return lambda settings: SimTableCamera(seed=seed, settings=settings)
    if kind == "pi":
        return lambda settings: PiCamera(settings)
    if kind == "usb":
        device: int | str = int(arg) if arg.isdigit() else (arg or 0)
        return lambda settings: UsbCamera(device, settings)
    if kind == "folder" and arg:
        return lambda settings: FolderCamera(arg)
    raise ValueError(f"Unknown camera {spec!r}: use pi, usb[:N], folder:PATH or sim.")


def _data_dir(args: argparse.Namespace) -> Path:
    if args.data_dir:
        return args.data_dir
    from companion.config import Config

    return Config().resolved_data_dir()


def _read_image(path: str):
    import cv2

    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"{path} is not a picture OpenCV can read.")
    return image


def _say(session: CalibrationSession, ok: bool) -> None:
    print(("  " + session.note) if ok and session.note else f"  ! {session.problem}")


# Frame -----------------------------------------------------------------------------------
def run_frame(args: argparse.Namespace) -> int:
    from calibration.session import CalibrationSession
    from hardware.camera import CameraError, CameraSettings

    session = CalibrationSession(_data_dir(args))
    print(session.guide().title + ": " + session.guide().text)
    settings = None
    try:
        if args.image:
            image = _read_image(args.image)
        else:
            from calibration.exposure import lock_exposure

            open_camera = camera_factory(args.camera, args.seed)
            start = session.profile.camera_settings(CameraSettings())
            locked = lock_exposure(open_camera, start)
            print("  " + locked.note)
            image = locked.image
            # A recording has no exposure to lock: keep the profile's settings as they are.
            settings = None if args.camera.startswith("folder:") else locked.settings
    except (CameraError, OSError, ValueError) as exc:
        print(f"  ! {exc}", file=sys.stderr)
        return 1
    if args.corners:
        try:
            values = [float(v) for v in args.corners.split(",")]
        except ValueError:
            values = []
        if len(values) != 8:
            print("  ! --corners takes 8 numbers: x1,y1,x2,y2,x3,y3,x4,y4", file=sys.stderr)
            return 2
        ok = session.set_corners(image, [values[i : i + 2] for i in range(0, 8, 2)], settings)
    else:
        ok = session.capture(image, settings)
    _say(session, ok)
    if ok:
        print(f"  Stored in {session.profile_path}")
    return 0 if ok else 1


# Glyphs ----------------------------------------------------------------------------------
def run_glyphs(args: argparse.Namespace) -> int:
    from calibration.session import CalibrationSession
    from hardware.camera import CameraError, CameraSettings

    session = CalibrationSession(_data_dir(args))
    session.start("glyphs")
    if session.profile.tray is None:
        print("  (No tray calibrated yet: the whole picture is searched for tiles.)")
    numbers = iter(args.numbers or [])
    try:
        if args.images:
            if len(args.images) % 2:
                print("  ! Give the pictures in pairs: picture side, number side.", file=sys.stderr)
                return 2
            frames = (_read_image(path) for path in args.images)
            return _glyphs_from(session, _pairs(frames), numbers, prompt=False)
        open_camera = camera_factory(args.camera, args.seed)
        camera = open_camera(session.profile.camera_settings(CameraSettings()))
        camera.open()
        try:
            if args.camera == "sim":
                return _glyphs_from(session, _sim_tiles(camera), numbers, prompt=False)
            interactive = sys.stdin.isatty()
            shots = _camera_pairs(camera, session, interactive)
            return _glyphs_from(session, shots, numbers, prompt=interactive)
        finally:
            camera.close()
    except (CameraError, OSError) as exc:
        print(f"  ! {exc}", file=sys.stderr)
        return 1


def _pairs(frames: Iterator) -> Iterator[tuple[Any, Any]]:
    frames = iter(frames)
    for picture in frames:
        yield picture, next(frames)


def _sim_tiles(camera) -> Iterator[tuple[Any, Any]]:
    """The simulated table lays each of the 14 tiles, picture side up, then number side up."""
    for number in range(1, 15):
        camera.lay_tile(number, "glyph")
        picture = camera.read().image
        camera.lay_tile(number, "number")
        yield picture, camera.read().image


def _camera_pairs(camera, session: CalibrationSession, interactive: bool):
    while session.missing_glyphs():
        if interactive:
            answer = input(f"  {session.guide().text} [Enter = capture, q = stop] ")
            if answer.strip().lower() == "q":
                return
        picture = camera.read().image
        if interactive:
            input("  Turn the tile over where it lies, number side up. [Enter = capture] ")
        yield picture, camera.read().image


def _glyphs_from(session: CalibrationSession, shots, numbers: Iterator[int], prompt: bool) -> int:
    failures = 0
    for picture, number_side in shots:
        print("  " + session.guide().progress)
        if not session.capture(picture):
            _say(session, False)
            failures += 1
            continue
        given = next(numbers, None)
        if given is not None:
            ok = session.type_number(given)
        else:
            ok = session.capture(number_side)
            while not ok and session.awaiting_number and prompt:
                _say(session, False)
                typed = input("  Type the tile's number (1-14), or Enter to skip: ").strip()
                if not typed:
                    break
                ok = session.type_number(int(typed)) if typed.isdigit() else False
        _say(session, ok)
        if not ok:
            failures += 1
            session.skip_tile()
    missing = session.missing_glyphs()
    if missing:
        print(f"  Glyphs still missing: {', '.join(map(str, missing))}.")
    else:
        print(f"  All 14 glyph pictures are in {session.data_dir / 'glyphs'}.")
    return 0 if not failures and not missing else 1
