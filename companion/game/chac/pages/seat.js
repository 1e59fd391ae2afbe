"use strict";
// Temple of Chac's part of a player's private page: my adventurer and cards, my legal actions
// as big buttons and as tappable spaces on the map, the glyph viewer (5 s, once per decipher),
// the Linguistics peek, what just happened to me (big, at the top of the screen).
Parts.define("chac", (() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  let page = null; // the seat page's send, button and redraw
  let current = null; // the last payload
  let rerollPick = new Set();
  let cardPick = new Set();
  const glyphsAsked = new Set(); // "<game's commitment>:<decipher id>": ids restart every game
  let focusKey = "";
  const OUTCOME_MS = 20000; // long enough to read twice; the log keeps it after that
  let before = null; // what the last payload said about me, to tell what changed
  let sentFrom = null; // the log line count when I last acted: the lines after it are mine
  const send = (command) => page.send(command);

  // Once per game per adventurer (CHAC-ABIL-*), in the words of the adventurer cards.
  const ABILITIES = {
    sprint: ["Sprint", "one move without spending an action (not in or into the river)"],
    stamina: ["Stamina", "for one round, carry your load one level lighter"],
    linguistics: ["Linguistics", "peek under a lava slab beside you and compare it with the traps"],
    swimming: ["Swimming", "leaving the river, ignore one rolled 1"],
    lock_picking: ["Lock Picking", "an alcove roll missing just one face still opens it"],
    leap: ["Leap", "one diagonal move for 1 action (not out of the river)"],
  };
  const abilityName = (key) => (ABILITIES[key] || [String(key).replace(/_/g, " ")])[0];

  // Moving commands: a button each, and a target on the map. Labels come with them.
  const MOVES = new Set(["move", "sprint", "leap"]);

  function actionButtons(payload) {
    const v = payload.view;
    const you = v.you || {};
    const out = [];
    for (const cmd of payload.legal) {
      const { type } = cmd;
      if (MOVES.has(type)) {
        out.push(page.button(View.label(payload, cmd), { type, to: cmd.to }, type === "move" ? "" : "secondary"));
      } else if (type === "choose_adventurer") {
        const ability = ABILITIES[(you.dealt_abilities || {})[cmd.adventurer]];
        const node = page.button(View.label(payload, cmd), { type, adventurer: cmd.adventurer });
        node.classList.add("choice");
        if (ability) node.append(el("small", {}, `${ability[0]}: ${ability[1]}. Once a game.`));
        out.push(node);
      } else if (type === "linguistics") {
        out.push(page.button(View.label(payload, cmd), { type, space: cmd.space }, "secondary"));
      } else if (type === "replace") {
        out.push(page.button(`Bring in ${(you.replacement || {}).name || "my replacement"} on sun space ${cmd.sun}`, { type, sun: cmd.sun }));
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
      } else {
        out.push(page.button(View.label(payload, cmd), { type }, type === "pass" || type === "river_give_up" ? "secondary" : ""));
      }
    }
    // The way out of a turn comes last, away from the thumb's first tap.
    const last = (node) => ["pass", "river_give_up", "decline_replacement"].includes(node.dataset.command);
    return out.filter((n) => !last(n)).concat(out.filter(last));
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
        onclick: () => { rerollPick.has(i) ? rerollPick.delete(i) : rerollPick.add(i); page.redraw(); } }, String(d));
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
      return el("div", { class: "row" }, el("span", {}, "How many cards:"), input,
        el("button", { type: "button", onclick: () => send({ type, count: Number(input.value) }) }, label));
    }
    const box = el("div", { class: "cards" });
    for (const card of you.cards) {
      box.append(el("button", { type: "button", class: cardPick.has(card.id) ? "tcard die hit" : "tcard",
        onclick: () => { cardPick.has(card.id) ? cardPick.delete(card.id) : cardPick.add(card.id); page.redraw(); } },
        card.value === "casket" ? "casket" : String(card.value)));
    }
    const picked = [...cardPick].filter((id) => you.cards.some((c) => c.id === id));
    return el("div", {}, el("p", {}, "Tap the cards to discard:"), box,
      el("button", { type: "button", disabled: picked.length === 0, "data-command": type,
        onclick: () => { send({ type, cards: picked }); cardPick = new Set(); } },
      picked.length ? `${label} (${picked.length})` : label));
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
      parts.push(el("div", {}, ChacView.advChip(payload.seat, adv, adv.status === "alive" ? `on ${adv.space}` : adv.status)));
      parts.push(el("div", { class: "facts" },
        el("div", { class: "fact" }, el("b", {}, adv.load_level ?? "–"), el("span", {}, "load level")),
        el("div", { class: "fact" }, el("b", {}, String(adv.actions)), el("span", {}, "actions left")),
        el("div", { class: "fact" }, el("b", {}, String(you.card_count ?? adv.cards)), el("span", {}, (you.card_count ?? adv.cards) === 1 ? "card" : "cards")),
        el("div", { class: "fact" }, el("b", {}, abilityName(adv.ability)), el("span", {}, adv.ability_used ? "ability used" : "ability ready")),
      ));
      if (!adv.ability_used && ABILITIES[adv.ability]) parts.push(el("p", { class: "hint" }, `${abilityName(adv.ability)}: ${ABILITIES[adv.ability][1]}.`));
    }
    if (you.cards) {
      parts.push(el("div", { class: "cards", "aria-label": "My cards" },
        ...you.cards.map((c) => el("span", { class: "tcard", "data-card": c.id }, c.value === "casket" ? "casket" : String(c.value)))));
    } else if (you.cards === null) {
      parts.push(el("p", { class: "hint" }, "Physical treasure cards: the values are on your cards."));
    }
    if (you.replacement && v.phase !== "over") {
      parts.push(el("p", { class: "hint" }, `Replacement: ${you.replacement.name} (${abilityName(you.replacement.ability)}, ${you.replacement.status})`));
    }
    return parts;
  }

  function targets(payload) {
    const out = {};
    for (const cmd of payload.legal) {
      if (MOVES.has(cmd.type) && !out[cmd.to]) out[cmd.to] = cmd;
    }
    return out;
  }

  // --- what just happened to me --------------------------------------------------------
  function myState(payload) {
    const v = payload.view;
    const seat = (v.seats || [])[payload.seat] || {};
    const you = v.you || {};
    return { game: v.commitment, logCount: v.log_count || 0, adv: seat.adventurer,
      previous: seat.previous, cards: (you.cards || []).map((c) => c.id), over: v.phase === "over" };
  }

  function mentions(line, names) {
    return names.some((n) => n && new RegExp(`(^|[^\\p{L}])${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\p{L}]|$)`, "u").test(line));
  }

  function outcomeOf(payload, was, now) {
    const v = payload.view;
    const you = v.you || {};
    const heads = []; // what it means for me, first
    const lines = [];
    let tone = "";
    // The log's new lines: all of them after my own action, else those that name me.
    const fresh = Math.min(now.logCount - was.logCount, (v.log || []).length);
    const names = [now.adv, now.previous].filter(Boolean).flatMap((a) => [a.name, a.first_name]);
    const mine = sentFrom !== null;
    for (const line of fresh > 0 ? v.log.slice(-fresh) : []) {
      if (mine || mentions(line, names)) lines.push(line);
    }
    sentFrom = null;
    const drawn = (you.cards || []).filter((c) => !was.cards.includes(c.id));
    if (drawn.length && was.adv) {
      heads.push(`You drew ${drawn.map((c) => (c.value === "casket" ? "a casket" : `a ${c.value}`)).join(" and ")}.`);
      tone = "good";
    }
    const adv = now.adv;
    if (adv && was.adv && adv.name === was.adv.name && adv.status !== was.adv.status) {
      if (adv.status === "eliminated") { heads.unshift(`${adv.first_name} is out of the game.`); tone = "bad"; }
      if (adv.status === "escaped") { heads.unshift(`${adv.first_name} escaped from the temple!`); tone = "good"; }
    }
    const all = [...heads, ...lines.slice(-3)];
    if (now.over && !was.over) {
      all.push("The game is over: the scores are at the top of this page.");
      tone = tone || "good";
    }
    return { lines: all, tone };
  }

  function showOutcome(payload) {
    const now = myState(payload);
    const was = before;
    before = now;
    if (!was || was.game !== now.game || now.logCount <= was.logCount) {
      if (!was || now.logCount !== was.logCount) sentFrom = null;
      return;
    }
    const { lines, tone } = outcomeOf(payload, was, now);
    if (!lines.length) return;
    const box = $("outcome");
    box.dataset.tone = tone;
    box.replaceChildren(...lines.map((line) => el("p", {}, line)),
      el("p", { class: "hint" }, "Tap to close"));
    box.hidden = false;
    clearTimeout(box._timer);
    box._timer = setTimeout(() => { box.hidden = true; }, OUTCOME_MS);
  }

  async function showGlyph(decipher) {
    let answer;
    try {
      answer = await Companion.post("/api/seat/reveal/glyph", { id: decipher.id });
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

  function seat(payload, given) {
    page = given;
    current = payload;
    const v = payload.view;
    const buttons = actionButtons(payload);
    const parts = mine(payload);
    const moves = targets(payload);
    const labels = Object.fromEntries(Object.entries(moves).map(([to, c]) => [to, View.label(payload, c)]));
    // Scroll the map to me and my moves when they change, not under a finger panning it.
    const mySpace = (((v.seats || [])[payload.seat] || {}).adventurer || {}).space;
    const focus = [mySpace, ...Object.keys(moves).filter((t) => t !== "exit")].filter(Boolean);
    const key = focus.join(" ");
    Board.draw($("map"), v, { targets: labels, highlightSeat: payload.seat, minScale: 46,
      focus: key !== focusKey ? focus : null,
      onTap: (to) => { const c = moves[to]; if (c) send({ type: c.type, to }); } });
    focusKey = key;
    const you = v.you || {};
    const canPeek = payload.legal.some((c) => c.type === "linguistics");
    $("compare-card").hidden = !(you.peek || canPeek);
    ChacView.traps($("compare"), you.peek ? you.peek.traps : ChacView.trapNumbers(v));
    ChacView.facts($("facts"), v);
    Coop.team($("coop-card"), $("coop"), v);
    ChacView.dice($("dice"), v);
    if (v.phase === "over") {
      $("glyph").replaceChildren(); // no picture outlives the game
      $("glyph").hidden = true;
    } else if (you.decipher && !glyphsAsked.has(`${v.commitment}:${you.decipher.id}`)) {
      glyphsAsked.add(`${v.commitment}:${you.decipher.id}`);
      showGlyph(you.decipher);
    }
    showOutcome(payload);
    return { buttons, mine: parts };
  }

  return {
    seatSlots: {
      top: '<div class="map-wrap"><svg id="map" class="map" role="img" aria-label="The temple board; tap a highlighted space to move there"></svg></div>',
      middle: '<section class="card" id="coop-card" hidden><h2>The team</h2><div id="coop"></div></section>' +
        '<section class="card" id="compare-card" hidden><h2>Trap numbers to compare with</h2><div id="compare" class="traps"></div>' +
        '<p class="hint">Peek under the slab on the board and compare its number with these.</p></section>' +
        '<section class="card"><h2>Round</h2><div id="facts" class="facts"></div></section>' +
        '<section class="card"><h2>Last dice</h2><div id="dice" class="dice"></div></section>',
      bottom: '<div id="glyph" class="reveal" hidden></div>',
    },
    seat,
    sending(payload) { if (sentFrom === null && payload) sentFrom = payload.view.log_count; },
    sendFailed() { sentFrom = null; },
  };
})());
