"""`companion calibrate frame` and one `companion calibrate NAME` per calibration step a
registered game brings (`companion.game.calibrating`): the guided calibration's first step and
the games' own steps on the command line, from a camera or from image files.

    companion calibrate frame --camera pi --data-dir DATA_DIR
    companion calibrate NAME --camera usb:0 --data-dir var      # prompts piece by piece
    companion calibrate NAME --images a.jpg b.jpg ...           # the frames, in order
    companion calibrate NAME --camera sim --data-dir var        # a rendered demo

They write into the data directory: the profile (DIR/profile.toml), the empty tray's picture
and what the game's step stores. Exit status 0 when every step succeeded.
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


def add_game_step_commands(subparsers: argparse._SubParsersAction) -> None:
    """A command for each calibration step of the registered games."""
    from companion.game.calibrating import registered_steps

    for step in registered_steps():
        p = subparsers.add_parser(step.name, help=step.help, description=step.help + ".")
        _add_source_args(p, "--images", step.images_help, nargs="+")
        step.add_arguments(p)
        p.set_defaults(func=run_game_step, step=step.name)


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


# A game's step ---------------------------------------------------------------------------
def run_game_step(args: argparse.Namespace) -> int:
    from calibration.session import CalibrationSession
    from hardware.camera import CameraError, CameraSettings

    session = CalibrationSession(_data_dir(args))
    session.start(args.step)
    if session.profile.tray is None:
        print("  (No tray calibrated yet: the whole picture is searched.)")
    run = session.runs[args.step]
    try:
        if args.images:
            return run.run_command(session, _file_frames(args.images), args, _nobody)
        open_camera = camera_factory(args.camera, args.seed)
        camera = open_camera(session.profile.camera_settings(CameraSettings()))
        camera.open()
        try:
            if args.camera == "sim":
                faces = session.game_steps[args.step].demo_faces()
                return run.run_command(session, _sim_frames(camera, faces), args, _nobody)
            interactive = sys.stdin.isatty()
            frames = _camera_frames(camera, interactive)
            return run.run_command(session, frames, args, _ask if interactive else _nobody)
        finally:
            camera.close()
    except (CameraError, OSError) as exc:
        print(f"  ! {exc}", file=sys.stderr)
        return 1


def _file_frames(paths: list[str]) -> Callable[[str], Any]:
    remaining = iter(paths)
    return lambda prompt: next((_read_image(path) for path in remaining), None)


def _sim_frames(camera, faces: Iterator[Any]) -> Callable[[str], Any]:
    """The simulated table lays the step's demonstration pieces, one per frame."""

    def frames(prompt: str) -> Any:
        face = next(faces, None)
        if face is None:
            return None
        camera.lay_tile(face)
        return camera.read().image

    return frames


def _camera_frames(camera, interactive: bool) -> Callable[[str], Any]:
    def frames(prompt: str) -> Any:
        if interactive:
            answer = input(f"  {prompt} [Enter = capture, q = stop] ")
            if answer.strip().lower() == "q":
                return None
        return camera.read().image

    return frames


def _ask(question: str) -> str:
    return input("  " + question).strip()


def _nobody(question: str) -> None:
    return None
