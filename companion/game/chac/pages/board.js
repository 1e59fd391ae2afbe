"use strict";
// The temple map as SVG, drawn from the board data file's layout (/api/board) and a view.
// Every adventurer is a coloured disc with initials (never colour alone), set on the rim of
// its space so the space's name stays readable; tappable targets (spaces the seat may move to)
// get a yellow ring and call back with the space name. On a narrow screen the map keeps a
// readable scale and scrolls inside its frame, centred on the spaces that matter now.
const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#e63946", "#2a9df4", "#2bb673", "#f4a300", "#b565f0", "#f06eaa"];
  const TOKEN_SLOTS = [45, 135, 315, 225, 90, 270]; // degrees, clockwise from the right
  const ROOM_SIDE = 0.8; // the walls room reaches this far either side of its spaces
  let layoutPromise = null;
  let layoutBoard = null;

  // The layout of the board the view's game uses; fetched again when the game or board changes.
  function layout(view) {
    const board = view === undefined ? layoutBoard : JSON.stringify([(view && view.game) || null, (view && view.board) || null]);
    if (!layoutPromise || board !== layoutBoard) {
      layoutBoard = board;
      layoutPromise = fetch("/api/table/board").then((r) => r.json());
    }
    return layoutPromise;
  }

  function s(tag, attrs, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function seatColour(seat) { return SEAT_COLOURS[seat % SEAT_COLOURS.length]; }

  // opts: {targets: {space: label}, onTap(space), highlightSeat, minScale (px per grid unit),
  //        focus: [space names to scroll into view]}
  async function draw(svg, view, opts) {
    const L = await layout(view);
    if (!L.bounds) { svg.replaceChildren(); return; } // a game without a board map
    opts = opts || {};
    const [x0, y0, x1, y1] = L.bounds;
    svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    const scale = fit(svg, x1 - x0, y1 - y0, opts.minScale || 0);
    svg.replaceChildren();
    const P = (name) => L.spaces[name];
    const g = s("g");
    svg.append(g);
    const v = view && view.seats ? view : null; // null: the board before any game

    // Rooms behind the spaces: walls room, lava room, river, chasm.
    const zones = L.zones.map(P).concat([P("E")].filter(Boolean));
    if (zones.length) {
      const xs = zones.map((p) => p.x), ys = zones.map((p) => p.y);
      const minX = Math.min(...xs) - ROOM_SIDE, maxX = Math.max(...xs) + ROOM_SIDE;
      g.append(s("rect", { x: minX, y: Math.min(...ys) - 0.55, width: maxX - minX,
        height: Math.max(...ys) - Math.min(...ys) + 1.1, rx: 0.15, fill: "#2a2333", stroke: "#6d5c7a", "stroke-width": 0.05 }));
      if (v) drawWalls(g, v.walls, minX, maxX, Math.min(...ys) - 0.55, Math.max(...ys) + 0.55);
    }
    const lv = L.lava;
    g.append(s("rect", { x: lv.x - 0.55, y: lv.y - 0.55, width: lv.cols + 0.1, height: lv.rows + 0.1,
      rx: 0.1, fill: "#3a1208", stroke: "#b33b16", "stroke-width": 0.06 }));
    const river = L.river.map(P).filter(Boolean);
    if (river.length > 1) {
      g.append(s("polyline", { points: river.map((p) => `${p.x},${p.y}`).join(" "), fill: "none",
        stroke: "#163f66", "stroke-width": 0.9, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    }
    const bridge = P(L.bridge);
    if (bridge) {
      g.append(s("ellipse", { cx: bridge.x, cy: bridge.y + 0.95, rx: 1.35, ry: 0.45, fill: "#000", stroke: "#333", "stroke-width": 0.04 }));
      g.append(s("text", { x: bridge.x, y: bridge.y + 0.95, class: "label", fill: "#888" }, "chasm"));
    }

    for (const [a, b] of L.edges) {
      const p = P(a), q = P(b);
      g.append(s("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "edge" }));
    }

    // Exit beyond the last corridor space.
    const last = P(L.exit_from);
    if (last) {
      g.append(s("rect", { x: last.x + 0.6, y: last.y - 0.4, width: 0.9, height: 0.8, rx: 0.1, fill: "#0f5132", stroke: "#5fd38d", "stroke-width": 0.05 }));
      g.append(s("text", { x: last.x + 1.05, y: last.y, class: "label" }, "EXIT"));
    }

    const names = [];
    const slabs = (v && v.lava && v.lava.slabs) || {};
    const revealed = v && v.lava && v.lava.revealed;
    const sunOpen = (v && v.sun_open) || {};
    for (const [name, p] of Object.entries(L.spaces)) {
      const kind = p.kind;
      if (kind === "lava" || kind === "sun") {
        drawCell(g, name, p, kind, slabs[name], revealed, L.sun[name], sunOpen);
      } else if (kind === "bridge") {
        g.append(s("rect", { x: p.x - 0.6, y: p.y - 0.25, width: 1.2, height: 0.5, rx: 0.08, class: "sp sp-bridge" }));
        const planks = v ? v.planks : null;
        g.append(s("text", { x: p.x, y: p.y, class: "label" }, planks === null ? "bridge" : `${planks} planks`));
      } else {
        g.append(s("circle", { cx: p.x, cy: p.y, r: 0.36, class: `sp sp-${kind}` }));
        names.push([name, p]); // drawn last, above the adventurers
      }
    }
    if (!revealed) {
      g.append(s("rect", { x: lv.x - 0.5, y: lv.y - 0.5, width: lv.cols, height: lv.rows, rx: 0.08,
        fill: "#2b2b2b", stroke: "#777", "stroke-width": 0.04, "data-mask": "lava" }));
      g.append(s("text", { x: lv.x - 0.5 + lv.cols / 2, y: lv.y - 0.5 + lv.rows / 2 - 0.2, class: "label" }, "LAVA ROOM"));
      g.append(s("text", { x: lv.x - 0.5 + lv.cols / 2, y: lv.y - 0.5 + lv.rows / 2 + 0.2, class: "label", fill: "#bbb" }, "not revealed yet"));
    }

    // Alcoves with or without their card.
    for (const alcove of (v && v.alcoves) || Object.entries(L.alcoves).map(([space, a]) => ({ space, ...a, card: true }))) {
      const p = P(alcove.space);
      if (!p) continue;
      const ax = alcove.kind === "chasm" ? p.x : p.x - 0.78, ay = alcove.kind === "chasm" ? p.y + 0.72 : p.y;
      g.append(s("rect", { x: ax - 0.28, y: ay - 0.28, width: 0.56, height: 0.56, rx: 0.06,
        fill: alcove.card ? "#e9d9a6" : "#222", stroke: "#8a6d1d", "stroke-width": 0.04,
        "data-alcove": alcove.space, "data-card": alcove.card ? "yes" : "no" }));
      g.append(s("text", { x: ax, y: ay, class: alcove.card ? "label dark" : "label" }, alcove.card ? String(alcove.value) : "–"));
    }

    // The boulder: a stone on its corridor space, drawn under the adventurers.
    if (v && v.boulder) {
      const p = P(v.boulder.space);
      if (p) {
        g.append(s("circle", { cx: p.x, cy: p.y, r: 0.44, fill: "#8c7a66", stroke: "#000", "stroke-width": 0.07, "data-boulder": v.boulder.space }));
        // Squeezed to the disc's width at that height, whatever the font.
        g.append(s("text", { x: p.x, y: p.y - 0.13, class: "label dark", style: "font-size:.17px",
          textLength: 0.62, lengthAdjust: "spacingAndGlyphs", "data-boulder-label": "" }, "BOULDER"));
      }
    }

    // Targets (the seat's legal moves), under the adventurers but above the spaces.
    for (const [name, label] of Object.entries(opts.targets || {})) {
      const p = name === "exit" && last ? { x: last.x + 1.05, y: last.y } : P(name);
      if (!p) continue;
      const ring = s("circle", { cx: p.x, cy: p.y, r: 0.5, class: "target", "data-target": name });
      const hit = s("circle", { cx: p.x, cy: p.y, r: 0.55, class: "target-hit", "data-target": name, role: "button", "aria-label": label });
      hit.addEventListener("click", () => opts.onTap && opts.onTap(name));
      g.append(ring, hit);
    }

    // Adventurers: colour + initials, fanned out when they share a space.
    if (v) {
      const bySpace = {};
      for (const seat of v.seats || []) {
        const adv = seat.adventurer;
        if (!adv || adv.status !== "alive" || !adv.space) continue;
        (bySpace[adv.space] = bySpace[adv.space] || []).push({ seat: seat.seat, adv });
      }
      for (const [space, list] of Object.entries(bySpace)) {
        const p = P(space);
        if (!p) continue;
        // On the rim of the space (diagonals first), leaving its name in the middle free.
        list.forEach((item, i) => {
          const angle = (TOKEN_SLOTS[i % TOKEN_SLOTS.length] * Math.PI) / 180;
          const cx = p.x + Math.cos(angle) * 0.42, cy = p.y + Math.sin(angle) * 0.42;
          const mine = opts.highlightSeat === item.seat;
          const token = s("g", { "data-adventurer": item.adv.name, "data-seat": item.seat });
          token.append(s("title", {}, `${item.adv.name} (${(v.seats[item.seat] || {}).name || ""})`));
          token.append(s("circle", { cx, cy, r: 0.21, fill: seatColour(item.seat), stroke: mine ? "#ffd23f" : "#fff", "stroke-width": mine ? 0.07 : 0.04 }));
          token.append(s("text", { x: cx, y: cy, class: "label", style: "font-size:.2px" }, Companion.initials(item.adv.name)));
          if (item.adv.lying) token.append(s("text", { x: cx, y: cy + 0.3, class: "label halo", style: "font-size:.16px" }, "lying"));
          g.append(token);
        });
      }
    }
    for (const [name, p] of names) {
      if (v && v.boulder && v.boulder.space === name) {
        g.append(s("text", { x: p.x, y: p.y + 0.13, class: "label dark", style: "font-size:.22px" }, name));
      } else {
        g.append(s("text", { x: p.x, y: p.y, class: "label halo", "data-space-label": name }, name));
      }
    }
    if (opts.focus && opts.focus.length) scrollTo(svg, opts.focus.map(P).filter(Boolean), x0, y0, scale);
  }

  // The drawing's size in pixels: the whole board in its frame, or larger when that would
  // make a grid unit smaller than `minScale` px (the frame then scrolls). Returns px per unit.
  function fit(svg, width, height, minScale) {
    const frame = svg.parentElement;
    const tallest = parseFloat(getComputedStyle(frame).maxHeight) || Infinity; // "none": NaN
    const scale = Math.max(Math.min(frame.clientWidth / width, tallest / height), minScale);
    svg.style.width = `${Math.floor(width * scale)}px`;
    svg.style.height = `${Math.floor(height * scale)}px`;
    return scale;
  }

  // Centre the frame on these points (when it scrolls at all).
  function scrollTo(svg, points, x0, y0, scale) {
    if (!points.length) return;
    const frame = svg.parentElement;
    const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
    const cx = ((Math.min(...xs) + Math.max(...xs)) / 2 - x0) * scale;
    const cy = ((Math.min(...ys) + Math.max(...ys)) / 2 - y0) * scale;
    frame.scrollLeft = Math.max(0, cx - frame.clientWidth / 2);
    frame.scrollTop = Math.max(0, cy - frame.clientHeight / 2);
  }

  function drawCell(g, name, p, kind, slab, revealed, sunLetter, sunOpen) {
    const attrs = { x: p.x - 0.45, y: p.y - 0.45, width: 0.9, height: 0.9, rx: 0.06, "data-space": name };
    if (kind === "sun") {
      const open = sunOpen[sunLetter];
      g.append(s("rect", { ...attrs, class: "sp sp-sun", "data-sun": open ? "open" : "covered" }));
      g.append(s("text", { x: p.x, y: p.y - 0.14, class: "label dark", style: "font-size:.25px" }, `sun ${sunLetter}`));
      g.append(s("text", { x: p.x, y: p.y + 0.18, class: "label dark", style: "font-size:.2px" }, open ? "open" : "tile on"));
      return;
    }
    const state = slab ? slab.state : "unknown";
    const fill = { unknown: "#b33b16", number: "#d9653b", emptied: "#6b3a2a", fallen: "#000" }[state];
    g.append(s("rect", { ...attrs, class: "sp", fill, "data-slab": state }));
    let text = "glyph";
    if (state === "number") text = String(slab.number);
    else if (state === "emptied") text = `${slab.number} empty`;
    else if (state === "fallen") text = "fallen";
    if (revealed || state !== "unknown") {
      g.append(s("text", { x: p.x, y: p.y, class: "label", style: state === "number" ? "font-size:.38px" : "font-size:.2px" }, text));
    }
  }

  // Each wall is a slab growing in from its side of the room, one step per wall card; at
  // the third step it touches the zone spaces, never covers them.
  function drawWalls(g, walls, minX, maxX, top, bottom) {
    if (!walls) return;
    const step = (ROOM_SIDE - 0.42 - 0.06) / 3;
    const left = 0.06 + walls.left * step, right = 0.06 + walls.right * step;
    g.append(s("rect", { x: minX, y: top, width: left, height: bottom - top, fill: "#f08c2e", "data-wall": "left", "data-step": walls.left }));
    g.append(s("rect", { x: maxX - right, y: top, width: right, height: bottom - top, fill: "#aab2ba", "data-wall": "right", "data-step": walls.right }));
    g.append(s("text", { x: (minX + maxX) / 2, y: bottom + 0.22, class: "label", style: "font-size:.2px" }, `walls ${walls.left}/3 · ${walls.right}/3${walls.closed ? " closed" : ""}`));
  }

  return { draw, seatColour, layout };
})();
