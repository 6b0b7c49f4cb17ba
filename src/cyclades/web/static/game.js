// The game page: /game/{id}?token=... (a seat) or /game/{id} (a spectator).
// State comes from GET /api/games/{id} and then the WebSocket; decisions go out
// with POST /api/games/{id}/actions, always one of the seat's legal actions as listed.
import { Animator, lastMoveMarks, speedControl } from "./animate.js";
import { BoardView } from "./board.js";
import { endScreen, scrollBackLink } from "./endgame.js";
import { escapeRegExp, isFightLine, logKind,
  _, BUILDINGS, GODS, PLAYER_COLOUR_NAMES, actionLabel, api, bareAction, cardName, chip, colour, factionMark, godName, h, initial, ink, listing, ngettext, seatName, socketTo, unitWords,
} from "./common.js";
import { beep, hideTip, installTips, loadContent, setAreaTip, setSound, signals, soundOn, tipBody, tipInfo, unlockAudio } from "./tips.js";
import { invitesPanel } from "./invites.js";
import { afterRender, beforeSend } from "./tutorial.js"; // lessons, "End your turn?"
import { chatNotice, chatState, installChat } from "./chat.js"; // the table talk
import { ratingMoved } from "./account.js";
import { showClocks } from "./clocks.js"; // a timed game's clocks

const BATTLE_KINDS = new Set(["lose", "lose_hero", "retreat", "hold"]);
const BID_KINDS = new Set(["bid", "apollo"]);
const CARD_KINDS = new Set(["recruit_hero", "buy_creature", "reserve", "play_peeked", "keep", "release"]);

const PHASES = { setup: _("Setup"), offerings: _("Offerings"), maintenance: _("Maintenance"), actions: _("Actions"), over: _("Game over") };

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
  sending: null, // the decision on its way: {version} it was sent from, until a newer state or the answer
  resultShown: false,
  setup: null, // GET /api/games/{id}/setup: ruleset, maelstrom, teams, seat_factions
  content: null, // GET /api/content: the texts of the tooltips
  myMove: false,
  collapsed: {},
  hint: null, // POST /api/games/{id}/hint: {version, action, reason} for the current decision
  hinting: false,
  undos: 0, // decisions taken back so far in the game: a new count starts the log again
  undo: null, // {steps, reason, text}: how far back this seat may go now (engine/undo.py)
  undoing: false,
  since: null, // {from, to, decisions, first_move}: the log lines since this seat's last move
  lastMoves: [], // per player: {player, areas} of their last move, marked on the board
  logTotal: 0, // the server's log length: st.log holds its last lines
  signals,
};
window.cyclades = st; // handy in the console and for tests

const $ = (id) => document.getElementById(id);

// Others' moves played on the board before each new position is drawn (animate.js).
const anim = new Animator({
  board: () => st.board,
  seats: () => st.seats,
  isMe: (p) => isMe(p),
  panelOf: (p) => document.querySelector(`#players article.player[data-player="${p}"]`),
  stage: () => $("anim-stage"),
});
st.anim = anim;

// --- names -----------------------------------------------------------------

const pname = (p) => seatName(st.seats, p);
const areaName = (id) => (st.board ? st.board.name(id) : id);
const label = (a) => actionLabel(a, areaName);
// A seat plays its factions: one, or two in the 2-player game (R22; the server's `factions`).
const isMe = (p) => st.seat !== null && st.seat !== undefined && (Array.isArray(st.factions) && st.factions.length ? st.factions.includes(p) : p === st.seat);

function isLand(id) {
  const a = st.board && st.board.areas.get(id);
  return a ? a.kind === "land" : true;
}

// --- loading and live updates ---------------------------------------------

async function start() {
  if (!st.gid) {
    wrongLink(404, _("No game in this address."));
    return;
  }
  try {
    const [geo, state] = await Promise.all([
      api("GET", `/api/games/${encodeURIComponent(st.gid)}/board`),
      api("GET", stateUrl()),
    ]);
    st.geo = geo;
    drawBoard();
    await loadSetup(state);
    applyFull(state);
  } catch (e) {
    wrongLink(e.status, e.message);
    return;
  }
  scrollBackLink(st.gid, st.token);
  connect();
  installChat(st);
}

// A wrong or stale link: say what is wrong, and offer the lobby and (if the game exists)
// watching it, instead of an empty board.
async function wrongLink(status, message) {
  setConn(_("not connected"), "down");
  let exists = status === 403;
  if (status !== 403 && status !== 404 && status && st.gid) {
    try {
      await api("GET", `/api/games/${encodeURIComponent(st.gid)}/board`);
      exists = true;
    } catch (e) { /* no such game */ }
  }
  const watch = `/game/${encodeURIComponent(st.gid)}`;
  const [title, text] = status === 403 && st.token
    ? [_("This invitation link does not open a seat"),
      _("The game exists, but this link's key is not one of its seats: it may have been copied in part, or the host gave the seat to someone else or to a bot. Ask the host for a new link, or watch the game.")]
    : status === 404 || (!exists && status >= 400)
      ? [_("There is no such game"), _("No game has the code “{code}” on this server: the link may be mistyped, or the game was removed after a long time without moves.", { code: st.gid })]
      : [_("This game cannot be shown"), message || _("The server did not answer.")];
  document.title = _("Cyclades — link not valid");
  const box = h("section", { class: "panel wrong-link", id: "wrong-link", role: "alert" },
    h("h2", {}, title),
    h("p", {}, text),
    h("div", { class: "buttons" },
      h("a", { class: "button primary", href: "/", id: "to-lobby" }, _("Go to the lobby")),
      exists && st.token ? h("a", { class: "button secondary", href: watch, id: "watch-game" }, _("Watch this game")) : null,
      exists ? null : h("a", { class: "button secondary", href: "/tutorial" }, _("Learn to play"))));
  document.querySelector("main.layout").replaceChildren(box);
}

// The board turns and scales to fill its panel by itself (board.js).
function drawBoard() {
  if (!st.board) st.board = new BoardView($("board"), st.geo, onAreaClick);
}

// The game's mode and the texts of its cards (neither is needed to play: failures are quiet).
async function loadSetup(state) {
  const view = state.view || {};
  try {
    st.setup = await api("GET", `/api/games/${encodeURIComponent(st.gid)}/setup`);
  } catch (e) {
    st.setup = { ruleset: view.ruleset || "legendary", maelstrom: true };
  }
  const ruleset = view.ruleset || st.setup.ruleset || "legendary";
  try {
    st.content = await api("GET", `/api/content?ruleset=${encodeURIComponent(ruleset)}&maelstrom=${st.setup.maelstrom !== false}`);
    loadContent(st.content);
  } catch (e) { /* tooltips show names only */ }
}

function stateUrl() {
  const q = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
  return `/api/games/${encodeURIComponent(st.gid)}${q}`;
}

// GET /api/games/{id}: the whole log (last 200 lines) and the state.
function applyFull(data) {
  if (!newer(data)) return; // the live updates are already further on
  st.seats = data.seats || st.seats;
  st.log = data.log || [];
  st.logVersion = data.version;
  applyState(data, false);
}

// A state to take: newer than ours, or after a decision was taken back (a new `undos` count:
// the version then goes back).
function newer(msg) {
  return (msg.undos ?? 0) > st.undos || ((msg.undos ?? 0) === st.undos && msg.version >= st.version);
}

function applyState(msg, appendLog = true) {
  if (!newer(msg)) return; // an older message overtaken by a newer one
  if (st.sending && (msg.version > st.sending.version || (msg.undos ?? 0) !== st.undos)) sendingDone(st.sending);
  if ((msg.undos ?? 0) !== st.undos) {
    st.undos = msg.undos ?? 0;
    if (msg.log) {
      st.log = msg.log.slice(); // the log starts again from its tail
      st.logVersion = msg.version;
      appendLog = false;
    }
    st.hint = null;
  }
  st.seat = msg.seat ?? null;
  st.factions = msg.factions || null;
  st.version = msg.version;
  st.view = msg.view;
  st.status = msg.status || st.status;
  if (msg.seats) st.seats = msg.seats;
  showClocks(msg.clock, st.seats, msg.now);
  st.legal = msg.legal_actions || (msg.view && msg.view.legal_actions) || [];
  st.waiting = msg.waiting || "";
  chatState(st.status);
  st.undo = msg.undo || null;
  st.since = msg.since || null;
  st.lastMoves = msg.last_moves || [];
  if (appendLog && msg.log && msg.version > st.logVersion) {
    st.log.push(...msg.log);
    st.logVersion = msg.version;
  }
  if (msg.log_total !== undefined) st.logTotal = msg.log_total;
  render();
}

// The log lines between two of the server's line numbers, if this page holds them.
function logLines(from, to) {
  const start = st.logTotal - st.log.length;
  if (from < start) return null;
  return st.log.slice(from - start, to - start);
}

function connect() {
  const q = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
  const ws = socketTo(`/ws/games/${encodeURIComponent(st.gid)}${q}`);
  st.ws = ws;
  let first = true;
  ws.onopen = () => {
    st.wsDelay = 500;
    setConn(_("live"), "live");
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
        anim.skip();
        onFirstState(msg);
        return;
      }
      if (msg.log_reset) anim.skip(); // a decision taken back: no moves to play
      anim.push(msg.moves, () => applyState(msg));
    } else if (msg.type === "error") {
      showToast(msg.message || _("The server refused that."));
    } else if (msg.type === "chat") {
      chatNotice(msg);
    }
  };
  ws.onclose = () => {
    if (st.ws !== ws) return;
    setConn(_("reconnecting…"), "down");
    setTimeout(connect, st.wsDelay);
    st.wsDelay = Math.min(st.wsDelay * 2, 5000);
  };
  ws.onerror = () => ws.close();
}

// The first message of a connection carries the log since... no earlier message on
// that connection: the server sends the log's tail (or everything). It replaces ours,
// so that nothing missed while disconnected is lost and nothing is shown twice.
async function onFirstState(msg) {
  if (!newer(msg)) return;
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
  if (!(await beforeSend(listed, st))) return;
  const sent = { version: st.version };
  st.sending = sent;
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
    sendingDone(sent);
  }
}

// The decision on its way has arrived: the page takes clicks again. The live update often comes
// before the answer to the POST; a click on the new choices must not wait for that answer.
function sendingDone(sent) {
  if (st.sending !== sent) return; // already done (a newer state came first)
  st.sending = null;
  document.body.classList.remove("sending");
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

function openPopup(ev, title, actions, labelOf = label, explain = null) {
  const pop = $("popup");
  hideTip();
  pop.replaceChildren(
    h("div", { class: "popup-title", id: "popup-title" }, title),
    explain ? h("div", { class: "popup-text" }, explain) : null,
    h("div", { class: "popup-items" }, actions.map((a) => h("button", { class: `popup-item${isHinted(a) ? " hinted" : ""}`, onclick: () => send(a) }, labelOf(a)))),
    h("button", { class: "popup-close", onclick: closePopup }, _("Never mind")),
  );
  showPopup(pop, ev);
}

// The popup near the pointer (from the keyboard: beside what was chosen), inside the window,
// its first choice focused; Escape or "Never mind" gives the focus back.
let popupOpener = null;
function showPopup(pop, ev) {
  popupOpener = document.activeElement;
  pop.hidden = false;
  pop.setAttribute("aria-labelledby", "popup-title");
  const r = pop.getBoundingClientRect();
  let [x, y] = [ev.clientX, ev.clientY];
  const from = ev.currentTarget || ev.target;
  if (!x && !y && from && from.getBoundingClientRect) {
    const b = from.getBoundingClientRect();
    [x, y] = [b.left, b.bottom];
  }
  pop.style.left = `${Math.max(8, Math.min(x + 8, window.innerWidth - r.width - 8))}px`;
  pop.style.top = `${Math.max(8, Math.min(y + 8, window.innerHeight - r.height - 8))}px`;
  const first = pop.querySelector(".hinted") || pop.querySelector(".popup-item, .amount, button");
  if (first) first.focus({ preventScroll: true });
  if (ev.stopPropagation) ev.stopPropagation();
}

function closePopup() {
  const pop = $("popup");
  if (pop.hidden) return;
  pop.hidden = true;
  if (popupOpener && popupOpener.isConnected && pop.contains(document.activeElement || null)) popupOpener.focus({ preventScroll: true });
}

document.addEventListener("click", (ev) => {
  if (!$("popup").hidden && !$("popup").contains(ev.target)) closePopup();
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") closePopup();
  // A god or a card that can be chosen is a button for the keyboard too.
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.matches && ev.target.matches("li.clickable")) {
    ev.preventDefault();
    ev.target.click();
  }
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
    if (acts.length) openPopup(ev, godName("apollo"), acts, label, tipBody("god:apollo"));
    return;
  }
  const acts = st.legal.filter((a) => a.kind === "bid" && a.what === god).sort((a, b) => a.n - b.n);
  if (!acts.length) return;
  const pop = $("popup");
  hideTip();
  pop.replaceChildren(
    h("div", { class: "popup-title", id: "popup-title" }, _("Offer to {god}: how many GP?", { god: godName(god) })),
    h("div", { class: "popup-text" }, tipBody(`god:${god}`)),
    h("div", { class: "amounts" }, acts.map((a) => h("button", {
      class: `amount${isHinted(a) ? " hinted" : ""}`, title: label(a), "data-amount": a.n, onclick: () => send(a),
    }, a.n))),
    h("button", { class: "popup-close", onclick: closePopup }, _("Never mind")),
  );
  showPopup(pop, ev);
}

function onCardClick(card, ev) {
  const acts = st.legal.filter((a) => !a.where && a.what === card && CARD_KINDS.has(a.kind));
  if (!acts.length) return;
  openPopup(ev, cardName(card), acts, label, tipBody(`hero:${card}`) || tipBody(`creature:${card}`));
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
  renderInvites();
  afterRender(st);
}

// The creator of a game sees the friends' invitation links until they have all come.
function renderInvites() {
  const old = $("invites");
  const panel = st.token ? invitesPanel(st.gid, st.seats) : null;
  if (old && panel) {
    // keep the one shown (a link may be selected): replace it only when the seats changed
    if (old.dataset.waiting === panel.querySelectorAll("[data-invite]").length + "") return;
    old.replaceWith(panel);
  } else if (old) {
    old.remove();
  } else if (panel) {
    $("act").before(panel);
  }
  if (panel) panel.dataset.waiting = panel.querySelectorAll("[data-invite]").length + "";
}

function renderHeader(v) {
  document.body.dataset.phase = v.phase || "";
  const phase = PHASES[v.phase] || v.phase;
  $("game-title").textContent = v.cycle > 0 ? _("Cycle {n} · {phase}", { n: v.cycle, phase }) : phase;
  const mode = gameMode(v);
  $("mode").textContent = mode.label;
  $("mode").setAttribute("data-tip", `text:${mode.long}`);
  $("rules-link").href = `/rules?ruleset=${mode.classic ? "classic" : "legendary"}${mode.classic ? "" : `&maelstrom=${mode.maelstrom ? 1 : 0}`}`;
  signalMove(v);
  const me = $("me");
  if (st.seat !== null && st.seat !== undefined) {
    const mine = myFactions(v);
    me.replaceChildren(mine.length > 1 ? _("You play") : _("You are"), " ", ...mine.map((p) => chip(p, st.seats)),
      mine.length > 1 ? "" : ` (${PLAYER_COLOUR_NAMES[mine[0] % PLAYER_COLOUR_NAMES.length]})`);
  } else {
    me.textContent = _("Spectating");
  }
}

// The factions this page's seat plays: one, or two in the 2-player game.
function myFactions(v) {
  if (st.seat === null || st.seat === undefined) return [];
  if (Array.isArray(st.factions) && st.factions.length) return st.factions;
  const sf = st.setup && st.setup.seat_factions;
  if (sf && sf[st.seat] && (v.players || []).length > (st.seats || []).length) return sf[st.seat];
  return [st.seat];
}

// The seat (a person) playing faction p: in the 2-player game one seat plays two factions.
function seatOf(p) {
  return (st.seats || []).find((x) => x && Array.isArray(x.factions) && x.factions.includes(p)) || (st.seats || [])[p] || {};
}

function teamsOf(v) {
  return v.teams || (st.setup && st.setup.teams) || null;
}

function gameMode(v) {
  const classic = (v.ruleset || (st.setup && st.setup.ruleset)) === "classic";
  const maelstrom = !classic && !(st.setup && st.setup.maelstrom === false);
  const teams = teamsOf(v);
  const n = (v.players || []).length;
  const people = (st.seats || []).length;
  const goal = v.goal || v.team_goal || (st.setup && (st.setup.team_goal || st.setup.goal)) || (classic ? 2 : 3);
  let extra = "";
  let long = classic ? _("The 2009 classic edition: four gods and Apollo, buildings at 2 GP, no Heroes, no mercenaries, no Metropolis bonuses.")
    : maelstrom ? _("The Legendary Edition with the Maelström module.") : _("The Legendary Edition.");
  if (teams && people && people < n) {
    extra = " · " + _("2 players");
    long += " " + _("Two players, each playing two factions of one team with a shared purse; the first to {goal} Metropolises wins.", { goal });
  } else if (teams) {
    const k = new Set(teams).size;
    extra = " · " + _("{k} teams", { k });
    long += " " + _("{k} teams of two: partners share one purse and win together with {goal} Metropolises.", { k, goal });
  } else if (classic && v.turn_order && v.turn_order.length > n) {
    extra = " · " + _("two offerings each");
    long += " " + _("With two players each has two offering markers and makes two offerings per cycle.");
  } else {
    long += " " + _("The first to control {goal} Metropolises at the end of a cycle wins.", { goal });
  }
  return { classic, maelstrom, teams, goal, label: (classic ? _("Classic") : maelstrom ? _("Legendary + Maelström") : _("Legendary")) + extra, long };
}

// Your move: the tab's title says so, and (tab in the background) a short sound.
function signalMove(v) {
  const mine = !v.over && isMe(v.to_move) && st.legal.length > 0;
  const base = v.over ? _("Cyclades — game over") : v.cycle > 0 ? _("Cyclades — cycle {n}", { n: v.cycle })
    : _("Cyclades — {phase}", { phase: (PHASES[v.phase] || PHASES.setup).toLowerCase() });
  document.title = mine ? _("★ Your move · {title}", { title: base }) : base;
  if (mine && !st.myMove && document.hidden && soundOn()) beep();
  st.myMove = mine;
}

function renderStatus(v) {
  const el = $("status");
  el.className = "status";
  if (v.over) {
    el.textContent = _("The game is over.");
    el.classList.add("over");
    return;
  }
  const p = v.to_move;
  if (p === null || p === undefined) {
    el.textContent = "…";
    return;
  }
  if (isMe(p)) {
    el.replaceChildren(h("strong", {}, _("Your move:")), " ", st.waiting);
    el.classList.add("mine");
  } else {
    el.replaceChildren(chip(p, st.seats, ""), " ", st.waiting);
  }
}

// The area an action is played on; classic Zeus' swap names a creature track slot instead.
const areaOf = (a) => (a.kind === "swap_creature" ? "" : a.where || "");

function legalAreas() {
  return new Set(st.legal.filter((a) => areaOf(a)).map((a) => a.where));
}

function renderBoard(v) {
  const dec = v.decision || {};
  st.board.render(v, {
    under: (board) => lastMoveMarks(board, st.lastMoves, st.seats),
    legal: legalAreas(),
    origin: (dec.kind === "sea_move" || dec.kind === "land_move") && dec.origin ? dec.origin : null,
    battle: dec.kind === "battle" ? dec.area : null,
    attack: dec.kind === "battle" ? {
      area: dec.area, player: dec.attacker, troops: dec.attacker_troops || 0, mercs: dec.attacker_mercenaries || 0, heroes: dec.attacker_heroes || [], fleets: dec.attacker_fleets || 0,
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
      "data-tip": `god:${g.god}`,
      onclick: clickable ? (ev) => onGodClick(g.god, ev) : null, tabindex: clickable ? 0 : null,
    },
    h("span", { class: "medallion", style: { background: info.colour } }, initial(g.god)),
    h("span", { class: "god-name" }, info.name, h("small", {}, g.face_up ? info.gift : _("face down this cycle"))),
    g.bid ? h("span", { class: "bid", style: { background: colour(g.bid.player), color: ink(g.bid.player) }, "data-tip": "text:" + _("{player} offers {n} GP", { player: pname(g.bid.player), n: g.bid.amount }) },
      h("b", {}, g.bid.amount), " ", _("GP")) : (g.face_up ? h("span", { class: "bid empty" }, "—") : null),
    (order[g.god] || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) } }, ordinal(i))));
  });
  const apollo = GODS.apollo;
  rows.push(h("li", {
    class: `god apollo ${apolloLegal ? "clickable" : ""}`,
    "data-god": "apollo",
    "data-tip": "god:apollo",
    onclick: apolloLegal ? (ev) => onGodClick("apollo", ev) : null, tabindex: apolloLegal ? 0 : null,
  },
  h("span", { class: "medallion", style: { background: apollo.colour } }, initial("apollo")),
  h("span", { class: "god-name" }, apollo.name, h("small", {}, gameMode(v).classic ? _("1 GP (4 with one isle) · Prosperity") : apollo.gift)),
  h("span", { class: "apollo-players" }, (v.apollo || []).map((p) => chip(p, st.seats, ""))),
  (order.apollo || []).map(([i, p]) => h("span", { class: "order-no", style: { background: colour(p), color: ink(p) } }, ordinal(i)))));
  const twice = (v.turn_order || []).length > (v.players || []).length;
  el.replaceChildren(
    panelTitle("auction", _("Auction board")),
    h("ol", { class: "gods" }, rows),
    h("div", { class: "turn-order", "data-tip": "text:" + (twice ? _("Who offers first this cycle, left to right (two markers each: each player makes two offerings).") : _("Who offers first this cycle, left to right.")) },
      h("span", { class: "caption" }, twice ? _("Offering order (two markers each)") : _("Turn order")),
      (v.turn_order || []).map((p) => chip(p, st.seats))),
  );
}

// A panel's title; on a phone a tap folds the panel away (or opens it again).
function panelTitle(id, text, extra = null) {
  const el = $(id);
  if (el) el.classList.toggle("collapsed", !!st.collapsed[id]);
  return h("h2", { class: "panel-title", onclick: () => togglePanel(id) }, text, extra);
}

function togglePanel(id) {
  if (!window.matchMedia("(max-width: 820px)").matches) return;
  st.collapsed[id] = !st.collapsed[id];
  $(id).classList.toggle("collapsed", st.collapsed[id]);
}

function ordinal(i) {
  return ["", _("1st"), _("2nd"), _("3rd")][i] || _("{n}th", { n: i });
}

function renderTracks(v) {
  const el = $("tracks");
  const mode = gameMode(v);
  const clickable = new Set(st.legal.filter((a) => !a.where && CARD_KINDS.has(a.kind)).map((a) => a.what));
  const creatures = (v.creature_track || []).map((c) => h("li", {
    class: `card creature-card ${c.card ? "" : "empty"} ${clickable.has(c.card) ? "clickable" : ""}`,
    "data-card": c.card || "",
    "data-tip": c.card ? `creature:${c.card}` : "text:" + _("An empty slot: it is filled at the start of the next cycle ({n} GP).", { n: c.cost }),
    onclick: clickable.has(c.card) ? (ev) => onCardClick(c.card, ev) : null, tabindex: clickable.has(c.card) ? 0 : null,
  },
  h("span", { class: "cost" }, c.cost),
  h("span", { class: "card-name" }, c.card ? cardName(c.card) : "—"),
  c.reserved_by !== null && c.reserved_by !== undefined ? h("span", { class: "reserved" }, _("reserved"), " ", chip(c.reserved_by, st.seats, "")) : null));
  const parts = [
    panelTitle("tracks", _("Mythological Creatures")),
    h("ol", { class: "track" }, creatures),
    h("div", { class: "deck-note" }, _("{deck} in the deck, {discarded} discarded · price minus 1 GP per Temple", { deck: v.creature_deck, discarded: (v.creature_discard || []).length })),
  ];
  if (!mode.classic) {
    const heroes = (v.hero_track || []).map((hero) => h("li", {
      class: `card hero-card ${clickable.has(hero) ? "clickable" : ""}`,
      "data-card": hero,
      "data-tip": `hero:${hero}`,
      onclick: clickable.has(hero) ? (ev) => onCardClick(hero, ev) : null, tabindex: clickable.has(hero) ? 0 : null,
    }, h("span", { class: "star" }, "★"), h("span", { class: "card-name" }, cardName(hero)), h("span", { class: "cost hero-cost" }, "4")));
    const bonuses = (st.content && st.content.bonuses) || [];
    parts.push(
      h("h2", { class: "sub" }, _("Heroes")),
      h("ol", { class: "track hero-track" }, heroes.length ? heroes : h("li", { class: "card empty" }, "—")),
      h("div", { class: "deck-note" }, _("{n} in the deck · recruited with Hera for 4 GP", { n: v.hero_deck })),
      h("h2", { class: "sub" }, _("Metropolis bonuses"), h("small", { class: "count" }, " " + _("{n} left", { n: v.bonus_stack }))),
      h("div", { class: "bonuses" }, bonuses.map((b) => h("span", { class: "bonus-chip", "data-bonus": b.id, "data-tip": `bonus:${b.id}` }, b.name))),
      h("div", { class: "deck-note" }, h("span", { "data-tip": "unit:merc" }, _("{n} mercenaries in the supply", { n: v.mercenaries_in_reserve }))));
  }
  el.replaceChildren(...parts);
}

function renderPlayers(v) {
  const el = $("players");
  const teams = teamsOf(v);
  const mode = gameMode(v);
  const built = {}; // player -> {port: n, ...}
  for (const a of v.areas || []) {
    if (a.owner < 0) continue;
    for (const b of a.buildings || []) if (b) (built[a.owner] = built[a.owner] || {})[b] = ((built[a.owner] || {})[b] || 0) + 1;
  }
  const card = (pl, inTeam) => {
    const p = pl.index;
    const seat = seatOf(p);
    const bot = seat.kind && seat.kind !== "human";
    const stat = (cls, tip, value, word) => h("span", { class: `stat ${cls}`, "data-tip": tip },
      h("i", { class: `icon ${cls}` }), h("b", {}, value), word ? h("small", {}, word) : null);
    const hidden = pl.gp === null || pl.gp === undefined;
    const b = built[p] || {};
    const buildings = ["port", "fortress", "temple", "university"].map((k) => h("span", {
      class: `bld ${k} ${b[k] ? "" : "none"}`, "data-building": k, "data-tip": `building:${k}`, style: { "--bc": BUILDINGS[k].colour },
    }, BUILDINGS[k].letter, b[k] > 1 ? h("sub", {}, b[k]) : null));
    return h("article", {
      class: `player ${v.to_move === p ? "to-move" : ""} ${isMe(p) ? "mine" : ""} ${pl.eliminated ? "eliminated" : ""}`,
      style: { "--pc": colour(p), "--pink": ink(p) },
      "data-player": p,
    },
    h("header", {}, factionMark(p, 15), h("span", { class: "pname", title: pname(p), translate: "no" }, pname(p)),
      isMe(p) ? h("span", { class: "tag" }, _("you")) : null,
      bot ? h("span", { class: "tag bot", "data-tip": "text:" + _("Played by the server ({kind} bot).", { kind: seat.kind }) }, _("bot")) : null,
      pl.eliminated ? h("span", { class: "tag" }, _("out")) : null),
    h("div", { class: "stats" },
      inTeam ? null : stat("gp", hidden ? "text:" + _("Gold (GP): hidden from you until the end of the game.") : "unit:gp", hidden ? "?" : pl.gp, ""),
      stat("metro", "text:" + (teams ? _("Metropolises: {n} of the {goal} that win (the team's together).", { n: pl.metropolises, goal: mode.goal })
        : _("Metropolises: {n} of the {goal} that win.", { n: pl.metropolises, goal: mode.goal })), pl.metropolises, ""),
      stat("priestess", "unit:priestess", pl.priestesses, ""),
      stat("philosopher", "unit:philosopher", pl.philosophers, ""),
      stat("troop", "unit:troop", pl.troops_in_reserve, ""),
      stat("fleet", "unit:fleet", pl.fleets_in_reserve, "")),
    h("div", { class: "cards" }, h("span", { class: "blds" }, buildings),
      (pl.heroes || []).map((x) => h("span", { class: "mini hero-mini", "data-tip": `hero:${x}` }, "★", cardName(x))),
      (pl.creatures || []).map((x) => h("span", { class: "mini creature-mini", "data-tip": `creature:${x}` }, cardName(x)))));
  };
  const players = v.players || [];
  if (!teams) {
    el.classList.remove("teamed");
    el.style.setProperty("--cols", players.length);
    el.replaceChildren(...players.map((pl) => card(pl, false)));
    return;
  }
  const groups = [];
  teams.forEach((t, p) => {
    if (!groups[t]) groups[t] = [];
    if (players[p]) groups[t].push(players[p]);
  });
  el.classList.add("teamed");
  el.style.setProperty("--cols", players.length);
  const people = (st.seats || []).length;
  el.replaceChildren(...groups.filter(Boolean).map((members, t) => {
    const purse = members.map((pl) => pl.gp).find((x) => x !== null && x !== undefined);
    const metros = members.reduce((n, pl) => n + (pl.metropolises || 0), 0);
    const person = people && people < players.length ? seatName(st.seats, members[0].index).replace(/ \(A\)$/, "") : null;
    return h("section", { class: "team", "data-team": t, style: { "--span": members.length } },
      h("header", { class: "team-head" },
        h("span", { class: "team-name" }, person ? _("{name}'s factions", { name: person }) : _("Team {n}", { n: t + 1 })),
        h("span", { class: "stat gp", "data-tip": "text:" + (purse === undefined ? _("The team's shared purse: hidden from you until the end of the game.") : _("The team's shared purse: partners pay offerings and actions from the same GP.")) },
          h("i", { class: "icon gp" }), h("b", {}, purse === undefined ? "?" : purse), h("small", {}, " " + _("GP shared"))),
        h("span", { class: "stat metro", "data-tip": "text:" + _("Metropolises of the team: {n} of {goal}.", { n: metros, goal: mode.goal }) }, h("i", { class: "icon metro" }), h("b", {}, metros), h("small", {}, `/${mode.goal}`))),
      h("div", { class: "team-members" }, members.map((pl) => card(pl, true))));
  }));
}

function renderActions(v) {
  const el = $("act");
  const legal = st.legal;
  const parts = [];
  if (v.over) {
    parts.push(h("h2", {}, _("Game over")), h("button", { class: "primary", onclick: () => showResult(v, true) }, _("Show the result")));
    el.replaceChildren(...parts);
    el.classList.remove("idle");
    return;
  }
  if (!isMe(v.to_move) || !legal.length) {
    const p = v.to_move;
    parts.push(h("h2", {}, st.seat === null ? _("Spectating") : _("Not your move")));
    if (p !== null && p !== undefined) {
      parts.push(h("p", { class: "waiting", id: "waiting" }, chip(p, st.seats, ""), " ", st.waiting));
    }
    el.replaceChildren(...parts);
    el.classList.remove("your-move");
    el.classList.add("idle"); // on a phone the status line above the map says the same
    return;
  }
  el.classList.add("your-move");
  el.classList.remove("idle");
  const dec = v.decision || {};
  parts.push(h("h2", {}, _("Your move"), hintButton()));
  parts.push(h("p", { class: "prompt" }, st.waiting));
  const hint = currentHint();
  if (hint) parts.push(h("p", { class: "hint-reason", id: "hint-reason", role: "status" }, h("b", {}, _("Hint:")), " ", hint.reason));

  const battle = legal.filter((a) => BATTLE_KINDS.has(a.kind));
  const bids = legal.filter((a) => BID_KINDS.has(a.kind));
  const onMap = legal.filter((a) => areaOf(a) && !BATTLE_KINDS.has(a.kind));
  const takes = legal.filter((a) => a.kind === "take");
  const rest = legal.filter((a) => !areaOf(a) && !BATTLE_KINDS.has(a.kind) && !BID_KINDS.has(a.kind) && a.kind !== "take");

  if (battle.length) parts.push(battleDialog(v, dec, battle));
  if (bids.length) {
    const gods = [...new Set(bids.map((a) => (a.kind === "apollo" ? "apollo" : a.what)))];
    parts.push(h("p", { class: "hint" }, _("Click a god on the auction board, then choose your offering.")));
    parts.push(h("div", { class: "buttons" }, gods.map((g) => h("button", {
      class: "god-button", "data-god": g, style: { "--gc": (GODS[g] || {}).colour || "#777" },
      onclick: (ev) => onGodClick(g, ev),
    }, godName(g)))));
  }
  if (onMap.length) {
    parts.push(h("p", { class: "hint" }, _("Click a highlighted area on the map ({n} to choose from).", { n: new Set(onMap.map((a) => a.where)).size })));
    parts.push(h("details", { class: "map-list" }, h("summary", {}, _("…or pick from a list")),
      h("div", { class: "buttons column" }, onMap.map((a) => actionButton(a)))));
  }
  if (takes.length) {
    const unit = takes[0].what;
    const many = unitWords(unit)[1];
    parts.push(h("p", { class: "hint" }, dec.origin ? _("How many {units} do you take from {area}?", { units: many, area: areaName(dec.origin) })
      : _("How many {units} do you take?", { units: many })));
    parts.push(h("div", { class: "amounts" }, takes.map((a) => h("button", { class: `amount${isHinted(a) ? " hinted" : ""}`, title: label(a), "data-action": "take", "data-amount": a.n || 0, onclick: () => send(a) }, a.n || 0))));
  }
  if (rest.length) parts.push(h("div", { class: "buttons" }, rest.map((a) => actionButton(a))));
  parts.push(undoRow(), sinceBox());
  el.replaceChildren(...parts.filter(Boolean));
  showHint();
}

// --- undo, as at a real table: back through this turn's decisions until one showed something
// (a die, a card, a peek) or another player played; then the button says why ---------------------

function undoRow() {
  const u = st.undo;
  if (!u || !st.token) return null;
  const can = u.steps > 0;
  if (!can && (u.reason === "other" || u.reason === "start")) return null; // nothing done this turn yet
  return h("div", { class: "undo-row" },
    h("button", {
      type: "button", id: "undo", class: "secondary undo", disabled: !can || st.undoing,
      title: can ? _("Take back your last decision (Ctrl+Z)") : u.text, onclick: undo,
    }, "↶ " + _("Undo")),
    can ? null : h("small", { class: "undo-why", id: "undo-why" }, u.text));
}

async function undo() {
  if (!st.undo || st.undo.steps < 1 || st.undoing || st.sending) return;
  st.undoing = true;
  closePopup();
  document.body.classList.add("sending");
  try {
    await api("POST", `/api/games/${encodeURIComponent(st.gid)}/undo`, { token: st.token, version: st.version });
    if (!st.ws || st.ws.readyState !== WebSocket.OPEN) applyFull(await api("GET", stateUrl()));
  } catch (e) {
    showToast(e.message);
  } finally {
    st.undoing = false;
    document.body.classList.remove("sending");
    render();
  }
}

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
  if (document.querySelector("#confirm-dialog")) return;
  const z = (ev.ctrlKey || ev.metaKey) && !ev.shiftKey && (ev.key === "z" || ev.key === "Z");
  if ((z || ev.key === "Backspace") && st.undo && st.undo.steps > 0 && isMe(st.view && st.view.to_move)) {
    ev.preventDefault();
    undo();
  }
});

// "Since your last move": what the others did meanwhile, from the log.
function sinceBox() {
  const s = st.since;
  if (!s || s.first_move || !s.decisions) return null;
  const lines = logLines(s.from, s.to);
  const n = s.decisions;
  // With the lines, no count: a move's several decisions (from, to, how many) are one line, and
  // "10 decisions" above 6 lines reads as lines missing.
  const shown = lines && lines.length;
  return h("details", { class: "since", id: "since", open: true },
    h("summary", {}, shown ? _("Since your last move")
      : ngettext("Since your last move ({n} decision by the others)", "Since your last move ({n} decisions by the others)", n)),
    shown ? h("ol", { class: "since-lines" }, lines.map((l) => h("li", {}, inColours(l))))
      : h("p", { class: "muted" }, _("Read it in the Chronicle.")));
}

// --- the hint: the expert level's choice for this decision (POST /api/games/{id}/hint) ---------

function ensureHintStyles() {
  if (document.querySelector("link[data-advice-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/advice.css", "data-advice-css": "1" }));
}

function currentHint() {
  return st.hint && st.hint.version === st.version && st.hint.gid === st.gid ? st.hint : null;
}

function isHinted(a) {
  const hint = currentHint();
  if (!hint || !a) return false;
  const x = hint.action;
  return a.kind === x.kind && (a.what || "") === (x.what || "") && (a.where || "") === (x.where || "") && (a.n || 0) === (x.n || 0);
}

function hintButton() {
  if (!st.token) return null;
  ensureHintStyles();
  return h("button", {
    type: "button", id: "hint-button", class: "hint-button secondary", disabled: st.hinting || !!currentHint(),
    title: _("What would the expert bot play here, and why? (from what you can see only)"),
    onclick: askHint,
  }, st.hinting ? _("Thinking…") : _("Hint"));
}

async function askHint() {
  if (st.hinting || currentHint()) return;
  st.hinting = true;
  const version = st.version;
  render();
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(st.gid)}/hint`, { token: st.token, version });
    st.hint = { ...r, gid: st.gid, version: r.version };
  } catch (e) {
    showToast(_("No hint: {reason}", { reason: e.message }));
  } finally {
    st.hinting = false;
    render();
  }
}

// The hinted choice wears the legal choices' highlight, pulsing: its button, its area on the
// map, its god on the auction board, its card on a track.
function showHint() {
  const hint = currentHint();
  if (!hint) return;
  const a = hint.action;
  const mark = (el) => el && el.classList.add("hinted");
  if (a.kind === "bid" || a.kind === "apollo") {
    const god = a.kind === "apollo" ? "apollo" : a.what;
    document.querySelectorAll(`#act .god-button[data-god="${god}"], #auction li.god[data-god="${god}"]`).forEach(mark);
  }
  if (a.what && CARD_KINDS.has(a.kind)) document.querySelectorAll(`#tracks li.card[data-card="${a.what}"]`).forEach(mark);
  if (a.where && st.board) {
    const area = st.board.areaEls.get(a.where);
    if (area) {
      const ring = document.createElementNS("http://www.w3.org/2000/svg", "path");
      ring.setAttribute("d", area.getAttribute("d"));
      ring.setAttribute("class", "mark legal-ring hint-ring");
      ring.setAttribute("data-area", a.where);
      st.board.marks.append(ring);
    }
  }
}

function actionButton(a) {
  const cls = a.kind === "end_turn" ? "primary" : a.kind === "cancel" ? "secondary" : "";
  return h("button", {
    class: `action ${cls}${isHinted(a) ? " hinted" : ""}`, "data-kind": a.kind, "data-where": a.where || null,
    "data-what": a.what || null, "data-n": a.n || null, onclick: () => send(a),
  }, label(a));
}

function capital(t) {
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

function battleDialog(v, dec, acts) {
  const where = dec.area ? areaName(dec.area) : "";
  const att = dec.attacker;
  const dfd = dec.defender;
  const lastRound = [...st.log].reverse().find((l) => isFightLine(l));
  const loss = acts.filter((a) => a.kind === "lose" || a.kind === "lose_hero");
  const retreat = acts.filter((a) => a.kind === "retreat");
  const hold = acts.filter((a) => a.kind === "hold");
  return h("div", { class: "battle-dialog", role: "dialog", "aria-label": _("Battle") },
    h("div", { class: "battle-title" }, "⚔ ", !where ? _("Battle") : isLand(dec.area) ? _("Battle on {area}", { area: where }) : _("Battle in {area}", { area: where }),
      dec.round ? h("small", {}, " · " + _("round {n}", { n: dec.round })) : null),
    att !== undefined && dfd !== undefined ? h("div", { class: "battle-sides" },
      h("div", {}, chip(att, st.seats), " ", _("attacks with {forces}", { forces: forces(dec.attacker_troops, dec.attacker_mercenaries, dec.attacker_heroes, dec.attacker_fleets) })),
      h("div", {}, chip(dfd, st.seats), " ", _("defends with {forces}", { forces: defenders(v, dec.area) }))) : null,
    lastRound ? h("div", { class: "battle-last" }, lastRound) : null,
    loss.length ? h("p", {}, _("You lost this round: choose which unit to remove.")) : null,
    loss.length ? h("div", { class: "buttons" }, loss.map((a) => actionButton(a))) : null,
    retreat.length || hold.length ? h("p", {}, retreat.length ? _("Retreat (click a highlighted area or a button), or fight on:") : _("Fight on:")) : null,
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
  if (!parts.length) return _("nothing");
  return listing(parts);
}

function defenders(v, area) {
  const a = (v.areas || []).find((x) => x.id === area) || {};
  return forces(a.troops, a.mercs, a.heroes, a.fleets);
}

// A log line with the players' names in their colours.
function inColours(text) {
  const names = ((st.view && st.view.players) || []).map((pl) => [pname(pl.index), pl.index]).sort((a, b) => b[0].length - a[0].length);
  if (!names.length) return [text];
  const re = new RegExp("(" + names.map(([n]) => escapeRegExp(n)).join("|") + ")");
  const who = Object.fromEntries(names);
  return text.split(re).map((part, i) => (i % 2 ? h("span", { class: "who", style: { "--pc": colour(who[part]) } }, part) : part));
}

function renderLog() {
  const el = $("log");
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  const lines = st.log.slice(-300);
  el.replaceChildren(...lines.map((l) => h("li", { class: logKind(l) }, inColours(l))));
  if (!lines.length) el.replaceChildren(h("li", { class: "empty" }, _("What happens in the game is told here, from the first move on.")));
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
      h("td", {}, winners.includes(p) ? h("span", { class: "laurel" }, "★ " + _("winner")) : (r.eliminated || [])[p] ? _("eliminated") : ""));
  });
  const names = winners.map(pname);
  const title = !winners.length ? _("The game is over") : winners.length === 1
    ? (isMe(winners[0]) ? _("You win!") : _("{name} wins!", { name: names[0] }))
    : _("Shared victory: {names}", { names: listing(names) });
  const cycles = r.cycles ?? v.cycle;
  el.replaceChildren(h("div", { class: "result-card", role: "dialog", "aria-label": _("Result") },
    h("h2", {}, title),
    h("p", {}, r.cycle_limit ? ngettext("After {n} cycle (the cycle limit was reached).", "After {n} cycles (the cycle limit was reached).", cycles)
      : ngettext("After {n} cycle.", "After {n} cycles.", cycles)),
    h("table", { class: "result-table" },
      h("thead", {}, h("tr", {}, h("th", {}, _("Player")), h("th", {}, _("Metropolises")), h("th", {}, _("GP")), h("th", {}, ""))),
      h("tbody", {}, rows)),
    h("div", { class: "buttons" },
      h("button", { class: "secondary", onclick: () => (el.hidden = true) }, _("Look at the board")),
      h("a", { class: "button primary", href: "/" }, _("Back to the lobby")))));
  endScreen(el.firstChild, { gid: st.gid, token: st.token, seat: st.seat, seats: st.seats, view: v });
  ratingMoved(el.firstChild, st.gid); // logged in, a rated game: how it moved my rating
  el.hidden = !open;
}

// --- what an area holds, explained (hover on the map, or tap) ---------------------------------

function areaInfo(id) {
  const v = st.view;
  if (!v || !st.board) return null;
  const geo = st.board.areas.get(id);
  const a = (v.areas || []).find((x) => x.id === id);
  if (!geo || !a) return null;
  const land = geo.kind === "land";
  const lines = [];
  const line = (key, text) => {
    const t = key ? tipInfo(key) : null;
    lines.push(h("li", {}, h("b", {}, text), t && (t.text || t.rows) ? h("span", {}, " — ", t.text || t.rows.map((r) => r.text).join(" ")) : null));
  };
  if (land) {
    if (a.troops) line("unit:troop", ngettext("{n} Troop", "{n} Troops", a.troops));
    if (a.mercs) line("unit:merc", ngettext("{n} mercenary", "{n} mercenaries", a.mercs));
    for (const x of a.heroes || []) line(`hero:${x}`, `★ ${cardName(x)}`);
    for (const b of a.buildings || []) if (b) line(`building:${b}`, BUILDINGS[b] ? BUILDINGS[b].name : cardName(b));
    const sites = (a.buildings || []).filter((b) => !b).length;
    if (sites) line(null, ngettext("{n} free building site", "{n} free building sites", sites));
    for (const b of a.metropolis_bonuses || []) {
      const bonus = Array.isArray(b) ? b[b.length - 1] : b;
      if (typeof bonus === "string") line(`bonus:${bonus}`, _("Metropolis bonus: {name}", { name: (tipInfo(`bonus:${bonus}`) || { name: cardName(bonus) }).name }));
    }
    if (a.owner >= 0 && !a.troops && !a.mercs && !(a.heroes || []).length) line("unit:control", _("Control token"));
  } else if (a.fleets) line("unit:fleet", ngettext("{n} Fleet", "{n} Fleets", a.fleets));
  for (const c of a.creatures || []) {
    const card = (v.miniatures && v.miniatures[c] && v.miniatures[c].card) || c;
    line(`creature:${card}`, cardName(c));
  }
  if (geo.cornucopias) line("unit:cornucopia", _("Printed Cornucopia: +{n} GP", { n: geo.cornucopias }));
  if (a.prosperity) line("unit:prosperity", _("Prosperity: +{n} GP", { n: a.prosperity }));
  if (a.geryon_gp) line(null, _("{n} GP left by Geryon", { n: a.geryon_gp }));
  if (geo.priestess) line(null, _("Priestess icon: whoever takes it gains a Priestess"));
  if (geo.volcano) line(null, _("Volcano"));
  const owner = a.owner >= 0 ? chip(a.owner, st.seats) : null;
  return h("div", { class: "tip-body area-tip" },
    h("div", { class: "tip-head" }, h("b", {}, geo.name), h("small", {}, " · " + (land ? _("Land Area") : _("Sea Area")))),
    h("p", {}, owner ? [_("Controlled by"), " ", owner] : _("Controlled by nobody")),
    lines.length ? h("ul", {}, lines) : null);
}

function installScreen() {
  document.head.append(h("link", { rel: "stylesheet", href: "/static/play.css" }));
  document.querySelector(".board-wrap").append(h("div", { id: "anim-stage", class: "anim-stage" }), speedControl(anim));
  installTips();
  setAreaTip(areaInfo);
  unlockAudio();
  const sound = $("sound");
  const showSound = () => {
    const on = soundOn();
    sound.textContent = on ? _("♪ on") : _("♪ off");
    sound.setAttribute("aria-pressed", on ? "true" : "false");
    sound.setAttribute("aria-label", on ? _("Sound on: turn it off") : _("Sound off: turn it on"));
  };
  sound.addEventListener("click", () => {
    setSound(!soundOn());
    showSound();
  });
  showSound();
  // Zoom the map (shown on small screens, where the whole board is small): the map then
  // scrolls inside its frame, never the page.
  const zooms = [1, 1.6, 2.4];
  let z = 0;
  const zoom = (d) => {
    z = Math.max(0, Math.min(zooms.length - 1, z + d));
    $("board").style.setProperty("--zoom", zooms[z]);
    $("zoom-in").disabled = z === zooms.length - 1;
    $("zoom-out").disabled = z === 0;
    if (st.board) st.board.fitLabels();
  };
  $("zoom-in").addEventListener("click", () => zoom(1));
  $("zoom-out").addEventListener("click", () => zoom(-1));
  zoom(0);
  const logTitle = document.querySelector("#log-panel h2");
  if (logTitle) logTitle.addEventListener("click", () => togglePanel("log-panel"));
  // On a phone the chronicle starts folded: the board and the decision come first.
  if (window.matchMedia("(max-width: 820px)").matches) {
    st.collapsed["log-panel"] = true;
    $("log-panel").classList.add("collapsed");
  }
}

installScreen();
start();
