"""The running companion's own endpoints: hardware health and the pending dice reading for the
host, and, on a simulated table, a page with the OLED mirror, the button panel and a dice tray.

`install(app, ports)` registers them on the app from `web.app.create_app`; the service is reached
only through `ports` (`web.ports.ServicePorts`):

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

from web.guard import json_body, refuse, require_host, state
from web.ports import ServicePorts, SimulatedTable
from web.routes_seat import outcome_response

service_bp = Blueprint("service_api", __name__, url_prefix="/api/service")
sim_bp = Blueprint("sim", __name__)

NO_STORE = {"Cache-Control": "no-store"}
MAX_DICE = 12


def install(app: Flask, ports: ServicePorts) -> None:
    app.extensions["companion"].service = ports
    app.register_blueprint(service_bp)
    if ports.simulated is not None:
        app.register_blueprint(sim_bp)


def _ports() -> ServicePorts:
    ports: ServicePorts = current_app.extensions["companion"].service
    return ports


def _simulated() -> SimulatedTable:
    simulated = _ports().simulated
    if simulated is None:  # the blueprint is only registered with one
        abort(404)
    return simulated


def status_payload(ports: ServicePorts) -> dict[str, Any]:
    pending = ports.readings.pending
    return {
        "health": ports.health.as_json(),
        "pending": pending.to_json() if pending else None,
        "camera_record": ports.record.summary(),
    }


@service_bp.get("/status")
def status():
    require_host()
    return jsonify(status_payload(_ports()))


@service_bp.post("/roll/confirm")
def confirm_roll():
    require_host()
    values = json_body().get("values")
    if values is not None and not _dice_list(values):
        return refuse(400, "Dice values must be a list of numbers from 1 to 6.")
    return outcome_response(_ports().readings.confirm(values))


@service_bp.post("/roll/discard")
def discard_roll():
    require_host()
    _ports().readings.discard()
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
    return render_template("sim.html", pin=state().access.pin), NO_STORE


@sim_bp.get("/api/sim/state")
def sim_state():
    ports = _ports()
    payload = status_payload(ports)
    readings = ports.readings
    prompt = readings.roll_prompt()
    payload.update(
        roll=prompt.to_json() if prompt else None,
        camera_plugged=_simulated().camera_plugged,
        last_entered=list(readings.last_submitted or []),
        last_entered_version=readings.last_submitted_version,
        version=state().table.version,
    )
    return jsonify(payload)


@sim_bp.get("/api/sim/oled.png")
def sim_oled():
    return Response(_simulated().oled_png(), mimetype="image/png", headers=NO_STORE)


@sim_bp.get("/api/sim/camera.jpg")
def sim_camera():
    frame = _ports().camera.camera_jpeg()
    if frame is None:
        return refuse(404, "No camera picture yet.")
    return Response(frame, mimetype="image/jpeg", headers=NO_STORE)


@sim_bp.post("/api/sim/button")
def sim_button():
    data = json_body()
    try:
        _simulated().press(str(data.get("button", "")), hold=bool(data.get("hold")))
    except (ValueError, RuntimeError) as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True)


@sim_bp.post("/api/sim/throw")
def sim_throw():
    data = json_body()
    values = data.get("values")
    if values is not None and not _dice_list(values):
        return refuse(400, "Dice values must be a list of numbers from 1 to 6.")
    count = data.get("count")
    if count is None:
        prompt = _ports().readings.roll_prompt()
        count = prompt.dice if prompt else 5
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_DICE:
        return refuse(400, f"Throw between 1 and {MAX_DICE} dice.")
    try:
        faces = _simulated().throw(count, values)
    except RuntimeError as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True, values=faces)


@sim_bp.post("/api/sim/camera")
def sim_camera_plug():
    plugged = json_body().get("plugged")
    if not isinstance(plugged, bool):
        return refuse(400, 'Send {"plugged": true} or {"plugged": false}.')
    try:
        _simulated().set_camera_plugged(plugged)
    except RuntimeError as exc:
        return refuse(400, str(exc))
    return jsonify(ok=True)
