"use strict";
// Moctezuma's Revenge! on the pages. Table: the Library and the ten temples with their
// researchers and cards left, whose turn and points left, the chits turned, each player's
// cards. Seat: Research picks chits and shows their faces for a few seconds, privately;
// Explore shows the drawn cards privately and keeps one; the record sheet one tap away.
// Host: put a researcher where it really stands.
Parts.define("moctezuma", (() => {
  const $ = (id) => document.getElementById(id);
  const el = Companion.el;
  const REVEAL_SECONDS = 5;

  const placeName = (v, at) => ((v.locations || [])[at] || {}).name || `temple ${at}`;
  const chitName = (v, space) => {
    const chit = (v.chits || [])[space] || {};
    return `${chit.king || "chit"} ${chit.column === 3 ? "(third)" : `(column ${chit.column})`}`;
  };

  function places(v, turn) {
    return el("div", { class: "moct-places" }, ...(v.locations || []).map((loc) => {
      const here = (loc.researchers || []).map((s) => View.seatName(v, s));
      const node = el("div", { class: "moct-place", "data-at": loc.at },
        el("h3", {}, loc.name),
        el("div", { class: "hint" }, loc.cards_left === null ? "no deck" : `${View.plural(loc.cards_left, "card")} left`),
        el("div", {}, here.length ? here.join(", ") : "–"));
      if ((loc.researchers || []).includes(turn)) node.dataset.turn = "";
      return node;
    }));
  }

  function chits(v) {
    return el("div", { class: "moct-chits" }, ...(v.chits || []).map((c, space) => el("div", {
      class: "moct-chit", "data-space": space, "data-face": c.face_up ? c.face : "" },
    `${c.king}${c.column === 3 ? " (third)" : ""}`, el("br"), c.face_up ? c.face : "face down")));
  }

  function players(v) {
    return (v.seats || []).map((s) => el("div", { "data-seat": s.seat, style: "margin:.25rem 0" },
      el("b", {}, s.name), " ", el("span", { class: "hint" },
        `at ${placeName(v, s.at)} · ${View.plural(s.cards, "card")}` +
        (s.card_temples && s.card_temples.length ? ` (from temples ${s.card_temples.join(", ")})` : ""))));
  }

  function facts(v) {
    return [
      View.fact(`${v.round}/${v.rounds}`, "round"),
      View.fact(v.turn === null ? "–" : View.seatName(v, v.turn), "whose turn"),
      View.fact(String(v.points), "points left"),
      View.fact(`${v.chits_turned}/15`, "chits turned"),
    ];
  }

  function table(payload) {
    const v = payload.view;
    $("moct-facts").replaceChildren(...facts(v));
    $("moct-places").replaceChildren(places(v, v.turn));
    $("moct-chits").replaceChildren(chits(v));
    $("moct-players").replaceChildren(...players(v));
  }

  // --- the seat page ---------------------------------------------------------------------
  let page = null;
  let picked = new Set(); // chit spaces chosen for a Research
  let researchSent = false;
  let shownResearch = null; // the last research peek shown (or already there on loading)
  let sheetOpen = false;

  function researchPicker(v, sizes, payload) {
    const down = (v.chits || []).map((c, space) => ({ ...c, space })).filter((c) => !c.face_up);
    picked = new Set([...picked].filter((s) => down.some((c) => c.space === s)));
    const box = el("div", { class: "moct-chits", "aria-label": "Face-down chits" }, ...down.map((c) =>
      el("button", { type: "button", class: "moct-chit", "data-space": c.space, "aria-pressed": String(picked.has(c.space)),
        onclick: () => { picked.has(c.space) ? picked.delete(c.space) : picked.add(c.space); page.redraw(); } },
      chitName(v, c.space))));
    const out = [el("p", {}, "Research: tap the chits to peek at, then research.")];
    out.push(box);
    for (const cmd of sizes) {
      const need = Math.min(cmd.size, down.length);
      const ready = picked.size === need;
      out.push(el("button", { type: "button", "data-command": "research", "data-size": cmd.size, disabled: !ready,
        onclick: () => { researchSent = true; page.send({ type: "research", size: cmd.size, chits: [...picked] }); picked = new Set(); } },
      ready ? View.label(payload, cmd) : `${View.label(payload, cmd)}: pick ${need} (${picked.size} picked)`));
    }
    return el("div", {}, ...out);
  }

  function cardWords(card) {
    return card.kind === "treasure" ? `${View.plural(card.points, "point")}` : `${card.kind === "king" ? "King" : "Clue"}: ${card.name}`;
  }

  function keepButtons(payload, drawn) {
    return (payload.legal || []).filter((c) => c.type === "keep").map((cmd) =>
      page.button(`Keep the card of ${cardWords(drawn.cards[cmd.card])}`, cmd));
  }

  function recordSheet(you, v) {
    const r = you.record || { chits: [], names: [], kept: [], notes: [] };
    const text = el("textarea", { rows: "2", maxlength: "500", "aria-label": "A note", style: "width:100%" });
    return el("div", { id: "moct-sheet" },
      el("h3", {}, "Chits seen"), el("ul", {}, ...(r.chits.length ? r.chits.map((c) => el("li", { "data-space": c.space }, `${chitName(v, c.space)}: ${c.face}`)) : [el("li", { class: "hint" }, "none yet")])),
      el("h3", {}, "Name cards seen"), el("ul", {}, ...(r.names.length ? r.names.map((n) => el("li", {}, `Temple ${n.temple}: ${n.name}`)) : [el("li", { class: "hint" }, "none yet")])),
      el("h3", {}, "Cards kept"), el("ul", {}, ...(r.kept.length ? r.kept.map((k) => el("li", {}, `Temple ${k.temple}: ${View.plural(k.points, "point")}`)) : [el("li", { class: "hint" }, "none yet")])),
      el("h3", {}, "My notes"), el("ul", { id: "moct-notes" }, ...r.notes.map((n) => el("li", {}, n))),
      text, el("button", { type: "button", class: "secondary", "data-command": "note",
        onclick: () => { if (text.value.trim()) page.send({ type: "note", text: text.value.trim() }); } }, "Add the note"));
  }

  function showResearch(v, seen) {
    const end = Date.now() + REVEAL_SECONDS * 1000;
    const count = el("div", { class: "count" }, String(REVEAL_SECONDS));
    const box = $("moct-reveal");
    box.replaceChildren(el("p", {}, "Only you see this: the chits you peeked at"),
      ...seen.map((c) => el("div", { class: "moct-chit", "data-face": c.face, "data-space": c.space }, `${chitName(v, c.space)}: ${c.face}`)),
      count);
    box.hidden = false;
    const timer = setInterval(() => {
      const left = Math.ceil((end - Date.now()) / 1000);
      count.textContent = String(Math.max(left, 0));
      if (left <= 0) {
        clearInterval(timer);
        box.replaceChildren(); // gone from the page, not just hidden
        box.hidden = true;
      }
    }, 200);
  }

  function seat(payload, given) {
    page = given;
    const v = payload.view;
    const you = v.you || {};
    const legal = payload.legal || [];
    const buttons = [];
    const sizes = legal.filter((c) => c.type === "research");
    if (sizes.length) buttons.push(researchPicker(v, sizes, payload));
    const drawn = you.drawn;
    if (drawn && drawn.choose) buttons.push(...keepButtons(payload, drawn));
    for (const cmd of legal) {
      if (["research", "keep", "note", "end_turn"].includes(cmd.type)) continue;
      buttons.push(page.button(View.label(payload, cmd), cmd, cmd.type === "move" ? "secondary" : ""));
    }
    const end = legal.find((c) => c.type === "end_turn");
    if (end) buttons.push(page.button(View.label(payload, end), end, "secondary"));

    const key = JSON.stringify(you.research);
    if (you.research && (researchSent || (shownResearch !== null && key !== shownResearch))) {
      researchSent = false;
      showResearch(v, you.research);
    }
    shownResearch = key;
    if (v.over) { $("moct-reveal").replaceChildren(); $("moct-reveal").hidden = true; }

    const me = (v.seats || [])[payload.seat] || {};
    const mine = [el("div", { class: "facts" },
      View.fact(placeName(v, me.at), "where I am"),
      View.fact(String((you.hand || []).length), "cards kept"),
      View.fact(v.turn === payload.seat ? String(v.points) : "–", "my points left"))];
    if (you.hand && you.hand.length) mine.push(el("p", {}, `My cards: ${you.hand.map((c) => `temple ${c.temple}: ${View.plural(c.points, "point")}`).join("; ")}`));
    if (drawn && drawn.choose) {
      mine.push(el("div", { id: "moct-drawn" }, el("p", {}, `You drew from temple ${drawn.temple} (only you see them):`),
        el("ul", {}, ...drawn.cards.map((c) => el("li", {}, cardWords(c))))));
    }
    const toggle = el("button", { type: "button", class: "secondary", id: "moct-sheet-toggle", "aria-expanded": String(sheetOpen),
      onclick: () => { sheetOpen = !sheetOpen; page.redraw(); } }, sheetOpen ? "Hide my record sheet" : "My record sheet");
    mine.push(toggle);
    if (sheetOpen) mine.push(recordSheet(you, v));
    $("moct-facts").replaceChildren(...facts(v));
    $("moct-places").replaceChildren(places(v, v.turn));
    $("moct-chits").replaceChildren(chits(v));
    return { buttons, mine };
  }

  // --- the host page ---------------------------------------------------------------------
  function hostActions(payload, given) {
    const v = payload.view;
    const out = [];
    for (const cmd of payload.legal || []) {
      if (cmd.type === "end_game") continue;
      if (cmd.type !== "place") {
        out.push(el("button", { type: "button", "data-command": cmd.type, onclick: () => given.act("/api/host/command", cmd) }, View.label(payload, cmd)));
        continue;
      }
      const who = el("select", { "aria-label": "Researcher" }, ...(v.seats || []).map((s) => el("option", { value: String(s.seat) }, s.name)));
      const to = el("select", { "aria-label": "Place" }, ...(v.locations || []).map((l) => el("option", { value: String(l.at) }, l.name)));
      out.push(el("div", { class: "row" }, "Researcher", who, "stands at", to,
        el("button", { type: "button", class: "secondary", "data-command": "place",
          onclick: () => given.act("/api/host/command", { type: "place", player: Number(who.value), at: Number(to.value) }, "Researcher placed.") }, "Place")));
    }
    return out;
  }

  const CARDS = '<section class="card"><h2>Round</h2><div id="moct-facts" class="facts"></div></section>' +
    '<section class="card"><h2>The Library and the temples</h2><div id="moct-places"></div></section>' +
    '<section class="card"><h2>Curse chits</h2><div id="moct-chits"></div></section>';
  return {
    tableSlots: {
      main: CARDS,
      side: '<section class="card"><h2>Players</h2><div id="moct-players"></div></section>',
    },
    table,
    seatSlots: { middle: CARDS, bottom: '<div id="moct-reveal" role="dialog" aria-label="Private reveal" hidden></div>' },
    seat,
    hostActions,
    noScore: "–",
  };
})());
