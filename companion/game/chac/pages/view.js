"use strict";
// Temple of Chac's parts of every page: the round's facts, the last dice, the adventurers and
// the trap numbers, drawn from its public view.
const ChacView = (() => {
  const el = Companion.el;
  const { fact, seatName, plural } = View;
  const PHASES = {
    setup: "Setting up", load: "Load level", roll: "Roll", actions: "Actions", walls: "Walls",
    boulder: "Boulder", replace: "Replacements", score: "Scoring", over: "Game over",
  };

  function facts(node, v) {
    if (!v || !v.seats) { node.replaceChildren(el("p", {}, "No game yet.")); return; }
    node.replaceChildren(
      fact(v.round || "–", "round"),
      fact(PHASES[v.phase] || v.phase, "phase"),
      fact(seatName(v, v.dicekeeper), "dicekeeper"),
      fact(v.turn === null || v.turn === undefined ? "–" : seatName(v, v.turn), "whose turn"),
      fact(`${v.boulder.index}/${v.boulder.last_index}`, `boulder on ${v.boulder.space}`),
      fact(String(v.planks), "planks left"),
      fact(`${v.walls.left}/3 · ${v.walls.right}/3`, "walls left · right"),
      fact(String(v.walls.cards_left), "wall cards left"),
    );
  }

  function dice(node, v) {
    const last = v && v.last_dice;
    if (!last) { node.replaceChildren(el("p", { class: "hint" }, "No dice rolled yet.")); return; }
    node.replaceChildren(
      ...last.values.map((d) => el("div", { class: "die", "aria-label": `die showing ${d}` }, String(d))),
      el("span", { class: "hint" }, `for ${String(last.purpose).replace("_", " ")}`),
    );
  }

  function traps(node, numbers) {
    node.replaceChildren(...numbers.map((n) => el("div", { class: "trap" }, String(n))));
  }

  function trapNumbers(v) {
    return Object.values((v && v.traps) || {}).map(Number).sort((a, b) => a - b);
  }

  function advChip(seat, adv, extra) {
    return el("span", { class: "chip" },
      el("i", { style: `background:${Board.seatColour(seat)}` }, Companion.initials(adv.name)),
      `${adv.name}`, extra ? el("span", { class: "hint" }, ` ${extra}`) : null);
  }

  const STATUS = { alive: "", eliminated: "eliminated", escaped: "escaped", waiting: "waiting" };

  function people(node, v) {
    if (!v || !v.seats) { node.replaceChildren(); return; }
    node.replaceChildren(...v.seats.map((seat) => {
      const adv = seat.adventurer;
      const bits = [el("b", {}, seat.name), " "];
      if (!adv) bits.push(el("span", { class: "hint" }, "choosing an adventurer"));
      else {
        const where = adv.status === "alive" ? `on ${adv.space}` : STATUS[adv.status];
        bits.push(advChip(seat.seat, adv, `${where} · ${plural(adv.cards, "card")}` +
          (adv.load_level ? ` · load ${adv.load_level}` : "") +
          (adv.actions ? ` · ${plural(adv.actions, "action")}` : "")));
        if (seat.replacement === "waiting" && v.phase !== "over") bits.push(el("span", { class: "hint" }, " (replacement waiting)"));
      }
      if (seat.out) bits.push(el("span", { class: "hint" }, " — out"));
      return el("div", { "data-seat": seat.seat, style: "margin:.25rem 0" }, ...bits);
    }));
  }

  return { facts, dice, traps, trapNumbers, people, advChip };
})();
