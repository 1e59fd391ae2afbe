"use strict";
// The public table page: the map and everything anyone at the table may see.
(() => {
  const $ = (id) => document.getElementById(id);
  let focusKey = ""; // on a phone, the map follows the adventurer whose turn it is
  function render(payload) {
    const v = payload.view;
    document.body.dataset.version = payload.version;
    View.prompt($("prompt"), payload);
    const turn = ((v.seats || [])[v.turn] || {}).adventurer;
    const key = turn ? turn.space : "";
    Board.draw($("map"), v, { minScale: 40, focus: key !== focusKey && key ? [key] : null });
    focusKey = key;
    View.facts($("facts"), v);
    Coop.team($("coop-card"), $("coop"), v);
    View.dice($("dice"), v);
    View.people($("people"), v);
    View.traps($("traps"), View.trapNumbers(v));
    View.log($("log"), v);
    View.scores($("scores-card"), $("scores"), v, payload.reveal_checked);
    View.commitment($("commit"), v);
    if (payload.fixed_seed) {
      const warning = document.createElement("div");
      warning.id = "fixed-seed";
      warning.style.cssText = "font-weight: bold; color: #b00020";
      warning.textContent = payload.fixed_seed;
      $("commit").prepend(warning);
    }
  }
  Chac.live("/api/table/stream", render, Chac.setStatus);
})();
