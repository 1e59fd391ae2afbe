"use strict";
// Parts shared by the table, seat and host pages: the prompt, the log, scores and commitment,
// and for a game that brings no page parts, its public view's plain facts and its players.
const View = (() => {
  const el = Companion.el;
  // The words the game describes a listed command with (the payload's "labels", in order).
  function label(payload, cmd) {
    return (payload.labels || [])[payload.legal.indexOf(cmd)] || cmd.type.replace(/_/g, " ");
  }

  function seatName(v, seat) {
    if (seat === null || seat === undefined || !v || !v.seats || !v.seats[seat]) return "–";
    return seatsOf(v)[seat].name;
  }

  function fact(value, label) {
    return el("div", { class: "fact" }, el("b", {}, value), el("span", {}, label));
  }

  function log(node, v) {
    const lines = (v && v.log) || [];
    node.replaceChildren(...lines.slice().reverse().map((line) => el("li", {}, line)));
    if (v && v.log_count) node.setAttribute("start", v.log_count);
  }

  // noScore: what a seat without a score reads (a game's page part may word it).
  function scores(card, node, v, checked, noScore) {
    const result = v && v.result;
    card.hidden = !result;
    if (!result) return;
    const winners = result.winners || (result.winner === undefined || result.winner === null ? [] : [result.winner]);
    const rows = seatsOf(v).map((seat) => {
      const score = (result.scores || {})[String(seat.seat)];
      const won = winners.includes(seat.seat);
      return el("tr", {}, el("td", {}, seat.name), el("td", {}, score === undefined ? noScore || "–" : String(score)),
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

  // The view's seats as [{seat, name, ...}], whichever way the game lists them.
  function seatsOf(v) {
    return ((v && v.seats) || []).map((seat, i) => (typeof seat === "object" && seat !== null
      ? { seat: i, ...seat, name: seat.name || `Player ${i + 1}` } : { seat: i, name: String(seat) }));
  }

  const HIDE = new Set(["game", "seats", "log", "log_count", "commitment", "reveal", "result", "options", "you"]);
  const words = (key) => key.replace(/_/g, " ");

  function plain(value) {
    if (value === null || value === undefined) return "–";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value) && value.every((x) => typeof x !== "object" || x === null)) return value.join(", ") || "none";
    return typeof value === "object" ? null : String(value);
  }

  // A game without page parts: whose turn, then every plain fact of its view, in its own
  // key names (numbers, words, lists of them); nested objects are left to the log.
  function plainFacts(node, v, payload) {
    if (!payload.game) { node.replaceChildren(el("p", {}, "No game yet.")); return; }
    const turn = (payload.prompts || []).find((p) => p.seat !== null && p.seat !== undefined);
    const out = [fact(turn ? seatName(v, turn.seat) : "–", "whose turn")];
    for (const [key, value] of Object.entries(v || {})) {
      const text = HIDE.has(key) ? null : plain(value);
      if (text !== null) out.push(fact(text, words(key)));
    }
    node.replaceChildren(...out);
  }

  // Each player with the plain facts the view gives about them.
  function players(node, v) {
    node.replaceChildren(...seatsOf(v).map((seat) => el("div", { "data-seat": seat.seat, style: "margin:.25rem 0" },
      el("b", {}, seat.name), " ",
      el("span", { class: "hint" }, Object.entries(seat).filter(([k]) => !["seat", "name"].includes(k))
        .map(([k, value]) => [k, plain(value)]).filter(([, text]) => text !== null)
        .map(([k, text]) => `${words(k)} ${text}`).join(" · ")))));
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
      if (!adv && text.startsWith(`${seat.name} `)) return text; // the prompt names them already
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

  return { fact, plainFacts, players, log, scores, commitment, prompt, promptWords, seatName, label, plural };
})();
