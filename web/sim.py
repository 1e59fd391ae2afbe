"""The running companion's own endpoints: hardware health and the pending dice reading for the
host, and, on a simulated table, a page with the OLED mirror, the button panel and a dice tray.

`install(app, service)` registers them on the app from `web.app.create_app`:

- `GET /api/service/status` (host): {"health": {camera, display, buttons}, "pending": ...}
- `POST /api/service/roll/confirm` (host): {"values": [...]?} submits the pending reading
  (or the corrected values); `POST /api/service/roll/discard` drops it.
- Simulated table only, and only from this machine (the OLED mirror shows the host PIN, as the
  real OLED does to people at the table): `GET /sim` (the page), `GET /api/sim/state`,
  `GET /api/sim/oled.png`, `GET /api/sim/camera.jpg`, `POST /api/sim/button`
  {"button": "OK", "hold": false}, `POST /api/sim/throw` {"count": 5?, "values": [...]?},
  `POST /api/sim/camera` {"plugged": false}.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, request

from web.guard import json_body, refuse, require_host
from web.routes_seat import outcome_response

service_bp = Blueprint("service_api", __name__, url_prefix="/api/service")
sim_bp = Blueprint("sim", __name__)

NO_STORE = {"Cache-Control": "no-store"}
MAX_DICE = 12


def install(app: Flask, service: Any) -> None:
    app.extensions["chac"].extra["service"] = service
    app.register_blueprint(service_bp)
    if service.simulator is not None:
        app.register_blueprint(sim_bp)


def _service() -> Any:
    return current_app.extensions["chac"].extra["service"]


def status_payload(service: Any) -> dict[str, Any]:
    pending = service.rolls.pending
    return {
        "health": service.health.as_json(),
        "pending": pending.to_json() if pending else None,
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
    return Response(SIM_PAGE, mimetype="text/html", headers=NO_STORE)


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


SIM_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chac Companion: simulated table</title>
<style>
body{font-family:system-ui,sans-serif;background:#1b1d1f;color:#eee;margin:1rem;max-width:60rem}
h1{font-size:1.2rem}section{margin:1rem 0}a{color:#9cf}
#oled{width:384px;height:192px;image-rendering:pixelated;border:6px solid #000;background:#000}
#camera{max-width:100%;width:480px;background:#222}
button{font-size:1rem;padding:.5rem .8rem;margin:.2rem;border-radius:.4rem;border:0;
background:#3a6ea5;color:#fff;cursor:pointer}button.hold{background:#6a4c93}
#status{white-space:pre-wrap;font-family:monospace;background:#111;padding:.5rem}
.err{color:#f88}
</style></head><body>
<h1>Simulated table</h1>
<p><a href="/">Table page</a> &middot; <a href="/host">Host page</a></p>
<section><h2>OLED</h2><img id="oled" alt="The companion's screen"></section>
<section><h2>Buttons</h2>
<button data-b="UP">Up</button><button data-b="DOWN">Down</button>
<button data-b="OK">OK</button><button data-b="BACK">Back</button>
<button data-b="MENU">Menu</button>
<button class="hold" data-b="BACK" data-hold="1">Hold Back (undo)</button>
<button class="hold" data-b="MENU" data-hold="1">Hold Menu (peek)</button>
</section>
<section><h2>Dice tray</h2>
<label>Dice <input id="count" type="number" min="1" max="12" placeholder="auto"></label>
<label>Faces <input id="values" placeholder="random, or e.g. 3 5 1"></label>
<button id="throw">Throw</button>
<button id="plug">Unplug camera</button>
<p id="msg"></p>
<img id="camera" alt="What the camera sees">
</section>
<section><h2>Status</h2><div id="status">...</div></section>
<script>
const $ = (id) => document.getElementById(id);
async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body)});
  const data = await r.json();
  $("msg").textContent = r.ok ? "" : data.error;
  $("msg").className = r.ok ? "" : "err";
  return data;
}
document.querySelectorAll("button[data-b]").forEach((b) => b.onclick = () =>
  post("/api/sim/button", {button: b.dataset.b, hold: !!b.dataset.hold}));
$("throw").onclick = async () => {
  const body = {};
  if ($("count").value) body.count = Number($("count").value);
  const faces = $("values").value.trim();
  if (faces) body.values = faces.split(/[\\s,]+/).map(Number);
  const r = await post("/api/sim/throw", body);
  if (r.ok) $("msg").textContent = "Thrown: " + r.values.join(" ");
};
let plugged = true;
$("plug").onclick = () => post("/api/sim/camera", {plugged: !plugged});
async function refresh() {
  try {
    const s = await (await fetch("/api/sim/state")).json();
    plugged = s.camera_plugged;
    $("plug").textContent = plugged ? "Unplug camera" : "Plug camera back in";
    const lines = [
      "camera:  " + s.health.camera, "display: " + s.health.display,
      "buttons: " + s.health.buttons,
      "waiting for: " + (s.roll ? s.roll.text : "no roll"),
      "pending reading: " + (s.pending ? s.pending.values.join(" ") + " (" + s.pending.note + ")"
                                      : "none"),
      "last dice entered: " + (s.last_entered.join(" ") || "none"),
    ];
    $("status").textContent = lines.join("\\n");
  } catch (e) { $("status").textContent = "The companion is not answering."; }
  const t = Date.now();
  $("oled").src = "/api/sim/oled.png?t=" + t;
  $("camera").src = "/api/sim/camera.jpg?t=" + t;
}
refresh(); setInterval(refresh, 700);
</script></body></html>
"""
