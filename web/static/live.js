"use strict";
// Shared by every page: the live view stream (reconnects with backoff, catches up after the
// phone slept), JSON POSTs with readable errors, and a tiny element builder.
const Companion = (() => {
  const QUIET_MS = 40000; // the server sends a ping every 15 s; silence this long = dead stream
  const SLEPT_MS = 3000; // hidden longer than this (screen off): start a fresh stream

  // opts.check: a URL answering 403 once this page may no longer listen (its seat link
  // changed); then opts.gone() is called and the page stops reconnecting.
  function live(url, onView, onStatus, opts) {
    opts = opts || {};
    let source = null;
    let stopped = false;
    let delay = 1000;
    let retryTimer = null;
    let heard = Date.now();

    function connect() {
      clearTimeout(retryTimer);
      if (stopped) return;
      if (source) source.close();
      heard = Date.now();
      source = new EventSource(url);
      source.addEventListener("view", (e) => {
        heard = Date.now();
        delay = 1000;
        onView(JSON.parse(e.data));
        onStatus("live");
      });
      source.addEventListener("ping", () => { heard = Date.now(); });
      source.addEventListener("bye", () => retry());
      source.onerror = () => retry();
    }

    function retry() {
      if (stopped) return;
      onStatus("reconnecting");
      if (source) source.close();
      source = null;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, delay + Math.random() * 400);
      delay = Math.min(delay * 2, 15000);
      if (opts.check) {
        fetch(opts.check, { cache: "no-store", credentials: "same-origin" }).then((r) => {
          if (r.status !== 403 || stopped) return;
          stopped = true;
          clearTimeout(retryTimer);
          if (opts.gone) opts.gone();
        }, () => {}); // unreachable: keep retrying
      }
    }

    let hiddenAt = 0;

    function wake() {
      // Back from sleep or a network change: reconnect at once; the first event catches up.
      // A stream that looks open after a sleep may be dead, so a long absence reconnects too.
      delay = 1000;
      const away = hiddenAt && Date.now() - hiddenAt > SLEPT_MS;
      hiddenAt = 0;
      if (away || !source || source.readyState === EventSource.CLOSED || Date.now() - heard > QUIET_MS) {
        connect();
      }
    }

    document.addEventListener("visibilitychange", () => {
      if (document.hidden) hiddenAt = Date.now();
      else wake();
    });
    window.addEventListener("online", wake);
    window.addEventListener("pageshow", wake);
    setInterval(() => { if (source && Date.now() - heard > QUIET_MS) retry(); }, 5000);
    connect();
  }

  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body || {}),
        credentials: "same-origin",
      });
    } catch (err) {
      throw new Error("The companion cannot be reached; check the Wi-Fi.");
    }
    let data = {};
    try { data = await response.json(); } catch (err) { /* not JSON */ }
    if (!response.ok) throw new Error(data.error || `The companion said no (${response.status}).`);
    return data;
  }

  // el("button", {class: "big", onclick: f}, "text", child, ...)
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function setStatus(state) {
    const badge = document.getElementById("status");
    if (!badge) return;
    badge.dataset.state = state;
    badge.textContent = state === "live" ? "live" : "reconnecting…";
  }

  function toast(message, kind) {
    const box = document.getElementById("toast");
    if (!box) return;
    box.textContent = message;
    box.dataset.kind = kind || "error";
    box.hidden = false;
    clearTimeout(box._timer);
    box._timer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function initials(name) {
    const parts = String(name || "?").trim().split(/\s+/);
    return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
  }

  return { live, post, el, setStatus, toast, initials };
})();

// Page parts a game's bundle ships (served under /parts/<game>/, named in the payload's
// "parts": {game, files}): a part script calls Parts.define(game, {...}). A page part for page P may bring
// `${P}Slots` (HTML for the page's [data-slot] places) and `${P}(payload, page)`, which draws
// them; the page's [data-generic] sections show only for a game whose part does not draw P.
const Parts = (() => {
  const defined = {};
  const loading = {};

  function define(game, part) {
    defined[game] = Object.assign(defined[game] || {}, part);
  }

  function add(tag, attrs) {
    return new Promise((resolve) => {
      const node = Object.assign(document.createElement(tag), attrs);
      node.onload = resolve;
      node.onerror = resolve; // a missing part: the generic page still works
      document.head.append(node);
    });
  }

  // Every part file of the game, once; then what it defined ({} for a game with none).
  function load(game, files) {
    if (!loading[game]) {
      loading[game] = Promise.all((files || []).map((name) => name.endsWith(".css")
        ? add("link", { rel: "stylesheet", href: `/parts/${game}/${name}` })
        : add("script", { src: `/parts/${game}/${name}`, async: false })));
    }
    return loading[game].then(() => defined[game] || {});
  }

  // The page's title and heading name the game whose parts it shows.
  function retitle(title) {
    const heading = document.getElementById("game-title");
    if (heading) heading.textContent = title;
    document.title = [title, ...document.title.split(" · ").slice(1)].join(" · ");
  }

  function mount(part, page) {
    const slots = part[`${page}Slots`] || {};
    for (const node of document.querySelectorAll("[data-slot]")) node.innerHTML = slots[node.dataset.slot] || "";
    for (const node of document.querySelectorAll("[data-generic]")) node.hidden = Boolean(part[page]);
  }

  // A view handler for Companion.live: views are drawn in order, each once the part of its
  // game is loaded and mounted; draw(payload, part) gets {} for a game without parts. The
  // page's status turns "live" only once the view is drawn (follow's .status).
  function follow(page, draw) {
    let queue = Promise.resolve();
    let game;
    let part = {};
    let pending = 0;
    let said = null;
    const onView = (payload) => {
      pending += 1;
      queue = queue.then(async () => {
        const parts = payload.parts || {};
        if (parts.game !== game) {
          game = parts.game;
          part = game ? await load(game, parts.files) : {};
          mount(part, page);
          if (parts.title) retitle(parts.title);
        }
        draw(payload, part);
      }).catch((err) => console.error(err)).finally(() => {
        pending -= 1;
        if (!pending && said) Companion.setStatus(said);
      });
    };
    onView.status = (state) => {
      said = state;
      if (!pending || state !== "live") Companion.setStatus(state);
    };
    return onView;
  }

  return { define, load, follow };
})();
