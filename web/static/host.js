"use strict";
// The host's page: PIN sign-in, game setup, dice entry and correction, table commands,
// position corrections, undo, the seats' QR codes, the camera preview, scores and reveal; the
// companion's health and its pending dice reading, and the simulated table when there is one.
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  let current = null;
  let started = false;
  let waitingForRoll = false; // the table asks for a roll

  async function act(url, body, okMessage) {
    try {
      const answer = await Companion.post(url, body);
      if (okMessage) Companion.toast(okMessage, "ok");
      return answer;
    } catch (err) {
      Companion.toast(err.message);
      return null;
    }
  }

  // --- sign in -------------------------------------------------------------------------
  $("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const answer = await act("/api/host/login", { pin: $("pin").value.trim() });
    if (answer) { $("login").hidden = true; $("host").hidden = false; start(); }
  });

  // --- setup ---------------------------------------------------------------------------
  // The form is generated from the picked game's declared options (GET /api/host/games);
  // a game's host part may add fields of its own (setupFields) and read them (setupOptions).
  let games = [];
  let setupPart = {};

  // Until the list of games arrives, the seats may take any count; the game's range applies
  // once it is known.
  const ANY_COUNT = { min_seats: 1, max_seats: 6 };

  function picked() {
    return games.find((g) => g.name === $("setup-game").value) || games[0] || ANY_COUNT;
  }

  function seatInput(i, name) {
    return el("label", {}, `Player ${i + 1} `, el("input", { name: "seat", value: name || "", maxlength: "24", required: true, "aria-label": `Player ${i + 1} name`, autocomplete: "off" }));
  }

  const YES_NO = { true: "Yes", false: "No" };

  function choiceText(value) {
    if (value === null) return "The default";
    return typeof value === "boolean" ? YES_NO[value] : String(value);
  }

  // An option's values as the select offers them: its choices, yes/no, or its whole range.
  function values(o) {
    if (o.kind === "bool") return [true, false];
    if (o.kind === "int") return Array.from({ length: o.high - o.low + 1 }, (_, i) => o.low + i);
    return o.choices;
  }

  function optionField(o) {
    const label = o.name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
    const select = el("select", { name: o.name, "aria-label": label },
      ...values(o).map((v) => el("option", { value: v === null ? "" : String(v) }, choiceText(v))));
    select.value = o.default === null ? "" : String(o.default);
    return el("label", {}, label + " ", select, el("span", { class: "hint", style: "display:block" }, o.help));
  }

  // The seats and the options appear together, once the game's part is loaded, and the
  // game can start, or a seat be added or removed, only then: a form submitted in between
  // would miss the options, and a seat added or removed would be undone by the seats shown.
  const SETUP_BUTTONS = ["setup-start", "add-seat", "drop-seat"];

  function setupReady(ready) {
    for (const id of SETUP_BUTTONS) $(id).disabled = !ready;
  }

  async function showGame() {
    setupReady(false);
    const game = picked();
    const part = await Parts.load(game.name, game.parts);
    if (picked() !== game) return; // the host picked another game meanwhile
    setupPart = part;
    const typed = [...document.querySelectorAll("#setup-seats input")].map((i) => i.value);
    const count = Math.min(Math.max(typed.length || 3, game.min_seats), game.max_seats);
    $("setup-seats").replaceChildren(...Array.from({ length: count }, (_, i) => seatInput(i, typed[i])));
    $("setup-options").replaceChildren(...game.options.map(optionField),
      ...(setupPart.setupFields ? setupPart.setupFields(el) : []));
    $("setup-hint").textContent = setupPart.setupHint || "";
    setupReady(true);
  }

  async function buildSetup() {
    const response = await fetch("/api/host/games", { cache: "no-store" });
    if (!response.ok) {
      $("setup-hint").textContent = "The list of games did not load: reload the page.";
      return;
    }
    games = await response.json();
    $("setup-game").replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
    await showGame();
  }

  $("setup-game").addEventListener("change", showGame);
  $("add-seat").addEventListener("click", () => {
    const seats = $("setup-seats");
    if (seats.children.length < picked().max_seats) seats.append(seatInput(seats.children.length, ""));
  });
  $("drop-seat").addEventListener("click", () => {
    const seats = $("setup-seats");
    if (seats.children.length > picked().min_seats) seats.lastElementChild.remove();
  });
  $("setup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (current && current.game && !current.over && !confirm("Replace the game in progress with a new one?")) return;
    const game = picked();
    const names = [...document.querySelectorAll("#setup-seats input")].map((i) => i.value.trim());
    const options = {};
    for (const o of game.options) {
      const raw = document.querySelector(`#setup-options [name=${o.name}]`).value;
      if (raw === "") continue; // the game's own default
      options[o.name] = values(o).find((v) => String(v) === raw);
    }
    if (setupPart.setupOptions) setupPart.setupOptions($("setup-options"), options);
    await act("/api/host/new-game", { game: game.name, seats: names, options }, "New game started.");
  });

  // --- dice, commands, corrections, undo ----------------------------------------------
  $("dice-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const values = $("dice-values").value.replace(/[^1-6]/g, "").split("").map(Number);
    if (await act("/api/host/command", { type: "dice", values }, `Dice entered: ${values.join(" ")}`)) {
      $("dice-values").value = "";
    }
  });
  $("undo").addEventListener("click", () => act("/api/host/undo", {}, "Undone."));
  $("reissue").addEventListener("click", () => {
    if (confirm("Give every seat a new link? Phones that joined must scan their new code.")) {
      act("/api/host/reissue", {}, "New links: every player scans their code again.");
    }
  });
  let shownJoins = "";

  function seats(payload) {
    const joins = payload.joins || [];
    const key = JSON.stringify(joins);
    if (key === shownJoins) return; // keep the QR images: redrawing them would flicker
    shownJoins = key;
    $("seats").replaceChildren(...joins.map((j) => el("figure", { "data-seat": j.seat },
      el("img", { class: "qr", src: `/api/host/qr/${j.seat}.svg?v=${encodeURIComponent(j.url.slice(-6))}`, alt: `QR code for ${j.name}` }),
      el("figcaption", {}, el("div", { style: "font-size:1rem" }, j.name), el("a", { href: j.url, "data-join": j.seat }, j.url)))));
  }

  // The table's commands as buttons in the game's words; the dice have their own form, and
  // ending the game its own card. A game's host part may offer them its own way.
  function tableActions(payload) {
    return (payload.legal || []).filter((cmd) => cmd.type !== "dice" && cmd.type !== "end_game")
      .map((cmd) => el("button", { type: "button", "data-command": cmd.type,
        onclick: () => act("/api/host/command", cmd) }, View.label(payload, cmd)));
  }

  const page = { act };

  function render(payload, part) {
    current = payload;
    const v = payload.view;
    document.body.dataset.version = payload.version;
    View.prompt($("prompt"), payload);
    const rolling = (payload.prompts || []).find((p) => p.kind === "roll");
    waitingForRoll = Boolean(rolling);
    $("dice-card").classList.toggle("over", Boolean(rolling));
    $("dice-values").placeholder = rolling ? `${rolling.dice} dice, e.g. ${"35162".slice(0, rolling.dice)}` : "no roll expected now";
    $("dice-card").hidden = !payload.uses_dice;
    $("table-actions").replaceChildren(...(part.hostActions ? part.hostActions(payload, page) : tableActions(payload)));
    // Ending the game sits in its own card far from the routine buttons, and asks first.
    const end = (payload.legal || []).find((c) => c.type === "end_game");
    $("end-card").hidden = !end;
    $("end-game").onclick = () => {
      if (end && confirm("End the game now? Scores and the hidden state are revealed.")) act("/api/host/command", end);
    };
    $("end-hint").textContent = part.endHint || "The game is scored as it stands, and the hidden state is revealed.";
    if (part.host) part.host(payload, page);
    seats(payload);
    View.log($("log"), v);
    View.scores($("scores-card"), $("scores"), v, payload.reveal_checked, part.noScore);
  }

  // --- the companion: hardware health and a dice reading waiting for a person ----------
  const HEALTH = [["camera", "Camera"], ["display", "Screen"], ["buttons", "Buttons"]];
  let shownPending = "";

  function renderService(s) {
    $("service-card").hidden = false;
    $("health").replaceChildren(...HEALTH.map(([key, label]) => {
      const said = s.health[key];
      const state = ["ok", "off", "starting"].includes(said) ? said : "fault"; // else: what is wrong
      return el("li", { "data-part": key, "data-state": state }, el("b", {}, label), " ", said === "ok" ? "working" : said);
    }));
    renderRecord(s.camera_record);
    const p = s.pending;
    $("pending").hidden = !p;
    const key = p ? JSON.stringify(p) : "";
    if (key === shownPending) return; // keep what the host is typing
    shownPending = key;
    if (!p) return;
    const doubted = new Set(p.doubted);
    $("pending-dice").replaceChildren(...p.values.map((v, i) => el("span", doubted.has(i)
      ? { class: "die doubt", title: "The camera is not sure of this die" }
      : { class: "die" }, String(v))));
    const look = doubted.size ? ` Look at the ${doubted.size > 1 ? "dice" : "die"} marked ? first.` : "";
    $("pending-note").textContent =
      p.note + look + (p.expected ? ` (The table expects ${p.expected} dice.)` : "");
    $("pending-values").value = p.values.join("");
  }

  // While the table waits for a roll, a reading to confirm shows within a quarter second.
  const POLL_MS = 1000, ROLL_POLL_MS = 250;

  function keepPolling() {
    pollService().finally(() => setTimeout(keepPolling, waitingForRoll ? ROLL_POLL_MS : POLL_MS));
  }

  const percent = (r) => `${Math.round(100 * r.rate)}%`;
  let shownRecord = "";

  function renderRecord(record) {
    const key = JSON.stringify(record || null);
    if (key === shownRecord) return;
    shownRecord = key;
    const learnt = record && record.learnt;
    $("camera-record").hidden = !record || (!record.recent.rolls && !learnt);
    if (!record) return;
    $("camera-learnt").hidden = !learnt;
    if (learnt) {
      const when = new Date(learnt.at * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
      $("camera-learnt").textContent =
        `The reader has learnt from ${learnt.dice} of this table's dice (${when}).`;
    }
    const recent = record.recent;
    $("camera-recent").textContent = recent.rolls
      ? `Hands-free: ${recent.hands_free} of the last ${recent.rolls} rolls (${percent(recent)}).`
      : "";
    $("camera-games").replaceChildren(...record.games.map((g, i) => el("li", {},
      `${i === 0 ? "Latest game" : `${i} game${i > 1 ? "s" : ""} before`}: ${percent(g)} of ${g.rolls} rolls hands-free`)));
    $("camera-wrong-title").hidden = !record.wrong.length;
    $("camera-wrong").replaceChildren(...record.wrong.map((w) => el("li", {},
      el("span", { class: "dice" }, w.read.join(" ")), " → ", el("span", { class: "dice" }, w.table.join(" ")))));
  }

  async function pollService() {
    if (document.hidden || $("host").hidden) return;
    let response;
    try {
      response = await fetch("/api/service/status", { cache: "no-store" });
    } catch (err) {
      return; // the stream's badge already says the companion is not answering
    }
    if (response.ok) renderService(await response.json());
  }

  $("pending-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const values = $("pending-values").value.replace(/[^1-6]/g, "").split("").map(Number);
    if (await act("/api/service/roll/confirm", { values }, `Dice entered: ${values.join(" ")}`)) pollService();
  });
  $("pending-discard").addEventListener("click", async () => {
    if (await act("/api/service/roll/discard", {}, "Reading discarded; throw again.")) pollService();
  });

  function refreshCamera() {
    if (document.hidden || $("host").hidden) return;
    $("camera").src = `/api/host/camera?t=${Date.now()}`;
  }

  function start() {
    if (started) return;
    started = true;
    buildSetup();
    const view = Parts.follow("host", render);
    Companion.live("/api/host/stream", view, view.status);
    refreshCamera();
    setInterval(refreshCamera, 1000);
    if ($("host").dataset.service) {
      keepPolling();
    }
    if ($("host").dataset.sim) {
      Sim.start((s) => { if (s) $("sim-card").hidden = false; }, () => { $("sim-card").hidden = true; });
    }
  }

  if (!$("host").hidden) start();
  else Companion.setStatus("reconnecting");
})();
