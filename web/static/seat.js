"use strict";
// One player's private page: the prompt, my legal commands as big buttons in the game's
// words, what the table shows, the log and the scores. A game's seat part draws its own
// actions, board and private reveals instead (seat(payload, page) -> {buttons, mine}).
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  let current = null; // the last payload
  let part = {};

  async function send(command) {
    if (part.sending) part.sending(current); // before: the new view often arrives first
    $("outcome").hidden = true; // what the last action did gives way to what this one does
    try {
      await Companion.post("/api/seat/command", command);
    } catch (err) {
      if (part.sendFailed) part.sendFailed();
      Companion.toast(err.message);
    }
  }

  function button(label, command, kind) {
    return el("button", { type: "button", class: kind || null, "data-command": command.type,
      onclick: (e) => { e.currentTarget.disabled = true; send(command); } }, label);
  }

  const page = { send, button, redraw: () => render(current, part) };

  function render(payload, gamePart) {
    current = payload;
    part = gamePart;
    const v = payload.view;
    document.body.dataset.version = payload.version;
    $("me").textContent = (payload.seats || [])[payload.seat] || "My seat";
    View.prompt($("prompt"), payload, payload.seat);
    const drawn = part.seat ? part.seat(payload, page) : null;
    const buttons = drawn ? drawn.buttons : (payload.legal || []).map((cmd) => button(View.label(payload, cmd), cmd));
    $("actions-card").hidden = buttons.length === 0;
    $("actions").replaceChildren(...buttons);
    const waiting = payload.game ? [] : [el("p", {}, "Waiting for the host to start a game.")];
    $("mine").replaceChildren(...(drawn ? drawn.mine : waiting));
    if (!drawn) View.plainFacts($("plain-facts"), v, payload);
    View.log($("log"), v);
    View.scores($("scores-card"), $("scores"), v, payload.reveal_checked, part.noScore);
  }

  $("outcome").addEventListener("click", () => { $("outcome").hidden = true; });

  const view = Parts.follow("seat", render);
  Companion.live("/api/seat/stream", view, view.status, {
    check: "/api/seat",
    gone: () => {
      $("prompt").textContent = "This phone's seat link has changed (the host gave every seat a new link, " +
        "or started a game without this seat). Scan your seat's new QR code on the host's screen.";
      $("prompt").classList.remove("mine");
      $("actions-card").hidden = true;
      $("status").dataset.state = "gone";
      $("status").textContent = "link changed";
    },
  });
})();
