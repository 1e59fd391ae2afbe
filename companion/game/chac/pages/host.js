"use strict";
// Temple of Chac's part of the host page: the faces each alcove roll needs (house rule
// CHAC-ALC-1), typed as digits since they are not one value from a list; the table's
// commands in the table's words with the planks count; position corrections on the map;
// and the receipt of the setup commitment (CHAC-FAIR-1).
Parts.define("chac", (() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  // Commands naming a seat: its name as the table view gives it.
  const TABLE_WORDS = {
    first_dicekeeper: (c, v) => `First dicekeeper: ${View.seatName(v, c.keeper)}`,
    pass_dice: (c, v) => `Dice to ${View.seatName(v, c.keeper)}`,
  };
  const SKIP = new Set(["dice", "set_space", "set_boulder", "set_planks"]);

  function hostActions(payload, page) {
    const act = page.act;
    const v = payload.view;
    const out = [];
    for (const cmd of payload.legal || []) {
      if (SKIP.has(cmd.type) || cmd.type === "end_game") continue;
      const words = TABLE_WORDS[cmd.type];
      out.push(el("button", { type: "button", "data-command": cmd.type,
        onclick: () => act("/api/host/command", cmd) }, words ? words(cmd, v) : View.label(payload, cmd)));
    }
    if (payload.legal && payload.legal.some((c) => c.type === "set_planks")) {
      const planks = el("input", { type: "number", min: "0", max: "5", value: String(v.planks), "aria-label": "Planks left", style: "width:5rem" });
      out.push(el("div", { class: "row" }, "Planks left", planks,
        el("button", { type: "button", class: "secondary", onclick: () => act("/api/host/command", { type: "set_planks", planks: Number(planks.value) }, "Planks corrected.") }, "Set planks")));
    }
    return out;
  }

  function corrections(payload, act) {
    const v = payload.view;
    const canCorrect = (payload.legal || []).some((c) => c.type === "set_space");
    $("correct-card").hidden = !canCorrect;
    if (!canCorrect) return;
    const who = $("correct-who"), to = $("correct-to");
    const keepWho = who.value, keepTo = to.value;
    who.replaceChildren(
      ...v.seats.filter((s) => s.adventurer && s.adventurer.status === "alive")
        .map((s) => el("option", { value: String(s.seat) }, `${s.adventurer.name} (${s.name})`)),
      el("option", { value: "boulder" }, "The boulder"));
    Board.layout(v).then((L) => {
      to.replaceChildren(...Object.keys(L.spaces).map((name) => el("option", { value: name }, name)));
      if (keepTo) to.value = keepTo;
    });
    if (keepWho) who.value = keepWho;
    $("correct-hint").textContent = "Use this when the board and the companion disagree; Undo reverts the last command.";
  }

  const ALCOVES = [["lava", "Lava alcove needs faces", "123"], ["chasm", "Chasm alcove needs faces", "12345"]];
  return {
    hostSlots: {
      corrections: '<section class="card" id="correct-card"><h2>Correct a position</h2>' +
        '<form id="correct-form" class="row">' +
        '<select id="correct-who" aria-label="Adventurer"></select>' +
        '<select id="correct-to" aria-label="Space"></select>' +
        '<button type="submit" class="secondary">Place</button>' +
        '</form>' +
        '<p class="hint" id="correct-hint"></p>' +
        '</section>' +
        '<section class="card" id="receipt-card" hidden><h2>Commitment receipt</h2><div id="receipt"></div></section>',
      board: '<div class="map-wrap"><svg id="map" class="map" role="img" aria-label="The temple board"></svg></div>',
    },
    endHint: "Everyone still in the temple is out, those who escaped are scored, and the hidden state is revealed.",
    hostActions,
    host(payload, page) {
      const act = page.act;
      $("correct-form").onsubmit = (e) => {
        e.preventDefault();
        const who = $("correct-who").value;
        const to = $("correct-to").value;
        if (who === "boulder") act("/api/host/command", { type: "set_boulder", to }, `Boulder set to ${to}.`);
        else act("/api/host/command", { type: "set_space", player: Number(who), to }, `Moved to ${to}.`);
      };
      corrections(payload, act);
      Board.draw($("map"), payload.view, { minScale: 40 });
      Coop.receipt($("receipt-card"), $("receipt"), payload.view);
    },
    setupHint: "One player: co-op only. Once started, choose the first dicekeeper (the oldest player) under Table commands, or in co-op with triplets enter each player's roll.",
    setupFields(el) {
      return ALCOVES.map(([kind, label, faces]) => el("label", {}, label + " ",
        el("input", { name: `alcove_${kind}`, value: faces, inputmode: "numeric", maxlength: "5", style: "width:7rem", "aria-label": label })));
    },
    setupOptions(form, options) {
      options.alcove_faces = {};
      for (const [kind] of ALCOVES) {
        const typed = form.querySelector(`[name=alcove_${kind}]`).value;
        options.alcove_faces[kind] = typed.replace(/[^1-6]/g, "").split("").map(Number);
      }
    },
  };
})());
