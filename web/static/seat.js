"use strict";
// One player's private page: my adventurer and cards, my legal actions as big buttons and as
// tappable spaces on the map, the glyph viewer (5 s, once per decipher), the Linguistics peek.
(() => {
  const $ = (id) => document.getElementById(id);
  const el = Chac.el;
  let current = null; // the last payload
  let rerollPick = new Set();
  let cardPick = new Set();
  let glyphAsked = 0;

  async function send(command) {
    try {
      await Chac.post("/api/seat/command", command);
    } catch (err) {
      Chac.toast(err.message);
    }
  }

  const MOVE_WORDS = { move: "Move to", sprint: "Sprint (free) to", leap: "Leap (diagonal) to" };
  const SIMPLE = {
    ready: "Ready: keep my cards",
    stamina: "Stamina: lower my load level by 1 this round",
    search: "Search: take the top treasure card",
    decipher: "Decipher the glyph (shown 5 seconds)",
    take: "Take the lava treasure",
    alcove: "Open the alcove: roll 5 dice",
    lock_pick: "Lock Picking: count the roll as a success",
    river_exit: "Exit the river: roll the dice",
    swim: "Swimming: ignore one rolled 1",
    river_give_up: "Give up: swept away",
    sabotage: "Sabotage: test the bridge again",
    pass: "Pass: end my turn",
    decline_replacement: "Keep my replacement out",
    walls: "Reveal the next 3 wall cards",
    decline_exchange: "Decline the exchange",
  };

  function spaceName(to) { return to === "exit" ? "the exit" : to; }

  function actionButtons(payload) {
    const v = payload.view;
    const you = v.you || {};
    const out = [];
    for (const cmd of payload.legal) {
      const { type } = cmd;
      if (MOVE_WORDS[type]) {
        out.push(button(`${MOVE_WORDS[type]} ${spaceName(cmd.to)}`, { type, to: cmd.to }, type === "move" ? "" : "secondary"));
      } else if (type === "choose_adventurer") {
        out.push(button(`Go in first with ${cmd.adventurer}`, { type, adventurer: cmd.adventurer }));
      } else if (type === "linguistics") {
        out.push(button(`Linguistics: peek under slab ${cmd.space}`, { type, space: cmd.space }, "secondary"));
      } else if (type === "replace") {
        out.push(button(`Bring in ${(you.replacement || {}).name || "my replacement"} on sun space ${cmd.sun}`, { type, sun: cmd.sun }));
      } else if (type === "slab") {
        out.push(slabPad(v));
      } else if (type === "reroll") {
        out.push(rerollPicker(v));
      } else if (type === "discard" || type === "river_reroll") {
        out.push(cardPicker(v, type));
      } else if (type === "exchange" || type === "accept_exchange") {
        out.push(Coop.exchange(v, cmd, send));
      } else if (type === "score") {
        out.push(scoreForm(you));
      } else if (SIMPLE[type]) {
        out.push(button(SIMPLE[type], { type }, type === "pass" || type === "river_give_up" ? "secondary" : ""));
      } else {
        out.push(button(type.replace(/_/g, " "), { type }));
      }
    }
    // The way out of a turn comes last, away from the thumb's first tap.
    const last = (node) => ["pass", "river_give_up", "decline_replacement"].includes(node.dataset.command);
    return out.filter((n) => !last(n)).concat(out.filter(last));
  }

  function button(label, command, kind) {
    return el("button", { type: "button", class: kind || null, "data-command": command.type,
      onclick: (e) => { e.currentTarget.disabled = true; send(command); } }, label);
  }

  function slabPad(v) {
    const wait = v.slab_wait || {};
    const taken = new Set(Object.values(v.lava.slabs).map((s) => s.number).filter((n) => n));
    const pad = el("div", { class: "row" });
    for (let n = 1; n <= 14; n++) {
      pad.append(el("button", { type: "button", disabled: taken.has(n), style: "min-width:3.2rem",
        onclick: () => send({ type: "slab", number: n }) }, String(n)));
    }
    return el("div", {}, el("p", {}, `Turn slab ${wait.space || ""} over and tap its number:`), pad);
  }

  function rerollPicker(v) {
    const dice = (v.alcove && v.alcove.dice) || [];
    const box = el("div", { class: "dice" });
    dice.forEach((d, i) => {
      const die = el("button", { type: "button", class: rerollPick.has(i) ? "die hit" : "die",
        "aria-pressed": rerollPick.has(i) ? "true" : "false",
        onclick: () => { rerollPick.has(i) ? rerollPick.delete(i) : rerollPick.add(i); render(current); } }, String(d));
      box.append(die);
    });
    return el("div", {}, el("p", {}, "Tap the dice to roll again (1 action):"), box,
      el("button", { type: "button", onclick: () => { send({ type: "reroll", dice: [...rerollPick] }); rerollPick = new Set(); } }, "Reroll the chosen dice"));
  }

  function cardPicker(v, type) {
    const you = v.you || {};
    const label = type === "discard" ? "Discard the chosen cards" : "Discard these to reroll the 1s";
    if (!you.cards) { // physical cards: say how many
      const input = el("input", { type: "number", min: "1", max: "30", value: "1", inputmode: "numeric", "aria-label": "How many cards" });
      return el("div", { class: "row" }, input,
        el("button", { type: "button", onclick: () => send({ type, count: Number(input.value) }) }, label));
    }
    const box = el("div", { class: "cards" });
    for (const card of you.cards) {
      box.append(el("button", { type: "button", class: cardPick.has(card.id) ? "tcard die hit" : "tcard",
        onclick: () => { cardPick.has(card.id) ? cardPick.delete(card.id) : cardPick.add(card.id); render(current); } },
        card.value === "casket" ? "casket" : String(card.value)));
    }
    return el("div", {}, box,
      el("button", { type: "button", onclick: () => { send({ type, cards: [...cardPick] }); cardPick = new Set(); } }, label));
  }

  function scoreForm(you) {
    const values = el("input", { inputmode: "numeric", placeholder: "card values, e.g. 3 4 2", "aria-label": "Card values" });
    const caskets = el("input", { placeholder: "caskets by deck, e.g. Z1 R", "aria-label": "Caskets" });
    return el("div", {}, el("p", {}, `Enter the values of your ${you.card_count || 0} cards:`), values, caskets,
      el("button", { type: "button", onclick: () => send({ type: "score",
        values: values.value.split(/[\s,]+/).filter(Boolean).map(Number),
        caskets: caskets.value.split(/[\s,]+/).filter(Boolean).map((s) => s.toUpperCase()) }) }, "Enter my score"));
  }

  function mine(payload) {
    const v = payload.view;
    const you = v.you || {};
    const seat = (v.seats || [])[payload.seat] || {};
    const adv = seat.adventurer;
    const parts = [];
    if (you.dealt) parts.push(el("p", {}, `You were dealt ${you.dealt.join(" and ")}.`));
    if (adv) {
      parts.push(el("div", {}, View.advChip(payload.seat, adv, adv.status === "alive" ? `on ${adv.space}` : adv.status)));
      parts.push(el("div", { class: "facts" },
        el("div", { class: "fact" }, el("b", {}, adv.load_level ?? "–"), el("span", {}, "load level")),
        el("div", { class: "fact" }, el("b", {}, String(adv.actions)), el("span", {}, "actions left")),
        el("div", { class: "fact" }, el("b", {}, String(you.card_count ?? adv.cards)), el("span", {}, "cards")),
        el("div", { class: "fact" }, el("b", {}, adv.ability.replace("_", " ")), el("span", {}, adv.ability_used ? "ability used" : "ability ready")),
      ));
    }
    if (you.cards) {
      parts.push(el("div", { class: "cards", "aria-label": "My cards" },
        ...you.cards.map((c) => el("span", { class: "tcard", "data-card": c.id }, c.value === "casket" ? "casket" : String(c.value)))));
    } else if (you.cards === null) {
      parts.push(el("p", { class: "hint" }, "Physical treasure cards: the values are on your cards."));
    }
    if (you.replacement) {
      parts.push(el("p", { class: "hint" }, `Replacement: ${you.replacement.name} (${you.replacement.ability.replace("_", " ")}, ${you.replacement.status})`));
    }
    return parts;
  }

  function targets(payload) {
    const out = {};
    for (const cmd of payload.legal) {
      if (MOVE_WORDS[cmd.type] && !out[cmd.to]) out[cmd.to] = cmd;
    }
    return out;
  }

  function render(payload) {
    current = payload;
    const v = payload.view;
    document.body.dataset.version = payload.version;
    const name = (payload.seats || [])[payload.seat] || "My seat";
    $("me").textContent = name;
    View.prompt($("prompt"), payload, payload.seat);
    const buttons = v.game === "chac" ? actionButtons(payload) : [];
    $("actions-card").hidden = buttons.length === 0;
    $("actions").replaceChildren(...buttons);
    $("mine").replaceChildren(...(v.game === "chac" ? mine(payload) : [el("p", {}, "Waiting for the host to start a game.")]));
    const moves = targets(payload);
    const labels = Object.fromEntries(Object.entries(moves).map(([to, c]) => [to, `${MOVE_WORDS[c.type]} ${spaceName(to)}`]));
    Board.draw($("map"), v, { targets: labels, highlightSeat: payload.seat,
      onTap: (to) => { const c = moves[to]; if (c) send({ type: c.type, to }); } });
    const you = v.you || {};
    const canPeek = payload.legal.some((c) => c.type === "linguistics");
    $("compare-card").hidden = !(you.peek || canPeek);
    View.traps($("compare"), you.peek ? you.peek.traps : View.trapNumbers(v));
    View.facts($("facts"), v);
    Coop.team($("coop-card"), $("coop"), v);
    View.dice($("dice"), v);
    View.log($("log"), v);
    if (you.decipher && you.decipher.id > glyphAsked) {
      glyphAsked = you.decipher.id;
      showGlyph(you.decipher);
    }
  }

  async function showGlyph(decipher) {
    let answer;
    try {
      answer = await Chac.post("/api/seat/glyph", { id: decipher.id });
    } catch (err) {
      return; // already shown (reload, second phone): nothing to show again
    }
    const box = $("glyph");
    if (!answer.picture) {
      box.replaceChildren(el("p", { class: "prompt" }, answer.message),
        el("button", { type: "button", onclick: () => { box.hidden = true; } }, "OK"));
      box.hidden = false;
      return;
    }
    // Wall-clock deadline, so a busy phone still hides the picture after 5 s, not later.
    const end = Date.now() + answer.seconds * 1000;
    const count = el("div", { class: "count", id: "glyph-count" }, String(answer.seconds));
    box.replaceChildren(el("p", {}, `The glyph of zone ${decipher.zone}'s trap`),
      el("img", { src: answer.picture, alt: "The trap's glyph", id: "glyph-img" }), count);
    box.hidden = false;
    const timer = setInterval(() => {
      const left = Math.ceil((end - Date.now()) / 1000);
      count.textContent = String(Math.max(left, 0));
      if (left <= 0) {
        clearInterval(timer);
        box.replaceChildren(); // the picture is gone from the page, not just hidden
        box.hidden = true;
      }
    }, 200);
  }

  Chac.live("/api/seat/stream", render, Chac.setStatus);
})();
