"use strict";
// The simulated table's controls (templates/sim_controls.html), on /sim and the host page:
// the OLED mirror, the five buttons, the dice tray's throw and the camera's plug. They answer
// only on this machine; elsewhere, or on real hardware, /api/sim/state is refused and
// `Sim.start` reports that once and stops.
const Sim = (() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 700;

  async function send(url, body, okMessage) {
    try {
      const answer = await Companion.post(url, body);
      if (okMessage) Companion.toast(okMessage(answer), "ok");
      return answer;
    } catch (err) {
      Companion.toast(err.message);
      return null;
    }
  }

  // onState(state) after every poll (null: not answering); onAbsent() when there is no
  // simulated table to drive (not this machine, or real hardware).
  function start(onState, onAbsent) {
    let plugged = true;
    let timer = null;
    document.querySelectorAll(".sim button[data-b]").forEach((b) => b.addEventListener("click",
      () => send("/api/sim/button", { button: b.dataset.b, hold: Boolean(b.dataset.hold) })));
    $("sim-throw").addEventListener("click", () => {
      const body = {};
      if ($("sim-count").value) body.count = Number($("sim-count").value);
      const faces = $("sim-values").value.trim();
      if (faces) body.values = faces.split(/[\s,]+/).map(Number);
      send("/api/sim/throw", body, (r) => `Thrown: ${r.values.join(" ")}`);
    });
    $("sim-plug").addEventListener("click", () => send("/api/sim/camera", { plugged: !plugged }));

    async function poll() {
      if (document.hidden) return;
      let state = null;
      try {
        const response = await fetch("/api/sim/state", { cache: "no-store" });
        if (response.status === 403 || response.status === 404) {
          clearInterval(timer);
          if (onAbsent) onAbsent();
          return;
        }
        if (response.ok) state = await response.json();
      } catch (err) { /* not answering: said below */ }
      if (state) {
        plugged = state.camera_plugged;
        $("sim-plug").textContent = plugged ? "Unplug camera" : "Plug camera back in";
        $("sim-oled").src = `/api/sim/oled.png?t=${Date.now()}`;
      }
      onState(state);
    }
    poll();
    timer = setInterval(poll, POLL_MS);
  }

  return { start };
})();

// The /sim page itself: the camera picture and a plain status report.
if (document.getElementById("sim-status")) {
  Sim.start((s) => {
    Companion.setStatus(s ? "live" : "reconnecting");
    if (!s) { document.getElementById("sim-status").textContent = "The companion is not answering."; return; }
    document.getElementById("sim-camera").src = `/api/sim/camera.jpg?t=${Date.now()}`;
    document.getElementById("sim-status").textContent = [
      "camera:  " + s.health.camera, "display: " + s.health.display, "buttons: " + s.health.buttons,
      "waiting for: " + (s.roll ? s.roll.text : "no roll"),
      "pending reading: " + (s.pending ? `${s.pending.values.join(" ")} (${s.pending.note})` : "none"),
      "last dice entered: " + (s.last_entered.join(" ") || "none"),
    ].join("\n");
  });
}
