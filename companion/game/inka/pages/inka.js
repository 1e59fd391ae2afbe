"use strict";
// Inka on the pages. Table and seat: whose turn it is, in their colour; the phase and the
// action points left (spent ones struck); the setup's progress; the turn order with each
// player's statues (three pips in their colour) and blocking counter. Seat: on the player's
// turn the steps the panel's menu offers, as big buttons grouped by phase; a step the rules
// would refuse is greyed but still answers with the reason. Labels come from the game
// ("offer_labels", its describe) and words from its view; none are written here.
Parts.define("inka", (() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  const BLOCKER = { off: "blocker off the board", space: "blocker on a space", tile: "blocker on a stepping tile" };
  // The phase a step belongs to (INKA-TURN-1); end_turn closes the list under no heading.
  const PHASE_OF = { lift_blocker: 1, move_tile: 2, snake: 3, collect_statue: 3, secret_passage: 3, diamond: 3, exit: 3, place_blocker: 4 };

  const seatOf = (v, seat) => (v.seats || [])[seat] || {};
  const who = (v, seat) => {
    const s = seatOf(v, seat);
    return s.colour ? `${s.name} (${s.colour})` : s.name || "–";
  };
  const dot = (colour) => el("i", { class: "inka-dot", "data-colour": colour || null });

  function statues(v, s) {
    const pips = [];
    for (let i = 0; i < v.statues_each; i++) pips.push(el("i", { class: "inka-pip", "data-held": i < s.statues || null }));
    return el("span", { class: "inka-statues", "data-colour": s.colour || null, title: `${s.statues} of ${v.statues_each} statues` },
      ...pips, ` ${s.statues}/${v.statues_each} statues`);
  }

  function pointMarks(v) {
    const marks = [];
    for (let i = 0; i < v.action_points; i++) marks.push(el("i", { class: "inka-point", "data-spent": i >= v.points || null }));
    return el("div", { class: "inka-points", id: "inka-points", "data-left": v.points },
      el("span", { class: "inka-marks", "aria-hidden": "true" }, ...marks),
      el("span", {}, el("b", {}, String(v.points)), ` of ${View.plural(v.action_points, "action point")} left`));
  }

  function phases(v) {
    return el("ol", { class: "inka-phases" }, ...(v.phase_names || []).map((name, i) =>
      el("li", { "data-now": i + 1 === v.phase || null }, name)));
  }

  // Whose turn or placement, and what it is about: the biggest thing on the page.
  function turnCard(v) {
    const seats = v.seats || [];
    const big = (seat, text) => el("div", { class: "inka-who", "data-colour": seatOf(v, seat).colour || null },
      dot(seatOf(v, seat).colour), el("b", {}, who(v, seat)), text ? ` ${text}` : "");
    if (v.stage === "setup") {
      const chosen = seats.filter((s) => s.colour).length;
      return [el("h3", {}, "Setting up"),
        el("p", {}, `Colours chosen: ${chosen} of ${seats.length}.`),
        el("p", {}, v.first === null ? "The host names the youngest player, who begins." : `${who(v, v.first)} is the youngest and begins.`)];
    }
    if (v.stage === "starts") {
      const placed = seats.filter((s) => s.started).length;
      return [el("h3", {}, "Setting up: starting spaces"), big(v.turn, "puts the playing counter on a starting space"),
        el("p", {}, `${placed} of ${seats.length} counters placed.`)];
    }
    if (v.stage === "tiles") {
      return [el("h3", {}, "Setting up: stepping tiles"), big(v.turn, "places a stepping tile"),
        el("p", { class: "inka-big", id: "inka-tiles-left" }, `${v.tiles_left} of ${v.stepping_tiles} tiles left`)];
    }
    if (v.stage === "over") {
      const winner = (v.result || {}).winner;
      return [el("h3", {}, "Game over"), big(winner, `wins, out with all ${v.statues_each} statues`)];
    }
    return [el("h3", { id: "inka-turn-title" }, `Turn ${v.turn_number} · phase ${v.phase} of 4: ${v.phase_name}`),
      big(v.turn), pointMarks(v), phases(v)];
  }

  function order(v) {
    const seats = (v.order && v.order.length ? v.order : (v.seats || []).map((s) => s.seat));
    return seats.map((seat) => {
      const s = seatOf(v, seat);
      return el("div", { class: "inka-player", "data-seat": seat, "data-colour": s.colour || null, "data-turn": seat === v.turn || null },
        el("div", {}, dot(s.colour), el("b", {}, s.name), s.colour ? ` ${s.colour}` : " (no colour yet)"),
        el("div", { class: "inka-line" }, statues(v, s), el("span", { class: "hint" }, BLOCKER[s.blocker] || "")));
    });
  }

  function drawShared(v) {
    $("inka-turn").replaceChildren(...turnCard(v));
    $("inka-order").replaceChildren(...order(v));
  }

  function table(payload) {
    drawShared(payload.view);
  }

  // --- the seat page ---------------------------------------------------------------------
  const key = (cmd) => JSON.stringify(Object.keys(cmd).sort().map((k) => [k, cmd[k]]));

  let page = null;

  function seat(payload, given) {
    page = given;
    const v = payload.view;
    const labels = payload.offer_labels || payload.labels || [];
    const offers = (payload.offers || payload.legal || []).map((cmd, i) => ({ cmd, label: labels[i] }));
    offers.sort((a, b) => (PHASE_OF[a.cmd.type] || 9) - (PHASE_OF[b.cmd.type] || 9)); // stable
    const legal = new Set((payload.legal || []).map(key));
    const buttons = [];
    let heading = null;
    for (const { cmd, label } of offers) {
      const phase = PHASE_OF[cmd.type];
      if (v.stage === "play" && phase && phase !== heading && offers.length > 1) {
        heading = phase;
        buttons.push(el("h3", { class: "inka-group" }, `Phase ${phase}: ${v.phase_names[phase - 1]}`));
      }
      const allowed = legal.has(key(cmd));
      const kind = !allowed ? "inka-refused" : cmd.type === "end_turn" ? "secondary" : null;
      const node = page.button(label || cmd.type, cmd, kind);
      if (!allowed) node.title = "Not possible now: tap to read why";
      buttons.push(node);
    }
    const me = seatOf(v, payload.seat);
    const mine = [el("div", { class: "inka-player", "data-colour": me.colour || null },
      el("div", {}, dot(me.colour), el("b", {}, me.name || "–"), me.colour ? ` plays ${me.colour}` : " has no colour yet"),
      el("div", { class: "inka-line" }, statues(v, me), el("span", { class: "hint" }, BLOCKER[me.blocker] || "")))];
    drawShared(v);
    return { buttons, mine };
  }

  const CARDS = '<section class="card"><h2>Whose turn</h2><div id="inka-turn"></div></section>' +
    '<section class="card"><h2>Turn order</h2><div id="inka-order"></div></section>';
  return {
    tableSlots: { main: CARDS },
    table,
    seatSlots: { middle: CARDS },
    seat,
    // A refused step changes nothing, so no new view redraws its button: enable it again.
    sendFailed: () => { if (page) page.redraw(); },
    noScore: "–",
  };
})());
