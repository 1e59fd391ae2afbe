"""The running companion's own endpoints: hardware health and the pending dice reading for the
host, and, on a simulated table, a page with the OLED mirror, the button panel and a dice tray.

`install(app, service)` registers them on the app from `web.app.create_app`:

- `GET /api/service/status` (host): {"health": {camera, display, buttons}, "pending": ...,
  "camera_record": how the camera did at this table (companion.dice_record's summary)}
- `POST /api/service/roll/confirm` (host): {"values": [...]?} submits the pending reading
  (or the corrected values); `POST /api/service/roll/discard` drops it.
- Simulated table only, and only from this machine (the page and its OLED mirror show the host
  PIN, as the real OLED does to people at the table): `GET /sim` (the page), `GET /api/sim/state`,
  `GET /api/sim/oled.png`, `GET /api/sim/camera.jpg`, `POST /api/sim/button`
  {"button": "OK", "hold": false}, `POST /api/sim/throw` {"count": 5?, "values": [...]?},
  `POST /api/sim/camera` {"plugged": false}.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
)

from web.guard import json_body, refuse, require_host
from web.routes_seat import outcome_response

service_bp = Blueprint("service_api", __name__, url_prefix="/api/service")
sim_bp = Blueprint("sim", __name__)

NO_STORE = {"Cache-Control": "no-store"}
MAX_DICE = 12


def install(app: Flask, service: Any) -> None:
    app.extensions["companion"].extra["service"] = service
    app.register_blueprint(service_bp)
    if service.simulator is not None:
        app.register_blueprint(sim_bp)


def _service() -> Any:
    return current_app.extensions["companion"].extra["service"]


def status_payload(service: Any) -> dict[str, Any]:
    pending = service.rolls.pending
    return {
        "health": service.health.as_json(),
        "pending": pending.to_json() if pending else None,
        "camera_record": service.dice_record.summary(),
    }


@service_bp.get("/status")
def status():
    require_host()
    return jsonify(status_payload(_service()))


@service_bp.post("/roll/confirm")
def confirm_roll():
    require_host()
    values = json_body().get("values")
    if values is not None and not _dice_list(values):
        return refuse(400, "Dice values must be a list of numbers from 1 to 6.")
    return outcome_response(_service().rolls.confirm(values))


@service_bp.post("/roll/discard")
def discard_roll():
    require_host()
    _service().rolls.discard()
    return jsonify(ok=True)


def _dice_list(values: Any) -> bool:
    return (
        isinstance(values, list)
        and 0 < len(values) <= MAX_DICE
        and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)
    )


# --- the simulated table ------------------------------------------------------------------


@sim_bp.before_request
def _this_machine_only():
    try:
        loopback = ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        abort(refuse(403, "The simulated table's controls answer only on this machine."))


@sim_bp.get("/sim")
def sim_page():
    # The same controls as on the host page (templates/sim_controls.html, static/sim.js).
    return render_template("sim.html", pin=_service().access.pin), NO_STORE


@sim_bp.get("/api/sim/state")
def sim_state():
    service = _service()
    payload = status_payload(service)
    prompt = service.rolls.roll_prompt()
    payload.update(
        roll=prompt.to_json() if prompt else None,
        camera_plugged=service.simulator.camera_plugged,
        last_entered=list(service.rolls.last_submitted or []),
        last_entered_version=service.rolls.last_submitted_version,
        version=service.table.version,
    )
    return jsonify(payload)


@sim_bp.get("/api/sim/oled.png")
def sim_oled():
    return Response(_service().simulator.oled_png(), mimetype="image/png", headers=NO_STORE)


@sim_bp.get("/api/sim/camera.jpg")
def sim_camera():
    frame = _service().rolls.camera_jpeg()
    if frame is None:
        return refuse(404, "No camera picture yet.")
    return Response(frame, mimetype="image/jpeg", headers=NO_STORE)


@sim_bp.post("/api/sim/button")
def sim_button():
    data = json_body()
    try:
        _service().simulator.press(str(data.get("button", "")), hold=bool(data.get("hold")))
    except (ValueError, RuntimeError) as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True)


@sim_bp.post("/api/sim/throw")
def sim_throw():
    service = _service()
    data = json_body()
    values = data.get("values")
    if values is not None and not _dice_list(values):
        return refuse(400, "Dice values must be a list of numbers from 1 to 6.")
    count = data.get("count")
    if count is None:
        prompt = service.rolls.roll_prompt()
        count = prompt.dice if prompt else 5
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_DICE:
        return refuse(400, f"Throw between 1 and {MAX_DICE} dice.")
    try:
        faces = service.simulator.throw(count, values)
    except RuntimeError as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True, values=faces)


@sim_bp.post("/api/sim/camera")
def sim_camera_plug():
    plugged = json_body().get("plugged")
    if not isinstance(plugged, bool):
        return refuse(400, 'Send {"plugged": true} or {"plugged": false}.')
    try:
        _service().simulator.set_camera_plugged(plugged)
    except RuntimeError as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True)
