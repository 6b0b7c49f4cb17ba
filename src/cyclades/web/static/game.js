// The game page: /game/{id}?token=... (a seat) or /game/{id} (a spectator).
// State comes from GET /api/games/{id} and then the WebSocket; decisions go out
// with POST /api/games/{id}/actions, always one of the seat's legal actions as listed.
import { BoardView } from "./board.js";
import {
  GODS, PLAYER_COLOUR_NAMES, actionLabel, api, bareAction, cardName, chip, colour, godName, h, ink, seatName, unitWords,
} from "./common.js";

const BATTLE_KINDS = new Set(["lose", "lose_hero", "retreat", "hold"]);
const BID_KINDS = new Set(["bid", "apollo"]);
const CARD_KINDS = new Set(["recruit_hero", "buy_creature", "reserve", "play_peeked", "keep", "release"]);

const PHASES = { setup: "Setup", offerings: "Offerings", maintenance: "Maintenance", actions: "Actions", over: "Game over" };

const st = {
  gid: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  token: new URLSearchParams(location.search).get("token") || "",
  seat: null,
  version: -1,
  view: null,
  legal: [],
  seats: [],
  status: "",
  log: [],
  logVersion: -1, // the log holds every line up to this version
  board: null,
  ws: null,
  wsDelay: 500,
  sending: false,
  resultShown: false,
};
window.cyclades = st; // handy in the console and for tests

const $ = (id) => document.getElementById(id);

// --- names -----------------------------------------------------------------

const pname = (p) => seatName(st.seats, p);
const areaName = (id) => (st.board ? st.board.name(id) : id);
const label = (a) => actionLabel(a, areaName);
const isMe = (p) => st.seat !== null && st.seat !== undefined && p === st.seat;

// What the player to move is deciding, as the end of "Waiting for X to ..."
// (or, for oneself, "Your move: ...").
function decisionText(dec, view) {
  const text = decisionWords(dec, view);
  return dec && isMe(dec.p) ? text.replace(/\btheir\b/g, "your") : text;
}

function decisionWords(dec, view) {
  if (!dec) return "";
  const k = dec.k;
  switch (k) {
    case "place": {
      const round = dec.round === 2 ? " (2nd Placement Round)" : dec.round === 1 ? " (1st Placement Round)" : "";
      if (dec.step === "fleet") return `place a Fleet next to the new area${round}`;
      if (dec.step === "troop") return `place a Troop on one of their areas (${dec.troops} left)${round}`;
      return `place a Control token on a free land area${round}`;
    }
    case "offer": return "make an offering to the gods";
    case "turn": return `play the turn of ${godName(dec.god)}`;
    case "build": return dec.what ? `build a ${cardName(dec.what)}` : "choose a building";
    case "place_unit": return `place ${dec.left > 1 ? dec.left + " " + unitWords(dec.unit)[1] : "a " + unitWords(dec.unit)[0]}`;
    case "prosper": return "place a Prosperity token";
    case "smove": return "make a Sea Move";
    case "lmove": return dec.hero ? `make a Heroic Move with ${cardName(dec.hero)}` : "make a Land Move";
    case "battle": {
      const where = dec.area ? ` ${view && isLand(dec.area) ? "on" : "in"} ${areaName(dec.area)}` : "";
      if (dec.stage === "loss") return `choose a loss in the battle${where}`;
      return `decide whether to retreat from the battle${where}`;
    }
    case "metro": return "build a Metropolis";
    case "place_hero": return `place ${cardName(dec.hero)}`;
    case "bonus_fleet": return "place a bonus Fleet";
    case "reserve": return "reserve a Mythological Creature";
    case "peek": return "decide about the top Creature card";
    case "maintain": return "maintain their Creatures";
    case "creature": return `use ${cardName(dec.card)}`;
    default: return `decide (${k.replace(/_/g, " ")})`;
  }
}

function isLand(id) {
  const a = st.board && st.board.areas.get(id);
  return a ? a.kind === "land" : true;
}

// --- loading and live updates ---------------------------------------------

async function start() {
  if (!st.gid) {
    showToast("No game in this address.");
    return;
  }
  try {
    const [geo, state] = await Promise.all([
      api("GET", `/api/games/${encodeURIComponent(st.gid)}/board`),
      api("GET", stateUrl()),
    ]);
    st.board = new BoardView($("board"), geo, onAreaClick);
    applyFull(state);
  } catch (e) {
    $("status").textContent = `This game cannot be loaded: ${e.message}`;
    $("status").className = "status error";
    return;
  }
  connect();
}

function stateUrl() {
  const q = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
  return `/api/games/${encodeURIComponent(st.gid)}${q}`;
}

// GET /api/games/{id}: the whole log (last 200 lines) and the state.
function applyFull(data) {
  if (data.version < st.version) return; // the live updates are already further on
  st.seats = data.seats || st.seats;
  st.log = data.log || [];
  st.logVersion = data.version;
  applyState(data, false);
}

function applyState(msg, appendLog = true) {
  if (msg.version < st.version) return; // an older message overtaken by a newer one
  st.seat = msg.seat ?? null;
  st.version = msg.version;
  st.view = msg.view;
  st.status = msg.status || st.status;
  if (msg.seats) st.seats = msg.seats;
  st.legal = msg.legal_actions || (msg.view && msg.view.legal_actions) || [];
  if (appendLog && msg.log && msg.version > st.logVersion) {
    st.log.push(...msg.log);
    st.logVersion = msg.version;
  }
  render();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
  const ws = new WebSocket(`${proto}//${location.host}/ws/games/${encodeURIComponent(st.gid)}${q}`);
  st.ws = ws;
  let first = true;
  ws.onopen = () => {
    st.wsDelay = 500;
    setConn("live", "live");
  };
  ws.onmessage = async (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (msg.type === "state") {
      if (first) {
        first = false;
        onFirstState(msg);
        return;
      }
      applyState(msg);
    } else if (msg.type === "error") {
      showToast(msg.message || "The server refused that.");
    }
  };
  ws.onclose = () => {
    if (st.ws !== ws) return;
    setConn("reconnecting…", "down");
    setTimeout(connect, st.wsDelay);
    st.wsDelay = Math.min(st.wsDelay * 2, 5000);
  };
  ws.onerror = () => ws.close();
}

// The first message of a connection carries the log since... no earlier message on
// that connection: the server sends the log's tail (or everything). It replaces ours,
// so that nothing missed while disconnected is lost and nothing is shown twice.
async function onFirstState(msg) {
  if (msg.version < st.version) return;
  if (msg.log && msg.log.length) {
    st.log = msg.log.slice();
    st.logVersion = msg.version;
    applyState(msg, false);
  } else if (msg.version === st.logVersion) {
    applyState(msg, false);
  } else {
    // A server that sends no log on connection: fetch the whole state.
    applyState(msg, false);
    try {
      applyFull(await api("GET", stateUrl()));
    } catch (e) { /* the next update will do */ }
  }
}

function setConn(text, cls) {
  const el = $("conn");
  el.textContent = text;
  el.className = `conn ${cls}`;
}

// --- sending a decision ----------------------------------------------------

async function send(action) {
  if (st.sending) return;
  closePopup();
  // Only ever what the server listed, exactly as listed.
  const listed = st.legal.find((a) => a === action);
  if (!listed) return;
  st.sending = true;
  document.body.classList.add("sending");
  try {
    await api("POST", `/api/games/${encodeURIComponent(st.gid)}/actions`, {
      token: st.token, version: st.version, action: bareAction(listed),
    });
    if (!st.ws || st.ws.readyState !== WebSocket.OPEN) applyFull(await api("GET", stateUrl()));
  } catch (e) {
    showToast(e.message);
    try {
      applyFull(await api("GET", stateUrl()));
    } catch (e2) { /* the toast says enough */ }
  } finally {
    st.sending = false;
    document.body.classList.remove("sending");
  }
}

let toastTimer = null;
function showToast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 6000);
}

// --- popups: a small menu of actions near the pointer ------------------------

function openPopup(ev, title, actions, labelOf = label) {
  const pop = $("popup");
  pop.replaceChildren(
    h("div", { class: "popup-title" }, title),
    ...actions.map((a) => h("button", { class: "popup-item", role: "menuitem", onclick: () => send(a) }, labelOf(a))),
    h("button", { class: "popup-close", onclick: closePopup }, "Never mind"),
  );
  pop.hidden = false;
  const r = pop.getBoundingClientRect();
  const x = Math.min(ev.clientX + 8, window.innerWidth - r.width - 8);
  const y = Math.min(ev.clientY + 8, window.innerHeight - r.height - 8);
  pop.style.left = `${Math.max(8, x)}px`;
  pop.style.top = `${Math.max(8, y)}px`;
  ev.stopPropagation();
}

function closePopup() {
  $("popup").hidden = true;
}

document.addEventListener("click", (ev) => {
  if (!$("popup").hidden && !$("popup").contains(ev.target)) closePopup();
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") closePopup();
});

// --- clicks on the board and the auction board ------------------------------

function onAreaClick(id, ev) {
  const acts = st.legal.filter((a) => a.where === id);
  if (!acts.length) return;
  if (acts.length === 1) {
    ev.stopPropagation();
    send(acts[0]);
  } else {
    openPopup(ev, areaName(id), acts);
  }
}

function onGodClick(god, ev) {
  if (god === "apollo") {
    const acts = st.legal.filter((a) => a.kind === "apollo");
    if (acts.length) openPopup(ev, "Apollo", acts);
    return;
  }
  const acts = st.legal.filter((a) => a.kind === "bid" && a.what === god).sort((a, b) => a.n - b.n);
  if (!acts.length) return;
  const pop = $("popup");
  pop.replaceChildren(
    h("div", { class: "popup-title" }, `Offer to ${godName(god)}: how many GP?`),
    h("div", { class: "amounts" }, acts.map((a) => h("button", {
      class: "amount", title: label(a), "data-amount": a.n, onclick: () => send(a),
    }, a.n))),
    h("button", { class: "popup-close", onclick: closePopup }, "Never mind"),
  );
  pop.hidden = false;
  const r = pop.getBoundingClientRect();
  pop.style.left = `${Math.max(8, Math.min(ev.clientX + 8, window.innerWidth - r.width - 8))}px`;
  pop.style.top = `${Math.max(8, Math.min(ev.clientY + 8, window.innerHeight - r.height - 8))}px`;
  ev.stopPropagation();
}

function onCardClick(card, ev) {
  const acts = st.legal.filter((a) => !a.where && a.what === card && CARD_KINDS.has(a.kind));
  if (!acts.length) return;
  openPopup(ev, cardName(card), acts);
}

// --- rendering -----------------------------------------------------------------

function render() {
  const v = st.view;
  if (!v) return;
  renderHeader(v);
  renderStatus(v);
  renderBoard(v);
  renderAuction(v);
  renderTracks(v);
  renderPlayers(v);
  renderActions(v);
  renderLog();
  renderResult(v);
}

function renderHeader(v) {
  const phase = PHASES[v.phase] || v.phase;
  $("game-title").textContent = v.cycle > 0 ? `Cycle ${v.cycle} · ${phase}` : phase;
  document.title = `Cyclades — ${v.over ? "game over" : `cycle ${v.cycle}`}`;
  const me = $("me");
  if (st.seat !== null && st.seat !== undefined) {
    me.replaceChildren("You are ", chip(st.seat, st.seats), ` (${PLAYER_COLOUR_NAMES[st.seat % PLAYER_COLOUR_NAMES.length]})`);
  } else {
    me.textContent = "Spectating";
  }
}

function renderStatus(v) {
  const el = $("status");
  el.className = "status";
  if (v.over) {
    el.textContent = "The game is over.";
    el.classList.add("over");
    return;
  }
  const p = v.to_move;
  if (p === null || p === undefined) {
    el.textContent = "…";
    return;
  }
  const what = decisionText(v.decision, v);
  if (isMe(p)) {
    el.replaceChildren(h("strong", {}, "Your move: "), what.charAt(0).toUpperCase() + what.slice(1) + ".");
    el.classList.add("mine");
  } else {
    el.replaceChildren("Waiting for ", chip(p, st.seats), ` to ${what}…`);
  }
}

function legalAreas() {
  return new Set(st.legal.filter((a) => a.where).map((a) => a.where));
}

function renderBoard(v) {
  const dec = v.decision || {};
  st.board.render(v, {
    legal: legalAreas(),
    origin: (dec.k === "smove" || dec.k === "lmove") && dec.frm ? dec.frm : null,
    battle: dec.k === "battle" ? dec.area : null,
    attack: dec.k === "battle" ? {
      area: dec.area, player: dec.att, troops: dec.at || 0, mercs: dec.am || 0, heroes: dec.ah || [], fleets: dec.af || 0,
    } : null,
  });
}

function renderAuction(v) {
  const el = $("auction");
  const bidGods = new Set(st.legal.filter((a) => a.kind === "bid").map((a) => a.what));
  const apolloLegal = st.legal.some((a) => a.kind === "apollo");
  const order = {};
  (v.action_order || []).forEach(([p, god], i) => (order[god] = order[god] || []).push([i + 1, p]));
  const rows = (v.gods || []).map((g) => {
    const info = GODS[g.god] || { name: godName(g.god), colour: "#777", gift: "" };
    const clickable = bidGods.has(g.god);
    return h("li", {
      class: `god ${g.face_up ? "" : "face-down"} ${clickable ? "clickable" : ""}`,
      "data-god": g.god,
      title: g.face_up ? info.gift : `${info.name} is face down this cycle`,
      onclick: clickable ? (ev) => onGodClick(g.god, ev) : null,
    },
    h("span", { class: "medallion", style: { background: info.colour } }, info.name[0]),
    h("span", { class: "god-name" }, info.name, h("small", {}, g.face_up ? info.gift : "face down")),
    g.bid ? h("span", { class: "bid", style: { background: colour(g.bid.player), color: ink(g.bid.player) }, title: `${pname(g.bid.player)} offers ${g.bid.amount} GP` },
      h("b", {}, g.bid.amount), " GP") : (g.face_up ? h("span", { class: "bid empty" }, "—") : null),
    (order[g.god] || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) }, title: `Acts ${ordinal(i)}` }, ordinal(i))));
  });
  const apollo = GODS.apollo;
  rows.push(h("li", {
    class: `god apollo ${apolloLegal ? "clickable" : ""}`,
    "data-god": "apollo",
    title: "Apollo: any number of players; 2 GP and a Prosperity token",
    onclick: apolloLegal ? (ev) => onGodClick("apollo", ev) : null,
  },
  h("span", { class: "medallion", style: { background: apollo.colour } }, "A"),
  h("span", { class: "god-name" }, "Apollo", h("small", {}, apollo.gift)),
  h("span", { class: "apollo-players" }, (v.apollo || []).map((p) => chip(p, st.seats, ""))),
  (order.apollo || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) } }, ordinal(i)))));
  el.replaceChildren(
    h("h2", {}, "Auction board"),
    h("ol", { class: "gods" }, rows),
    h("div", { class: "turn-order" }, h("span", { class: "caption" }, "Turn order"),
      (v.turn_order || []).map((p) => chip(p, st.seats))),
  );
}

function ordinal(i) {
  return ["", "1st", "2nd", "3rd"][i] || `${i}th`;
}

function renderTracks(v) {
  const el = $("tracks");
  const clickable = new Set(st.legal.filter((a) => !a.where && CARD_KINDS.has(a.kind)).map((a) => a.what));
  const creatures = (v.creature_track || []).map((c) => h("li", {
    class: `card creature-card ${c.card ? "" : "empty"} ${clickable.has(c.card) ? "clickable" : ""}`,
    "data-card": c.card || "",
    onclick: clickable.has(c.card) ? (ev) => onCardClick(c.card, ev) : null,
  },
  h("span", { class: "cost", title: `${c.cost} GP` }, c.cost),
  h("span", { class: "card-name" }, c.card ? cardName(c.card) : "—"),
  c.reserved_by !== null && c.reserved_by !== undefined ? h("span", { class: "reserved", title: `Reserved by ${pname(c.reserved_by)}` }, "reserved ", chip(c.reserved_by, st.seats, "")) : null));
  const heroes = (v.hero_track || []).map((hero) => h("li", {
    class: `card hero-card ${clickable.has(hero) ? "clickable" : ""}`,
    "data-card": hero,
    onclick: clickable.has(hero) ? (ev) => onCardClick(hero, ev) : null,
  }, h("span", { class: "star" }, "★"), h("span", { class: "card-name" }, cardName(hero))));
  el.replaceChildren(
    h("h2", {}, "Mythological Creatures"),
    h("ol", { class: "track" }, creatures),
    h("div", { class: "deck-note" }, `${v.creature_deck} in the deck, ${(v.creature_discard || []).length} discarded`),
    h("h2", {}, "Heroes"),
    h("ol", { class: "track" }, heroes.length ? heroes : h("li", { class: "card empty" }, "—")),
    h("div", { class: "deck-note" }, `${v.hero_deck} in the deck · ${v.mercenaries_in_reserve} mercenaries · ${v.bonus_stack} Metropolis bonuses`),
  );
}

function renderPlayers(v) {
  const el = $("players");
  el.replaceChildren(...(v.players || []).map((pl) => {
    const p = pl.index;
    const seat = st.seats[p] || {};
    const bot = seat.kind && seat.kind !== "human";
    const stat = (cls, title, value, word) => h("span", { class: `stat ${cls}`, title }, h("i", { class: `icon ${cls}` }), h("b", {}, value), h("small", {}, word));
    return h("article", {
      class: `player ${v.to_move === p ? "to-move" : ""} ${isMe(p) ? "mine" : ""} ${pl.eliminated ? "eliminated" : ""}`,
      style: { "--pc": colour(p), "--pink": ink(p) },
      "data-player": p,
    },
    h("header", {}, h("span", { class: "swatch" }), h("span", { class: "pname" }, pname(p)),
      isMe(p) ? h("span", { class: "tag" }, "you") : null,
      bot ? h("span", { class: "tag bot", title: `played by the server: ${seat.kind} bot` }, /bot/i.test(pname(p)) ? "bot" : `${seat.kind} bot`) : null,
      pl.eliminated ? h("span", { class: "tag" }, "eliminated") : null),
    h("div", { class: "stats" },
      stat("gp", pl.gp === null || pl.gp === undefined ? "Gold: hidden from you (R24)" : "Gold", pl.gp === null || pl.gp === undefined ? "?" : pl.gp, "GP"),
      stat("metro", "Metropolises", pl.metropolises, "metropolises"),
      stat("priestess", "Priestesses", pl.priestesses, "priestesses"),
      stat("philosopher", "Philosophers", pl.philosophers, "philosophers"),
      stat("troop", "Troops in reserve (not on the board)", pl.troops_in_reserve, "troops left"),
      stat("fleet", "Fleets in reserve (not on the board)", pl.fleets_in_reserve, "fleets left")),
    (pl.heroes || []).length || (pl.creatures || []).length
      ? h("div", { class: "cards" },
        (pl.heroes || []).map((x) => h("span", { class: "mini hero-mini", title: "Hero" }, "★ ", cardName(x))),
        (pl.creatures || []).map((x) => h("span", { class: "mini creature-mini", title: "Mythological Creature" }, cardName(x))))
      : null);
  }));
}

function renderActions(v) {
  const el = $("act");
  const legal = st.legal;
  const parts = [];
  if (v.over) {
    parts.push(h("h2", {}, "Game over"), h("button", { class: "primary", onclick: () => showResult(v, true) }, "Show the result"));
    el.replaceChildren(...parts);
    return;
  }
  if (!isMe(v.to_move) || !legal.length) {
    const p = v.to_move;
    parts.push(h("h2", {}, st.seat === null ? "Spectating" : "Not your move"));
    if (p !== null && p !== undefined) {
      parts.push(h("p", { class: "waiting", id: "waiting" }, "Waiting for ", chip(p, st.seats), ` to ${decisionText(v.decision, v)}…`));
    }
    el.replaceChildren(...parts);
    el.classList.remove("your-move");
    return;
  }
  el.classList.add("your-move");
  const dec = v.decision || {};
  parts.push(h("h2", {}, "Your move"));
  parts.push(h("p", { class: "prompt" }, capital(decisionText(dec, v)) + "."));

  const battle = legal.filter((a) => BATTLE_KINDS.has(a.kind));
  const bids = legal.filter((a) => BID_KINDS.has(a.kind));
  const onMap = legal.filter((a) => a.where && !BATTLE_KINDS.has(a.kind));
  const takes = legal.filter((a) => a.kind === "take");
  const rest = legal.filter((a) => !a.where && !BATTLE_KINDS.has(a.kind) && !BID_KINDS.has(a.kind) && a.kind !== "take");

  if (battle.length) parts.push(battleDialog(v, dec, battle));
  if (bids.length) {
    const gods = [...new Set(bids.map((a) => (a.kind === "apollo" ? "apollo" : a.what)))];
    parts.push(h("p", { class: "hint" }, "Click a god on the auction board, then choose your offering."));
    parts.push(h("div", { class: "buttons" }, gods.map((g) => h("button", {
      class: "god-button", "data-god": g, style: { "--gc": (GODS[g] || {}).colour || "#777" },
      onclick: (ev) => onGodClick(g, ev),
    }, godName(g)))));
  }
  if (onMap.length) {
    parts.push(h("p", { class: "hint" }, `Click a highlighted area on the map (${new Set(onMap.map((a) => a.where)).size} to choose from).`));
    parts.push(h("details", { class: "map-list" }, h("summary", {}, "…or pick from a list"),
      h("div", { class: "buttons column" }, onMap.map((a) => actionButton(a)))));
  }
  if (takes.length) {
    const unit = takes[0].what;
    const from = dec.frm ? ` from ${areaName(dec.frm)}` : "";
    parts.push(h("p", { class: "hint" }, `How many ${unitWords(unit)[1]} do you take${from}?`));
    parts.push(h("div", { class: "amounts" }, takes.map((a) => h("button", { class: "amount", title: label(a), "data-action": "take", "data-amount": a.n || 0, onclick: () => send(a) }, a.n || 0))));
  }
  if (rest.length) parts.push(h("div", { class: "buttons" }, rest.map((a) => actionButton(a))));
  el.replaceChildren(...parts);
}

function actionButton(a) {
  const cls = a.kind === "end_turn" ? "primary" : a.kind === "cancel" ? "secondary" : "";
  return h("button", { class: `action ${cls}`, "data-kind": a.kind, "data-where": a.where || null, onclick: () => send(a) }, label(a));
}

function capital(t) {
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

function battleDialog(v, dec, acts) {
  const where = dec.area ? areaName(dec.area) : "";
  const att = dec.att;
  const dfd = dec.dfd;
  const lastRound = [...st.log].reverse().find((l) => /round|roll|die|dice/i.test(l));
  const loss = acts.filter((a) => a.kind === "lose" || a.kind === "lose_hero");
  const retreat = acts.filter((a) => a.kind === "retreat");
  const hold = acts.filter((a) => a.kind === "hold");
  return h("div", { class: "battle-dialog", role: "dialog", "aria-label": "Battle" },
    h("div", { class: "battle-title" }, "⚔ Battle", where ? ` ${isLand(dec.area) ? "on" : "in"} ${where}` : "",
      dec.round ? h("small", {}, ` · round ${dec.round}`) : null),
    att !== undefined && dfd !== undefined ? h("div", { class: "battle-sides" },
      h("div", {}, chip(att, st.seats), " attacks with ", forces(dec.at, dec.am, dec.ah, dec.af)),
      h("div", {}, chip(dfd, st.seats), " defends with ", defenders(v, dec.area))) : null,
    lastRound ? h("div", { class: "battle-last" }, lastRound) : null,
    loss.length ? h("p", {}, "You lost this round: choose which unit to remove.") : null,
    loss.length ? h("div", { class: "buttons" }, loss.map((a) => actionButton(a))) : null,
    retreat.length || hold.length ? h("p", {}, retreat.length ? "Retreat (click a highlighted area or a button), or fight on:" : "Fight on:") : null,
    h("div", { class: "buttons" }, retreat.map((a) => actionButton(a)), hold.map((a) => actionButton(a))));
}

// "2 Troops, 1 mercenary Troop and Ajax"
function forces(troops, mercs, heroes, fleets) {
  const parts = [];
  const count = (n, kind) => {
    if (!n) return;
    const [one, many] = unitWords(kind);
    parts.push(`${n} ${n === 1 ? one : many}`);
  };
  count(troops, "troop");
  count(mercs, "merc");
  count(fleets, "fleet");
  for (const x of heroes || []) parts.push(cardName(x));
  if (!parts.length) return "nothing";
  return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
}

function defenders(v, area) {
  const a = (v.areas || []).find((x) => x.id === area) || {};
  return forces(a.troops, a.mercs, a.heroes, a.fleets);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function renderLog() {
  const el = $("log");
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  const lines = st.log.slice(-300);
  const names = (st.view.players || []).map((pl) => [pname(pl.index), pl.index]).sort((a, b) => b[0].length - a[0].length);
  const re = names.length ? new RegExp("(" + names.map(([n]) => escapeRegExp(n)).join("|") + ")") : null;
  const who = Object.fromEntries(names);
  // Players' names in their colours.
  const line = (text) => (re ? text.split(re).map((part, i) => (i % 2
    ? h("span", { class: "who", style: { "--pc": colour(who[part]) } }, part) : part)) : [text]);
  el.replaceChildren(...lines.map((l) => h("li", { class: /^Cycle \d+ begins/.test(l) ? "cycle" : /battle|round/i.test(l) ? "fight" : "" }, line(l))));
  if (atBottom || !el.dataset.scrolled) {
    el.scrollTop = el.scrollHeight;
    el.dataset.scrolled = "1";
  }
}

function renderResult(v) {
  if (v.over && !st.resultShown) {
    st.resultShown = true;
    showResult(v, true);
  }
}

function showResult(v, open) {
  const el = $("result");
  const r = v.result || {};
  const winners = r.winners || [];
  const rows = (v.players || []).map((pl) => {
    const p = pl.index;
    return h("tr", { class: winners.includes(p) ? "winner" : "" },
      h("td", {}, chip(p, st.seats)),
      h("td", {}, (r.metropolises || [])[p] ?? pl.metropolises),
      h("td", {}, (r.gp || [])[p] ?? pl.gp ?? "?"),
      h("td", {}, winners.includes(p) ? h("span", { class: "laurel" }, "★ winner") : (r.eliminated || [])[p] ? "eliminated" : ""));
  });
  const names = winners.map(pname);
  const title = !winners.length ? "The game is over" : winners.length === 1
    ? (isMe(winners[0]) ? "You win!" : `${names[0]} wins!`)
    : `Shared victory: ${names.join(" and ")}`;
  el.replaceChildren(h("div", { class: "result-card", role: "dialog", "aria-label": "Result" },
    h("h2", {}, title),
    h("p", {}, `After ${r.cycles ?? v.cycle} cycles${r.cycle_limit ? " (the cycle limit was reached)" : ""}.`),
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Metropolises"), h("th", {}, "GP"), h("th", {}, ""))),
      h("tbody", {}, rows)),
    h("div", { class: "buttons" },
      h("button", { class: "secondary", onclick: () => (el.hidden = true) }, "Look at the board"),
      h("a", { class: "button primary", href: "/" }, "Back to the lobby"))));
  el.hidden = !open;
}

start();
