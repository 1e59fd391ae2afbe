"use strict";
// Parts shared by the table, seat and host pages: facts, dice, people, traps, log, scores.
const View = (() => {
  const el = Chac.el;
  const PHASES = {
    setup: "Setting up", load: "Load level", roll: "Roll", actions: "Actions", walls: "Walls",
    boulder: "Boulder", replace: "Replacements", score: "Scoring", over: "Game over",
  };

  // The words the game describes a listed command with (the payload's "labels", in order).
  function label(payload, cmd) {
    return (payload.labels || [])[payload.legal.indexOf(cmd)] || cmd.type.replace(/_/g, " ");
  }

  function seatName(v, seat) {
    if (seat === null || seat === undefined || !v.seats || !v.seats[seat]) return "–";
    return v.seats[seat].name;
  }

  function fact(value, label) {
    return el("div", { class: "fact" }, el("b", {}, value), el("span", {}, label));
  }

  function facts(node, v) {
    if (!v || v.game !== "chac") { node.replaceChildren(el("p", {}, "No game yet.")); return; }
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
      el("i", { style: `background:${Board.seatColour(seat)}` }, Chac.initials(adv.name)),
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

  function log(node, v) {
    const lines = (v && v.log) || [];
    node.replaceChildren(...lines.slice().reverse().map((line) => el("li", {}, line)));
    if (v && v.log_count) node.setAttribute("start", v.log_count);
  }

  function scores(card, node, v, checked) {
    const result = v && v.result;
    card.hidden = !result;
    if (!result) return;
    const rows = v.seats.map((seat) => {
      const score = result.scores[String(seat.seat)];
      const won = result.winners.includes(seat.seat);
      return el("tr", {}, el("td", {}, seat.name), el("td", {}, score === undefined ? "did not escape" : String(score)),
        el("td", {}, won ? "wins" : ""));
    });
    const parts = [el("table", { class: "scores" }, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Score"), el("th", {}, "")), ...rows)];
    const caskets = Object.entries(result.caskets || {}).map(([deck, value]) => `${deck}: ${value}`).join(", ");
    if (caskets) parts.push(el("p", {}, `Caskets: ${caskets}`));
    if (v.reveal) {
      const verdict = checked === true ? "matches the commitment made at setup ✔"
        : checked === false ? "does NOT match the commitment made at setup ✘" : "";
      parts.push(el("p", { id: "reveal-check", "data-checked": String(checked) }, `Hidden state revealed: ${verdict}`));
      parts.push(el("p", { class: "hint" }, "Anyone can check: SHA-256 of salt + \":\" + the hidden state (sorted-key JSON)."));
      parts.push(el("div", { class: "commit", id: "reveal" }, `salt ${v.reveal.salt}`));
      parts.push(el("div", { class: "commit" }, JSON.stringify(v.reveal.hidden)));
    }
    node.replaceChildren(...parts);
  }

  function commitment(node, v) {
    if (!v || !v.commitment) { node.textContent = "–"; return; }
    node.replaceChildren(
      el("div", {}, `SHA-256 ${v.commitment}`),
      el("div", { class: "hint" }, v.reveal ? "Revealed below with the scores." : "Revealed when the game ends."),
    );
  }

  function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

  // A prompt in the table's words: the player and their adventurer ("Ana (Lea): 3 actions
  // left"), and for a roll nobody is named in, the dicekeeper who rolls.
  function promptWords(p, v) {
    const seats = (v && v.seats) || [];
    const seat = p.seat === null || p.seat === undefined ? null : seats[p.seat];
    let text = p.text;
    let who = null;
    if (seat) {
      const adv = seat.adventurer;
      who = adv ? `${seat.name} (${adv.first_name})` : seat.name;
      for (const name of [adv && adv.first_name, seat.name]) {
        if (name && text.startsWith(`${name}: `)) { text = text.slice(name.length + 2); break; }
      }
    } else if (p.kind === "roll" && seats[v.dicekeeper]) {
      who = `${seats[v.dicekeeper].name}, the dicekeeper`;
    }
    if (!who) return text;
    return `${who}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
  }

  function promptText(payload, mySeat) {
    const prompts = payload.prompts || [];
    if (!payload.game) return { text: "No game yet: the host starts one on the host page.", mine: false };
    if (!prompts.length) return { text: "…", mine: false };
    const mine = prompts.find((p) => p.seat === mySeat && mySeat !== undefined);
    return { text: promptWords(mine || prompts[0], payload.view), mine: Boolean(mine) };
  }

  function prompt(node, payload, mySeat) {
    const { text, mine } = promptText(payload, mySeat);
    node.textContent = text;
    node.classList.toggle("mine", mine);
  }

  return { facts, dice, traps, trapNumbers, people, log, scores, commitment, prompt, promptWords, seatName, label, advChip, plural };
})();
