"""Guided calibration on the host page: the tray, the owner's dice and the registered games'
own steps (`companion.game.calibrating`).

The page is GET /host/calibration; its script talks to these host-only JSON endpoints:

- GET  /api/host/calibration            the step, instructions, progress, problem, results
- POST /api/host/calibration/start      {"step": "frame"|"dice"|a game's step}: begin or redo
- POST /api/host/calibration/capture    the step in progress takes the camera's latest frame
- POST /api/host/calibration/corners    {"points": [[x, y] x4]} tapped on the frame, in pixels
- POST /api/host/calibration/roll       {"faces": [3, 5, 1] or "351"} with the latest frame
- POST /api/host/calibration/number     {"number": 7}: the piece's number, typed
- POST /api/host/calibration/turn       turn the waiting picture a quarter turn
- POST /api/host/calibration/skip       forget the current piece
- GET  /api/host/calibration/frame.jpg  the latest frame with the tray outlined
- GET  /api/host/calibration/tile.png   the piece being calibrated (only while it waits for its
                                        number: stored pictures are never served from here)

Frames come from `attach(app, latest_image, camera_settings)`, which the service calls with
its camera; without it, the host page's camera picture (a JPEG) stands in.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    render_template_string,
    request,
)

from web.guard import json_body, refuse, require_host, state

if TYPE_CHECKING:  # the session pulls in OpenCV: loaded on the first calibration request
    from calibration.session import CalibrationSession

bp = Blueprint("calibration", __name__)
API = "/api/host/calibration"
NO_STORE = {"Cache-Control": "no-store"}


@dataclass
class Desk:
    session: CalibrationSession
    latest_image: Callable[[], Any]  # -> BGR image or None
    camera_settings: Callable[[], Any] = lambda: None  # -> CameraSettings in use, or None
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0  # counts the owner's actions, so the OLED redraws the guide
    acted_at: float | None = None  # time.monotonic() of the last action

    def active(self, within: float) -> bool:
        """The owner acted on the calibration within the last `within` seconds."""
        return self.acted_at is not None and time.monotonic() - self.acted_at < within


def attach(
    app: Flask,
    latest_image: Callable[[], Any],
    camera_settings: Callable[[], Any] | None = None,
    session: CalibrationSession | None = None,
) -> Desk:
    """Give calibration the camera: `latest_image()` returns the newest raw frame (BGR) or
    None; `camera_settings()` the fixed settings it was taken with, to store in the profile."""
    from calibration.session import CalibrationSession

    data_dir = app.extensions["companion"].data_dir
    desk = Desk(
        session or CalibrationSession(data_dir), latest_image, camera_settings or (lambda: None)
    )
    app.extensions["calibration"] = desk
    return desk


def _desk() -> Desk:
    desk = current_app.extensions.get("calibration")
    if desk is None:
        desk = attach(current_app, _jpeg_image)
    return desk


def _jpeg_image() -> Any:
    """The host page's camera picture, decoded: a stand-in when no raw frames are attached."""
    source = state().camera_frame
    data = source() if source else None
    if not data:
        return None
    import cv2
    import numpy as np

    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


@bp.after_request
def _acted(response: Response) -> Response:
    if request.method == "POST" and response.status_code < 400:
        desk = current_app.extensions.get("calibration")
        if desk is not None:
            desk.version += 1
            desk.acted_at = time.monotonic()
    return response


def _reply(ok: bool = True) -> Response:
    return jsonify(ok=ok, **_desk().session.status())


NO_CAMERA = "No camera picture yet: check the camera, then try again."


@bp.get("/host/calibration")
def page():
    from web.pages import page_headers

    return page_headers(Response(render_template_string(PAGE), mimetype="text/html"))


@bp.get("/host/calibration.js")
def script():
    return Response(SCRIPT, mimetype="text/javascript", headers=NO_STORE)


@bp.get(API)
def status():
    require_host()
    return _reply()


@bp.post(API + "/start")
def start():
    require_host()
    step = json_body().get("step")
    desk = _desk()
    if step not in desk.session.steps:
        return refuse(400, f"Steps are {', '.join(desk.session.steps)}.")
    with desk.lock:
        desk.session.start(step)
    return _reply()


@bp.post(API + "/capture")
def capture():
    require_host()
    desk = _desk()
    image = desk.latest_image()
    if image is None:
        return refuse(503, NO_CAMERA)
    with desk.lock:
        ok = desk.session.capture(image, desk.camera_settings())
    return _reply(ok)


@bp.post(API + "/corners")
def corners():
    require_host()
    points = json_body().get("points")
    if not (
        isinstance(points, list)
        and len(points) == 4
        and all(
            isinstance(p, list)
            and len(p) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)
            for p in points
        )
    ):
        return refuse(400, "Send the tray's 4 corners as [[x, y], ...] in picture pixels.")
    desk = _desk()
    image = desk.latest_image()
    if image is None:
        return refuse(503, NO_CAMERA)
    with desk.lock:
        ok = desk.session.set_corners(image, points, desk.camera_settings())
    return _reply(ok)


@bp.post(API + "/roll")
def roll():
    require_host()
    faces = json_body().get("faces")
    if isinstance(faces, str):
        digits = re.sub(r"[\s,]", "", faces)
        faces = [int(c) for c in digits] if digits.isascii() and digits.isdigit() else None
    if not isinstance(faces, list) or not all(
        isinstance(f, int) and not isinstance(f, bool) for f in faces
    ):
        return refuse(400, "Type the faces you see, e.g. 35162.")
    desk = _desk()
    image = desk.latest_image()
    if image is None:
        return refuse(503, NO_CAMERA)
    with desk.lock:
        ok = desk.session.add_roll(image, faces)
    return _reply(ok)


@bp.post(API + "/number")
def number():
    require_host()
    value = json_body().get("number")
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,2}", value.strip()):
        value = int(value)  # ASCII digits only: "7", not "７", "²" or "①"
    desk = _desk()
    if not isinstance(value, int) or isinstance(value, bool):
        return refuse(400, desk.session.number_refusal())
    with desk.lock:
        ok = desk.session.type_number(value)
    return _reply(ok)


@bp.post(API + "/turn")
def turn():
    require_host()
    desk = _desk()
    with desk.lock:
        ok = desk.session.turn_picture()
    return _reply(ok)


@bp.post(API + "/skip")
def skip():
    require_host()
    desk = _desk()
    with desk.lock:
        desk.session.skip_tile()
    return _reply()


@bp.get(API + "/frame.jpg")
def frame():
    require_host()
    import cv2
    import numpy as np

    from calibration import tray
    from companion.profile import from_fractions

    desk = _desk()
    image = desk.latest_image()
    if image is None:
        return refuse(503, NO_CAMERA)
    image = image.copy()
    session = desk.session
    height, width = image.shape[:2]
    if session.profile.tray is not None:
        outline, colour = from_fractions(session.profile.tray, (width, height)), (0, 200, 0)
    else:
        try:
            outline, colour = tray.find_tray(image), (0, 200, 255)
        except tray.TrayNotFound:
            outline = None
    if outline is not None:
        cv2.polylines(image, [np.round(outline).astype(np.int32)], True, colour, 3)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        return refuse(500, "The picture could not be encoded.")
    return Response(data.tobytes(), mimetype="image/jpeg", headers=NO_STORE)


@bp.get(API + "/tile.png")
def tile():
    require_host()
    import cv2

    picture = _desk().session.current_picture()
    if picture is None:
        return refuse(404, "No tile is being calibrated right now.")
    _, data = cv2.imencode(".png", picture)
    return Response(data.tobytes(), mimetype="image/png", headers=NO_STORE)


PAGE = """{% extends "base.html" %}
{% block title %}{{ game_title }} · calibration{% endblock %}
{% block heading %}Calibration{% endblock %}
{% block main %}
<section class="card" id="cal">
  <nav class="row" id="cal-steps"></nav>
  <h2 id="cal-title">Calibration</h2>
  <p id="cal-text"></p>
  <p class="hint" id="cal-progress"></p>
  <p id="cal-note" role="status"></p>
  <p id="cal-problem" role="alert" class="problem"></p>
  <img id="cal-frame" class="camera" alt="The camera's view of the tray" src="">
  <div class="row">
    <button id="cal-capture" type="button">Capture</button>
    <button id="cal-tap" type="button" class="secondary">Tap the tray's corners</button>
  </div>
  <form id="cal-roll" class="row" hidden>
    <input id="cal-faces" inputmode="numeric" autocomplete="off" aria-label="Faces you see"
           placeholder="Faces you see, e.g. 35162">
    <button type="submit">Capture this roll</button>
  </form>
  <p id="cal-accuracy"></p>
  <div id="cal-tile" hidden>
    <img id="cal-tile-img" alt="The tile's picture side, as stored" width="160" height="160">
    <form id="cal-number" class="row">
      <input id="cal-number-value" inputmode="numeric" aria-label="The tile's number"
             placeholder="Number on the back">
      <button type="submit">Store under this number</button>
      <button id="cal-turn" type="button" class="secondary">Turn the picture</button>
      <button id="cal-skip" type="button" class="secondary">Skip this tile</button>
    </form>
  </div>
  <p><a href="/host">Back to the host page</a></p>
</section>
{% endblock %}
{% block scripts %}<script src="/host/calibration.js"></script>{% endblock %}
"""

SCRIPT = r""""use strict";
(() => {
  const API = "/api/host/calibration";
  const $ = (id) => document.getElementById(id);
  let taps = null; // corner taps in picture pixels while tapping
  let current = null;

  function show(s) {
    current = s;
    $("cal-title").textContent = s.title;
    $("cal-text").textContent = s.text;
    $("cal-progress").textContent = s.progress;
    $("cal-note").textContent = s.note || "";
    $("cal-problem").textContent = s.problem || "";
    const nav = $("cal-steps");
    nav.replaceChildren(...s.steps.map((step) => Companion.el("button", {
      type: "button", class: step === s.step ? "" : "secondary",
      onclick: () => act("/start", { step }),
    }, (s.done[step] ? "✓ " : "") + step + (step === s.step ? "" : " (redo)"))));
    $("cal-roll").hidden = s.step !== "dice";
    $("cal-capture").hidden = s.step === "dice";
    $("cal-tap").hidden = s.step !== "frame";
    $("cal-tile").hidden = !s.awaiting_number;
    if (s.awaiting_number) $("cal-tile-img").src = API + "/tile.png?t=" + Date.now();
    $("cal-number-value").placeholder = s.number_hint || "Number on the back";
    $("cal-accuracy").textContent = s.accuracy
      ? `Dice read right: ${Math.round(s.accuracy.before * 100)}% before calibrating, ` +
        `${Math.round(s.accuracy.after * 100)}% after.` : "";
  }

  async function act(path, body) {
    try {
      show(await Companion.post(API + path, body));
    } catch (err) {
      Companion.toast(err.message);
    }
    refreshFrame();
  }

  async function load() {
    const response = await fetch(API, { credentials: "same-origin" });
    if (response.status === 403 || response.status === 401) {
      $("cal-text").textContent = "Sign in on the host page first.";
      return;
    }
    show(await response.json());
  }

  function refreshFrame() {
    $("cal-frame").src = API + "/frame.jpg?t=" + Date.now();
  }

  $("cal-capture").addEventListener("click", () => act("/capture"));
  $("cal-tap").addEventListener("click", () => {
    taps = [];
    Companion.toast("Tap the tray's four corners on the picture.", "info");
  });
  $("cal-frame").addEventListener("click", (e) => {
    if (taps === null) return;
    const img = e.currentTarget;
    const rect = img.getBoundingClientRect();
    taps.push([
      (e.clientX - rect.left) * img.naturalWidth / rect.width,
      (e.clientY - rect.top) * img.naturalHeight / rect.height,
    ]);
    if (taps.length === 4) {
      const points = taps;
      taps = null;
      act("/corners", { points });
    }
  });
  $("cal-roll").addEventListener("submit", (e) => {
    e.preventDefault();
    act("/roll", { faces: $("cal-faces").value });
    $("cal-faces").value = "";
  });
  $("cal-number").addEventListener("submit", (e) => {
    e.preventDefault();
    act("/number", { number: $("cal-number-value").value });
    $("cal-number-value").value = "";
  });
  $("cal-turn").addEventListener("click", () => act("/turn"));
  $("cal-skip").addEventListener("click", () => act("/skip"));
  const badge = $("status");
  if (badge) badge.hidden = true; // this page polls; it has no live stream to report on
  load();
  refreshFrame();
  setInterval(() => { if (taps === null && !document.hidden) refreshFrame(); }, 1500);
})();
"""
