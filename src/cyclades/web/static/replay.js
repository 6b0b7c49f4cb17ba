// The replay viewer: /replay/{game id} (a game of this server), /replay/up-... (an uploaded
// record), /replay (open a record file) and /replay?url=... (a record this server serves).
//
// Positions come from the server, which replays the record with the engine: the summary
// (GET /api/replays/{id}: per decision its cycle, who took it, where its log lines end; the
// whole log; the board) once, then one position per request (GET /api/replays/{id}/steps/{n}),
// kept here, the next one fetched ahead. A running game's replay shows what a spectator sees
// and follows the game over its WebSocket.
import { BoardView } from "./board.js";
import { escapeRegExp, logKind, listing, _, GODS, actionLabel, api, cardName, chip, colour, csrfHeaders, factionMark, godName, h, inPageLanguage, initial, ink, socketTo } from "./common.js";
import { chancesChart, timelineChart } from "./endgame.js";
import { replayChat } from "./chat.js";

const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const PHASES = { setup: _("Setup"), offerings: _("Offerings"), maintenance: _("Maintenance"), actions: _("Actions"), over: _("Game over") };
const PLAY_MS = 450;

const st = {
  rid: null,
  gid: null, // a game of this server (not an upload)
  steps: 0,
  cycle: [], phase: [], toMove: [], actor: [], logEnd: [], actions: null,
  log: [],
  cycles: [],
  names: [], seats: [],
  over: false,
  public: false,
  timeline: null,
  result: null,
  board: null,
  step: -1, // the step shown
  target: 0, // the step asked for
  shown: null, // the position shown
  views: new Map(),
  pending: new Map(),
  playing: null,
  ws: null,
  refreshing: false,
  dirty: false,
  chartCycle: null,
  chances: null, // GET /api/replays/{id}/chances, once the game is over (advice.py)
  chancesAsked: null,
  logItems: [],
  current: [],
};
window.cycladesReplay = st; // for the console and tests

const name = (p) => st.names[p] || _("Player {n}", { n: p + 1 });
const fseats = () => st.names.map((n, i) => ({ seat: i, name: n }));
const areaName = (id) => (st.board ? st.board.name(id) : id);

// --- starting -----------------------------------------------------------------------

async function start() {
  const parts = location.pathname.split("/").filter(Boolean);
  const rid = parts.length > 1 ? decodeURIComponent(parts[parts.length - 1]) : "";
  const params = new URLSearchParams(location.search);
  if (rid) {
    await load(rid);
    return;
  }
  const url = params.get("url");
  if (url) {
    await openUrl(url);
    return;
  }
  showOpen();
}

function showOpen(error) {
  $("viewer").hidden = true;
  $("open").hidden = false;
  $("title").textContent = _("Replay");
  const err = $("open-error");
  err.hidden = !error;
  err.textContent = error || "";
}

function setupOpen() {
  const input = $("file");
  input.addEventListener("change", () => {
    if (input.files && input.files[0]) uploadFile(input.files[0]);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.classList.remove("over");
    const f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (f) uploadFile(f);
  });
}

async function uploadFile(file) {
  let text;
  try {
    text = await file.text();
  } catch (e) {
    showOpen(_("The file could not be read: {reason}", { reason: e.message }));
    return;
  }
  await upload(text);
}

async function upload(text) {
  $("open-error").hidden = true;
  let res;
  try {
    res = await fetch(inPageLanguage("/api/replays"), { method: "POST", headers: { "Content-Type": "application/json", ...csrfHeaders() }, body: text });
  } catch (e) {
    showOpen(_("The server cannot be reached."));
    return;
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) { /* an empty answer */ }
  if (!res.ok) {
    showOpen((data && typeof data.detail === "string" && data.detail) || _("The server refused the record (HTTP {status}).", { status: res.status }));
    return;
  }
  history.replaceState(null, "", `/replay/${enc(data.replay_id)}`);
  await load(data.replay_id);
}

// ?url=: a record this server serves (never another site's).
async function openUrl(url) {
  let u;
  try {
    u = new URL(url, location.href);
  } catch (e) {
    showOpen(_("Not an address: {url}", { url }));
    return;
  }
  if (u.origin !== location.origin) {
    showOpen(_("Only records served by this server can be opened by address; download the file and open it here instead."));
    return;
  }
  const m = u.pathname.match(/^\/api\/games\/([^/]+)\/record$/);
  if (m) { // a game of this server: its own replay knows the players' names
    history.replaceState(null, "", `/replay/${m[1]}${location.hash}`);
    await load(decodeURIComponent(m[1]));
    return;
  }
  let text;
  try {
    const res = await fetch(inPageLanguage(u.href));
    text = await res.text();
    if (!res.ok) {
      let detail = "";
      try {
        detail = JSON.parse(text).detail || "";
      } catch (e) { /* not JSON */ }
      showOpen(detail ? _("The record could not be fetched (HTTP {status}): {reason}.", { status: res.status, reason: detail }) : _("The record could not be fetched (HTTP {status}).", { status: res.status }));
      return;
    }
  } catch (e) {
    showOpen(_("The record could not be fetched."));
    return;
  }
  await upload(text);
}

async function load(rid) {
  st.rid = rid;
  st.gid = rid.startsWith("up-") ? null : rid;
  let data;
  try {
    data = await summaryFrom(rid, 0);
  } catch (e) {
    if (st.gid) {
      $("open").hidden = true;
      $("viewer").hidden = true;
      $("title").textContent = _("Replay");
      showToast(_("This replay cannot be loaded: {reason}", { reason: e.message }), true);
    } else {
      showOpen(_("This replay cannot be loaded: {reason}", { reason: e.message }));
    }
    return;
  }
  $("open").hidden = true;
  $("viewer").hidden = false;
  st.gid = data.game_id || null;
  takeSummary(data);
  st.board = new BoardView($("board"), data.board, null);
  drawLog();
  drawTicks();
  if (st.gid) {
    const back = $("to-game");
    back.href = `/game/${enc(st.gid)}`;
    back.hidden = false;
    st.chat = replayChat($("replay-chat"), st.gid); // what was said, up to the step shown
  }
  const want = new URLSearchParams(location.search).get("step");
  let n = st.over ? 0 : st.steps; // a game going on: where it is now
  if (want === "last" || want === "end") n = st.steps;
  else if (want !== null && want !== "" && !Number.isNaN(+want)) n = Math.max(0, Math.min(st.steps, Math.floor(+want)));
  st.following = n === st.steps && !st.over;
  await goTo(n);
  if (!st.over && st.gid) follow();
}

// The summary from step `since` on. The server sends it a page at a time (steps `since` to
// `until`): the pages are asked for one after the other and joined.
async function summaryFrom(rid, since) {
  const d = await api("GET", `/api/replays/${enc(rid)}?since=${since}`);
  while (d.until < d.steps) {
    const next = await api("GET", `/api/replays/${enc(rid)}?since=${d.until}`);
    const k = next.since - d.since; // step `next.since` is at this index of d's lists
    for (const key of ["cycle", "phase", "to_move", "actor", "log_end"]) {
      d[key] = d[key].slice(0, k).concat(next[key]);
    }
    if (d.actions && next.actions) d.actions = d.actions.concat(next.actions);
    d.log = d.log.concat(next.log);
    for (const key of ["until", "steps", "over", "cycles", "timeline", "result", "seats"]) d[key] = next[key];
  }
  return d;
}

function takeSummary(d) {
  st.steps = d.steps;
  st.cycle = d.cycle;
  st.phase = d.phase;
  st.toMove = d.to_move;
  st.actor = d.actor;
  st.logEnd = d.log_end;
  st.actions = d.actions;
  st.log = d.log;
  st.cycles = d.cycles;
  st.names = d.names || [];
  st.seats = d.seats || [];
  st.over = d.over;
  st.public = d.public;
  st.timeline = d.timeline;
  st.result = d.result;
  st.chartCycle = null;
  updateSlider();
  $("live").hidden = st.over || !st.gid;
}

// --- following a running game ---------------------------------------------------------

function follow() {
  const ws = socketTo(`/ws/games/${enc(st.gid)}`);
  st.ws = ws;
  ws.onopen = () => {
    $("live").className = "conn live";
    $("live").textContent = _("live");
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (msg.type === "state" && (msg.version === undefined || msg.view)) refresh();
  };
  ws.onclose = () => {
    if (st.ws !== ws || st.over) return;
    $("live").className = "conn down";
    $("live").textContent = _("reconnecting…");
    setTimeout(follow, 2000);
  };
  ws.onerror = () => ws.close();
}

// New decisions in the game: fetch the steps after ours (everything again once it is over,
// when the whole game may be shown).
async function refresh() {
  if (st.refreshing) {
    st.dirty = true;
    return;
  }
  st.refreshing = true;
  try {
    do {
      st.dirty = false;
      const atEnd = st.step === st.steps;
      const d = await summaryFrom(st.rid, st.steps);
      if (d.public !== st.public || d.steps < st.steps || d.log_start !== st.log.length) {
        // Over now (everything may be shown), or taken back: load everything again.
        const full = await summaryFrom(st.rid, 0);
        st.views.clear();
        takeSummary(full);
        drawLog();
      } else if (d.steps > st.steps || d.over !== st.over) {
        const k = d.since;
        for (const key of ["cycle", "phase", "to_move", "actor", "log_end"]) {
          const mine = { to_move: "toMove", log_end: "logEnd" }[key] || key;
          st[mine] = st[mine].slice(0, k).concat(d[key]);
        }
        const before = st.log.length;
        st.log = st.log.concat(d.log);
        st.cycles = d.cycles;
        st.steps = d.steps;
        st.over = d.over;
        st.timeline = d.timeline;
        st.result = d.result;
        st.chartCycle = null;
        st.views.delete(k); // the last position may have been fetched before the log grew
        appendLog(before);
        updateSlider();
      }
      drawTicks();
      if (atEnd || st.following) await goTo(st.steps);
      else await goTo(st.step, true);
      if (st.over) {
        $("live").hidden = true;
        if (st.ws) st.ws.close();
      }
    } while (st.dirty);
  } catch (e) {
    /* the next change tries again */
  } finally {
    st.refreshing = false;
  }
}

// --- moving ---------------------------------------------------------------------------------

async function fetchStep(n) {
  if (st.views.has(n)) return st.views.get(n);
  if (st.pending.has(n)) return st.pending.get(n);
  // A seat's token (Scroll back from the game page): its own purse is shown, as in the game.
  const token = new URLSearchParams(location.search).get("token");
  const q = token ? `?token=${enc(token)}` : "";
  const p = api("GET", `/api/replays/${enc(st.rid)}/steps/${n}${q}`).then((d) => {
    st.views.set(n, d);
    st.pending.delete(n);
    if (st.views.size > 400) st.views.delete(st.views.keys().next().value);
    return d;
  }, (e) => {
    st.pending.delete(n);
    throw e;
  });
  st.pending.set(n, p);
  return p;
}

async function goTo(n, force = false) {
  n = Math.max(0, Math.min(st.steps, n));
  st.target = n;
  if (!st.over) st.following = n === st.steps;
  updateWhere(n); // at once: the slider and the numbers follow the hand
  if (n === st.step && !force) return;
  let d;
  try {
    d = await fetchStep(n);
  } catch (e) {
    showToast(_("This position cannot be shown: {reason}", { reason: e.message }));
    return;
  }
  if (st.target !== n) return; // overtaken by a later request
  show(n, d);
  // The next position ahead (and the one before), so that stepping feels instant.
  for (const m of [n + 1, n - 1]) if (m >= 0 && m <= st.steps && !st.views.has(m)) fetchStep(m).catch(() => {});
}

function prevCycleStart(n) {
  let best = 0;
  for (const [, s] of st.cycles) if (s < n) best = s;
  return best;
}

function nextCycleStart(n) {
  for (const [, s] of st.cycles) if (s > n) return s;
  return st.steps;
}

function stepBy(k) {
  stop();
  goTo(st.target + k);
}

function togglePlay() {
  if (st.playing) {
    stop();
    return;
  }
  if (st.target >= st.steps) goTo(0);
  $("play").classList.add("playing");
  $("play").setAttribute("aria-label", "Pause");
  st.playing = setInterval(() => {
    if (st.target >= st.steps) {
      stop();
      return;
    }
    goTo(st.target + 1);
  }, PLAY_MS);
}

function stop() {
  if (!st.playing) return;
  clearInterval(st.playing);
  st.playing = null;
  $("play").classList.remove("playing");
  $("play").setAttribute("aria-label", "Play");
}

function setupControls() {
  $("first").onclick = () => {
    stop();
    goTo(0);
  };
  $("last").onclick = () => {
    stop();
    goTo(st.steps);
  };
  $("prev").onclick = () => stepBy(-1);
  $("next").onclick = () => stepBy(1);
  $("prev-cycle").onclick = () => {
    stop();
    goTo(prevCycleStart(st.target));
  };
  $("next-cycle").onclick = () => {
    stop();
    goTo(nextCycleStart(st.target));
  };
  $("play").onclick = togglePlay;
  const slider = $("slider");
  slider.addEventListener("input", () => {
    stop();
    goTo(+slider.value);
  });
  document.addEventListener("keydown", (ev) => {
    if ($("viewer").hidden || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    const onSlider = t === slider;
    let handled = true;
    switch (ev.key) {
      case "ArrowLeft":
        if (onSlider) return; // the slider moves itself
        stepBy(ev.shiftKey ? -10 : -1);
        break;
      case "ArrowRight":
        if (onSlider) return;
        stepBy(ev.shiftKey ? 10 : 1);
        break;
      case "ArrowUp":
      case "PageUp":
        stop();
        goTo(prevCycleStart(st.target));
        break;
      case "ArrowDown":
      case "PageDown":
        stop();
        goTo(nextCycleStart(st.target));
        break;
      case "Home":
        stop();
        goTo(0);
        break;
      case "End":
        stop();
        goTo(st.steps);
        break;
      case " ":
        if (t && t.tagName === "BUTTON") return; // the button's own click
        togglePlay();
        break;
      default:
        handled = false;
    }
    if (handled) ev.preventDefault();
  });
}

// --- drawing ------------------------------------------------------------------------------

function updateSlider() {
  const slider = $("slider");
  slider.max = String(st.steps);
  $("log-count").textContent = "";
}

function drawTicks() {
  const box = $("ticks");
  if (!st.steps) {
    box.replaceChildren();
    return;
  }
  const every = Math.max(1, Math.ceil(st.cycles.length / 12));
  box.replaceChildren(...st.cycles.filter(([c]) => c > 0).map(([c, s], i) => h("button", {
    type: "button", class: "rp-tick", style: { left: `${(s / st.steps) * 100}%` }, title: _("Cycle {n} begins (decision {k})", { n: c, k: s }),
    tabindex: "-1", "data-cycle": c,
    onclick: () => {
      stop();
      goTo(s);
    },
  }, i % every === 0 ? String(c) : "")));
}

function updateWhere(n) {
  $("slider").value = String(n);
  const c = st.cycle[n];
  const phase = PHASES[st.phase[n]] || st.phase[n] || "";
  const live = !st.over && st.gid;
  $("where").replaceChildren(...[
    n === 0 ? h("b", {}, _("The start")) : h("b", {}, _("Decision {n}", { n })), " ", _("of {steps}", { steps: st.steps }),
    h("span", { class: "rp-sep" }, "·"), c ? _("Cycle {n}", { n: c }) : PHASES.setup,
    phase && c ? h("span", { class: "rp-sep" }, "·") : null, c ? phase : null,
    live ? h("span", { class: "rp-sep" }, "·") : null,
    live ? h("span", { class: "muted" }, st.following ? _("following the game") : _("the game goes on")) : null,
  ].filter((x) => x !== null));
  $("first").disabled = $("prev").disabled = $("prev-cycle").disabled = n <= 0;
  $("last").disabled = $("next").disabled = $("next-cycle").disabled = n >= st.steps;
}

function show(n, d) {
  st.step = n;
  st.shown = d;
  const v = d.view;
  const c = st.cycle[n];
  $("title").textContent = [st.gid ? _("Replay") : _("Replay (uploaded record)"), c ? _("Cycle {n}", { n: c }) : PHASES.setup, PHASES[v.phase] || v.phase].join(" · ");
  document.title = n === 0 ? _("Cyclades — replay, the start") : _("Cyclades — replay, decision {n}", { n });
  drawStatus(n, d);
  drawBoard(d);
  drawAuction(v);
  drawTracks(v);
  drawPlayers(v, d);
  syncLog(n);
  drawChart(c);
  if (st.chat) st.chat.step(n);
  const url = new URL(location.href);
  url.searchParams.set("step", String(n));
  url.searchParams.delete("url");
  history.replaceState(null, "", url.pathname + url.search);
}

function drawStatus(n, d) {
  const el = $("status");
  el.className = "status rp-status";
  const v = d.view;
  const bits = [];
  if (n === 0) {
    bits.push(h("span", {}, _("The start: nothing has been decided yet.")));
  } else {
    const p = st.actor[n];
    bits.push(h("span", { class: "rp-decided" }, p !== null && p !== undefined ? chip(p, fseats()) : null, " ",
      d.action ? actionLabel(d.action, areaName) + "." : firstLine(n)));
  }
  if (v.over) {
    el.classList.add("over");
    const r = v.result || st.result || {};
    const w = (r.winners || []).map(name);
    bits.push(h("span", { class: "rp-next" }, w.length > 1 ? _("The game is over: {names} win.", { names: listing(w) }) : w.length ? _("The game is over: {name} wins.", { name: w[0] }) : _("The game is over.")));
  } else if (v.to_move !== null && v.to_move !== undefined) {
    bits.push(h("span", { class: "rp-next" }, _("Next:"), " ", chip(v.to_move, fseats()),
      d.next_action ? ` — ${actionLabel(d.next_action, areaName)}` : " " + _("to decide")));
  }
  el.replaceChildren(...bits);
}

// A running game's replay does not show the decisions themselves: its log says what happened.
function firstLine(n) {
  const line = st.log[st.logEnd[n - 1]];
  if (line === undefined || st.logEnd[n] === st.logEnd[n - 1]) return "decided.";
  const who = name(st.actor[n]);
  return line.startsWith(who) ? line.slice(who.length).trim() : `— ${line}`;
}

function drawBoard(d) {
  const v = d.view;
  const dec = v.decision || {};
  st.board.render(v, {
    origin: (dec.kind === "sea_move" || dec.kind === "land_move") && dec.origin ? dec.origin : null,
    battle: dec.kind === "battle" ? dec.area : null,
    attack: dec.kind === "battle" ? {
      area: dec.area, player: dec.attacker, troops: dec.attacker_troops || 0, mercs: dec.attacker_mercenaries || 0, heroes: dec.attacker_heroes || [], fleets: dec.attacker_fleets || 0,
    } : null,
  });
  // Where the decision shown was taken.
  const where = d.action && d.action.where;
  const el = where && st.board.areaEls.get(where);
  if (el) {
    const NS = "http://www.w3.org/2000/svg";
    const mark = document.createElementNS(NS, "path");
    mark.setAttribute("d", el.getAttribute("d"));
    mark.setAttribute("class", "mark replay-last");
    mark.setAttribute("data-area", where);
    st.board.marks.append(mark);
  }
}

function ordinal(i) {
  return ["", "1st", "2nd", "3rd"][i] || `${i}th`;
}

function drawAuction(v) {
  const order = {};
  (v.action_order || []).forEach(([p, god], i) => (order[god] = order[god] || []).push([i + 1, p]));
  const rows = (v.gods || []).map((g) => {
    const info = GODS[g.god] || { name: godName(g.god), colour: "#777", gift: "" };
    return h("li", { class: `god ${g.face_up ? "" : "face-down"}`, "data-god": g.god, title: g.face_up ? info.gift : _("{god} is face down this cycle", { god: info.name }) },
      h("span", { class: "medallion", style: { background: info.colour } }, initial(g.god)),
      h("span", { class: "god-name" }, info.name, h("small", {}, g.face_up ? info.gift : _("face down"))),
      g.bid ? h("span", { class: "bid", style: { background: colour(g.bid.player), color: ink(g.bid.player) }, title: _("{player} offers {n} GP", { player: name(g.bid.player), n: g.bid.amount }) },
        h("b", {}, g.bid.amount), " ", _("GP")) : (g.face_up ? h("span", { class: "bid empty" }, "—") : null),
      (order[g.god] || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) }, title: _("Acts {nth}", { nth: ordinal(i) }) }, ordinal(i))));
  });
  const apollo = GODS.apollo;
  rows.push(h("li", { class: "god apollo", "data-god": "apollo" },
    h("span", { class: "medallion", style: { background: apollo.colour } }, initial("apollo")),
    h("span", { class: "god-name" }, apollo.name, h("small", {}, apollo.gift)),
    h("span", { class: "apollo-players" }, (v.apollo || []).map((p) => chip(p, fseats(), ""))),
    (order.apollo || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) } }, ordinal(i)))));
  $("auction").replaceChildren(
    h("h2", {}, _("Auction board")),
    h("ol", { class: "gods" }, rows),
    h("div", { class: "turn-order" }, h("span", { class: "caption" }, _("Turn order")), (v.turn_order || []).map((p) => chip(p, fseats()))));
}

function drawTracks(v) {
  const creatures = (v.creature_track || []).map((c) => h("li", { class: `card creature-card ${c.card ? "" : "empty"}`, "data-card": c.card || "" },
    h("span", { class: "cost", title: _("{n} GP", { n: c.cost }) }, c.cost),
    h("span", { class: "card-name" }, c.card ? cardName(c.card) : "—"),
    c.reserved_by !== null && c.reserved_by !== undefined ? h("span", { class: "reserved" }, _("reserved"), " ", chip(c.reserved_by, fseats(), "")) : null));
  const heroes = (v.hero_track || []).map((x) => (x
    ? h("li", { class: "card hero-card", "data-card": x }, h("span", { class: "star" }, "★"), h("span", { class: "card-name" }, cardName(x)))
    : h("li", { class: "card empty" }, "—")));
  $("tracks").replaceChildren(
    h("h2", {}, _("Mythological Creatures")),
    h("ol", { class: "track" }, creatures.length ? creatures : h("li", { class: "card empty" }, "—")),
    h("div", { class: "deck-note" }, _("{deck} in the deck, {discarded} discarded", { deck: v.creature_deck, discarded: (v.creature_discard || []).length })),
    h("h2", {}, _("Heroes")),
    h("ol", { class: "track" }, heroes.length ? heroes : h("li", { class: "card empty" }, "—")),
    h("div", { class: "deck-note" }, _("{heroes} in the deck · {mercs} mercenaries · {bonuses} Metropolis bonuses", { heroes: v.hero_deck, mercs: v.mercenaries_in_reserve, bonuses: v.bonus_stack })));
}

function drawPlayers(v, d) {
  const winners = new Set((v.result && v.result.winners) || []);
  const seatOf = (p) => st.seats.find((x) => x && Array.isArray(x.factions) ? x.factions.includes(p) : x && x.seat === p) || {};
  $("players").replaceChildren(...(v.players || []).map((pl) => {
    const p = pl.index;
    const seat = seatOf(p);
    const bot = seat.kind && seat.kind !== "human";
    const stat = (cls, title, value, word) => h("span", { class: `stat ${cls}`, title }, h("i", { class: `icon ${cls}` }), h("b", {}, value), h("small", {}, word));
    const hidden = pl.gp === null || pl.gp === undefined;
    return h("article", {
      class: `player ${v.to_move === p ? "to-move" : ""} ${pl.eliminated ? "eliminated" : ""} ${st.actor[d.step] === p ? "just-acted" : ""}`,
      style: { "--pc": colour(p), "--pink": ink(p) },
      "data-player": p,
    },
    h("header", {}, factionMark(p, 15), h("span", { class: "pname", translate: "no" }, name(p)),
      bot ? h("span", { class: "tag bot", title: _("{kind} bot", { kind: seat.kind }) }, _("bot")) : null,
      winners.has(p) ? h("span", { class: "tag rp-winner" }, _("★ winner")) : null,
      pl.eliminated ? h("span", { class: "tag" }, _("eliminated")) : null),
    h("div", { class: "stats" },
      stat("gp", hidden ? _("Gold: hidden while the game goes on") : _("Gold"), hidden ? "?" : pl.gp, _("GP")),
      stat("metro", _("Metropolises"), pl.metropolises, _("metropolises")),
      stat("priestess", _("Priestesses"), pl.priestesses, _("priestesses")),
      stat("philosopher", _("Philosophers"), pl.philosophers, _("philosophers")),
      stat("troop", _("Troops in reserve (not on the board)"), pl.troops_in_reserve, _("troops left")),
      stat("fleet", _("Fleets in reserve (not on the board)"), pl.fleets_in_reserve, _("fleets left"))),
    (pl.heroes || []).length || (pl.creatures || []).length
      ? h("div", { class: "cards" },
        (pl.heroes || []).map((x) => h("span", { class: "mini hero-mini" }, "★ ", cardName(x))),
        (pl.creatures || []).map((x) => h("span", { class: "mini creature-mini" }, cardName(x))))
      : null);
  }));
}

function drawChart(cycle) {
  const panel = $("chart-panel");
  if (!st.timeline || !(st.timeline.points || []).length) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  if (st.chartCycle === cycle) return;
  st.chartCycle = cycle;
  const width = $("chart").clientWidth || 320;
  const w = Math.max(300, Math.min(560, width));
  const chances = st.over && st.chances && st.chances.rid === st.rid ? st.chances : null;
  const figures = [timelineChart(st.timeline, { names: st.names, cursor: cycle, width: w })];
  if (chances) figures.push(chancesChart(chances, { names: st.names, cursor: cycle, width: w }));
  $("chart").replaceChildren(...figures);
  if (st.over && !chances && st.chancesAsked !== st.rid) loadChances();
}

// Each player's estimated chance to win per cycle: finished games and uploads only.
async function loadChances() {
  const rid = st.rid;
  st.chancesAsked = rid;
  try {
    const doc = await api("GET", `/api/replays/${enc(rid)}/chances`);
    st.chances = { ...doc, rid };
    st.chartCycle = null;
    if (st.step >= 0) drawChart(st.cycle[st.step]);
  } catch (e) { /* the GP and metropolises chart is enough */ }
}

// --- the log --------------------------------------------------------------------------

function logLine(text, i) {
  const names = st.names.map((n, p) => [n, p]).sort((a, b) => b[0].length - a[0].length);
  const re = names.length ? new RegExp("(" + names.map(([n]) => escapeRegExp(n)).join("|") + ")") : null;
  const who = Object.fromEntries(names);
  const parts = re ? text.split(re).map((part, k) => (k % 2 ? h("span", { class: "who", style: { "--pc": colour(who[part]) } }, part) : part)) : [text];
  return h("li", {
    class: `${logKind(text)} future`,
    "data-line": i,
    title: _("Go to this moment"),
  }, parts);
}

function drawLog() {
  st.logItems = st.log.map((l, i) => logLine(l, i));
  st.current = [];
  st.shownEnd = 0;
  $("log").replaceChildren(...st.logItems);
}

function appendLog(from) {
  const more = st.log.slice(from).map((l, k) => logLine(l, from + k));
  st.logItems.push(...more);
  $("log").append(...more);
}

// Lines up to the position shown are visible; the lines of its decision are highlighted.
function syncLog(n) {
  const end = st.logEnd[n] || 0;
  const begin = n > 0 ? st.logEnd[n - 1] : end;
  const items = st.logItems;
  const old = st.shownEnd || 0;
  for (let i = Math.min(old, end); i < Math.max(old, end) && i < items.length; i++) items[i].classList.toggle("future", i >= end);
  for (const li of st.current) li.classList.remove("current");
  st.current = items.slice(begin, end);
  for (const li of st.current) li.classList.add("current");
  st.shownEnd = end;
  $("log-count").textContent = _("{n} of {total} lines", { n: end, total: st.log.length });
  const box = $("log");
  const target = st.current[st.current.length - 1] || items[end - 1];
  if (target) {
    // Scroll the log itself, never the page.
    const top = target.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top + target.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight + target.offsetHeight + 8);
    }
  } else {
    box.scrollTop = 0;
  }
}

function setupLogClicks() {
  $("log").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-line]");
    if (!li) return;
    const line = +li.dataset.line;
    // The first step whose lines reach this one.
    let lo = 0;
    let hi = st.steps;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (st.logEnd[mid] > line) hi = mid;
      else lo = mid + 1;
    }
    stop();
    goTo(lo);
  });
}

let toastTimer = null;
function showToast(text, keep = false) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  if (!keep) toastTimer = setTimeout(() => (t.hidden = true), 6000);
}

setupOpen();
setupControls();
setupLogClicks();
start();
