"use strict";
// Temple of Chac's part of the public table page: the map (following the adventurer whose
// turn it is, on a phone), the team in co-op, the round, the last dice, the adventurers and
// the trap numbers.
Parts.define("chac", (() => {
  const $ = (id) => document.getElementById(id);
  let focusKey = "";
  return {
    noScore: "did not escape",
    tableSlots: {
      main: '<div class="map-wrap"><svg id="map" class="map" role="img" aria-label="The temple board"></svg></div>',
      side: '<section class="card" id="coop-card" hidden><h2>The team</h2><div id="coop"></div></section>' +
        '<section class="card"><h2>Round</h2><div id="facts" class="facts"></div></section>' +
        '<section class="card"><h2>Last dice</h2><div id="dice" class="dice"></div></section>' +
        '<section class="card"><h2>Adventurers</h2><div id="people"></div></section>' +
        '<section class="card"><h2>Trap numbers</h2><div id="traps" class="traps"></div></section>',
    },
    table(payload) {
      const v = payload.view;
      const turn = ((v.seats || [])[v.turn] || {}).adventurer;
      const key = turn ? turn.space : "";
      Board.draw($("map"), v, { minScale: 40, focus: key !== focusKey && key ? [key] : null });
      focusKey = key;
      ChacView.facts($("facts"), v);
      Coop.team($("coop-card"), $("coop"), v);
      ChacView.dice($("dice"), v);
      ChacView.people($("people"), v);
      ChacView.traps($("traps"), ChacView.trapNumbers(v));
    },
  };
})());
