"use strict";
// The public table page: everything anyone at the table may see. A game's table part draws
// its board and facts; for a game without one, its public view's plain facts and players.
(() => {
  const $ = (id) => document.getElementById(id);
  function render(payload, part) {
    const v = payload.view;
    document.body.dataset.version = payload.version;
    View.prompt($("prompt"), payload);
    if (part.table) part.table(payload);
    else {
      View.plainFacts($("plain-facts"), v, payload);
      View.players($("players"), v);
    }
    View.log($("log"), v);
    View.scores($("scores-card"), $("scores"), v, payload.reveal_checked, part.noScore);
    View.commitment($("commit"), v);
    if (payload.fixed_seed) {
      const warning = document.createElement("div");
      warning.id = "fixed-seed";
      warning.style.cssText = "font-weight: bold; color: #b00020";
      warning.textContent = payload.fixed_seed;
      $("commit").prepend(warning);
    }
  }
  const view = Parts.follow("table", render);
  Companion.live("/api/table/stream", view, view.status);
})();
