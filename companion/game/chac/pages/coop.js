"use strict";
// Co-operative play on the pages (CHAC-COOP-1..5): the team's target and haul, every card
// value when the team shows them, the exchange of treasures; and the receipt of the setup
// commitment the host keeps to check the game afterwards (CHAC-FAIR-1).
const Coop = (() => {
  const el = Companion.el;

  function haul(t) {
    if (!t) return "entered at the end";
    const caskets = t.caskets ? ` + ${t.caskets} casket${t.caskets > 1 ? "s" : ""}` : "";
    return `${t.value}${caskets} (${t.cards} card${t.cards === 1 ? "" : "s"})`;
  }

  // The team's card: target, treasure out and still carried, each adventurer's cards.
  function team(card, node, v) {
    const c = v && v.coop;
    card.hidden = !c;
    if (!c) return;
    const parts = [
      el("p", { id: "coop-target" }, el("b", {}, "Target "), `${c.target} (level ${c.level})`),
      el("p", { id: "coop-escaped" }, el("b", {}, "Escaped "), haul(c.escaped),
        el("span", { class: "hint" }, ` · ${c.escaped_adventurers} out`)),
    ];
    if (c.carried) parts.push(el("p", {}, el("b", {}, "Carried inside "), haul(c.carried)));
    for (const seat of v.seats) {
      const adv = seat.adventurer;
      if (!adv || !adv.card_values || !adv.card_values.length) continue;
      parts.push(el("div", { "data-seat": seat.seat, class: "hint" },
        `${adv.first_name} (${seat.name}): ${adv.card_values.join(", ")}`));
    }
    const team = v.result && v.result.coop;
    if (team) parts.unshift(el("p", { class: "prompt" }, `${team.won ? "The team wins" : "The team loses"}: ${team.total} of ${team.target}`));
    node.replaceChildren(...parts);
  }

  const picked = new Set();

  // An exchange offer (cards to give, how many to ask back) or the answer to one.
  function exchange(v, cmd, send) {
    const you = v.you || {};
    const offer = cmd.type === "exchange";
    const other = offer ? v.seats[cmd.with] : null;
    const body = [];
    let count = null;
    if (you.cards) {
      const box = el("div", { class: "cards" });
      for (const c of you.cards) {
        const b = el("button", { type: "button", class: picked.has(c.id) ? "tcard die hit" : "tcard",
          onclick: () => { picked.has(c.id) ? picked.delete(c.id) : picked.add(c.id); b.classList.toggle("hit"); } },
          c.value === "casket" ? "casket" : String(c.value));
        box.append(b);
      }
      body.push(box);
    } else {
      count = el("input", { type: "number", min: "0", max: "30", value: "0", "aria-label": "How many of my cards" });
      body.push(el("label", {}, "My cards to give ", count));
    }
    const ask = offer ? el("input", { type: "number", min: "0", max: String(other.adventurer.cards), value: "0", "aria-label": "Cards asked back" }) : null;
    if (ask) body.push(el("label", {}, `Cards asked from ${other.name} `, ask));
    const label = offer ? `Offer ${other.name} an exchange (1 action)` : `Give these ${v.exchange ? v.exchange.ask : ""} in return`;
    body.push(el("button", { type: "button", "data-command": cmd.type, onclick: () => {
      const sent = { type: cmd.type };
      if (offer) Object.assign(sent, { with: cmd.with, ask: Number(ask.value) });
      if (count) sent.count = Number(count.value); else sent.cards = [...picked];
      picked.clear();
      send(sent);
    } }, label));
    return el("div", {}, ...body);
  }

  // The commitment as a receipt, kept from setup: download it or print it.
  const firstSeen = {};

  function receiptText(v) {
    firstSeen[v.commitment] = firstSeen[v.commitment] || new Date().toISOString();
    return [
      "Temple of Chac: commitment receipt",
      `Players: ${v.seats.map((s) => s.name).join(", ")}`,
      `Noted: ${firstSeen[v.commitment]}`,
      `Commitment (SHA-256): ${v.commitment}`,
      "",
      "After the game, check it against the companion's log:",
      `  companion verify LOGFILE --commitment ${v.commitment}`,
      "",
    ].join("\n");
  }

  function receipt(card, node, v) {
    card.hidden = !(v && v.commitment);
    if (card.hidden) return;
    const text = receiptText(v);
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const old = node.querySelector("a[download]");
    if (old) URL.revokeObjectURL(old.href);
    node.replaceChildren(
      el("div", { class: "commit", id: "receipt-commitment" }, v.commitment),
      el("div", { class: "row" },
        el("a", { href: url, download: `chac-commitment-${v.commitment.slice(0, 8)}.txt`, class: "button" }, "Download receipt"),
        el("button", { type: "button", class: "secondary", onclick: () => {
          const w = window.open("", "_blank");
          if (!w) return;
          w.document.body.append(el("pre", {}, text));
          w.print();
        } }, "Print receipt")),
      el("p", { class: "hint" }, "Keep it (or photograph the table page) before play begins: after the game, companion verify checks the log against it."));
  }

  return { team, exchange, receipt };
})();
