"use strict";
// The public table page: the map and everything anyone at the table may see.
(() => {
  const $ = (id) => document.getElementById(id);
  function render(payload) {
    const v = payload.view;
    document.body.dataset.version = payload.version;
    View.prompt($("prompt"), payload);
    Board.draw($("map"), v, {});
    View.facts($("facts"), v);
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
