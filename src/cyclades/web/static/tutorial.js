// Learn the game from the screen, for the game page (game.js calls two hooks):
// - the guided first game: when the game is a lesson (POST /api/tutorial), a panel says what
//   to do and why, the element to click pulses, and any other click only gets a gentle hint;
// - "Ask before ending my turn": a setting kept in localStorage; when on, a choice that hands
//   the decision to someone else (End your turn, an offering...) asks "End your turn?" first.
import { _, actionLabel, api, h, sameAction } from "./common.js";

const CONFIRM_KEY = "cyclades.confirmEndTurn";
const KEYS = ["kind", "what", "where", "n"];

let st = null; // game.js's state (window.cyclades)
let tut = null; // the lesson and the progress (GET /api/tutorial/games/{id}), or null
let tutVersion = -2; // the game version the progress was fetched for
let hint = "";
let lastStepShown = -1;
let asking = false; // a confirmation is open

const $ = (id) => document.getElementById(id);
const mine = () => st && st.view && st.seat !== null && st.seat !== undefined && st.view.to_move === st.seat;
const gid = () => encodeURIComponent(st.gid);

export function matches(a, expect) {
  return KEYS.every((k) => !(k in expect) || (a[k] ?? (k === "n" ? 0 : "")) === expect[k]);
}

function expected() {
  if (!tut || tut.complete || tut.off_script || !mine() || tutVersion !== st.version) return null;
  const step = tut.steps[tut.step];
  return step ? step.expect : null;
}

function confirmWanted() {
  try {
    return localStorage.getItem(CONFIRM_KEY) === "1";
  } catch (e) {
    return false;
  }
}

function setConfirmWanted(on) {
  try {
    localStorage.setItem(CONFIRM_KEY, on ? "1" : "0");
  } catch (e) { /* private mode: the setting lasts this page only */ }
}

// --- hooks for game.js ------------------------------------------------------------------

// Before a decision is sent: false keeps it back (not the lesson's step; or the person did not
// confirm the end of their turn).
export async function beforeSend(action, state) {
  st = state;
  if (asking) return false;
  if (tut && tutVersion !== st.version) await refreshTutorial();
  const exp = expected();
  if (exp && action.kind !== "cancel" && !matches(action, exp)) {
    hint = _("Not that one this time.") + " " + tut.steps[tut.step].say;
    renderPanel(true);
    return false;
  }
  if (!confirmWanted()) return true;
  let ends = action.kind === "end_turn";
  if (!ends) {
    try {
      const r = await api("POST", `/api/games/${gid()}/ends-turn`, {
        token: st.token, version: st.version, action: bare(action),
      });
      ends = !!r.ends_turn;
    } catch (e) {
      ends = false;
    }
  }
  if (!ends) return true;
  return ask(action);
}

// After every render of the page.
export function afterRender(state) {
  st = state;
  installOnce();
  decorateActions();
  if (st.seat === null || st.seat === undefined) return; // spectators: no lesson panel
  if (tutVersion === -2 || (tut && st.version !== tutVersion)) refreshTutorial();
  renderPanel(false);
  highlight();
}

// --- the decision panel: the confirmation setting ----------------------------------------------

function bare(a) {
  const out = { kind: a.kind };
  if (a.what) out.what = a.what;
  if (a.where) out.where = a.where;
  if (a.n) out.n = a.n;
  return out;
}

function decorateActions() {
  const act = $("act");
  if (!act || !mine() || !st.legal.length) return;
  const box = h("input", { type: "checkbox", id: "confirm-end" });
  box.checked = confirmWanted();
  box.addEventListener("change", () => setConfirmWanted(box.checked));
  act.append(h("label", { class: "confirm-setting", for: "confirm-end" }, box, " ", _("Ask before ending my turn")));
}

function toast(text) {
  const t = $("toast");
  if (!t) return;
  t.textContent = text;
  t.hidden = false;
  setTimeout(() => (t.hidden = true), 5000);
}

// "End your turn?": a small dialog; Enter confirms, Escape keeps playing.
function ask(action) {
  asking = true;
  return new Promise((resolve) => {
    const done = (yes) => {
      asking = false;
      document.removeEventListener("keydown", onKey, true);
      dlg.remove();
      resolve(yes);
    };
    const onKey = (ev) => {
      if (ev.key === "Escape") { ev.preventDefault(); ev.stopPropagation(); done(false); }
      if (ev.key === "Enter") { ev.preventDefault(); ev.stopPropagation(); done(true); }
    };
    const what = action.kind === "end_turn" ? "" : actionLabel(action, (x) => (st.board ? st.board.name(x) : x));
    const yes = h("button", { class: "primary", id: "confirm-yes", type: "button", onclick: () => done(true) }, _("End my turn"));
    const dlg = h("div", { class: "confirm-overlay", id: "confirm-dialog" },
      h("div", { class: "confirm-card", role: "alertdialog", "aria-label": _("End your turn?") },
        h("h2", {}, _("End your turn?")),
        h("p", {}, what ? _("After this choice ({action}) the others play.", { action: what }) : _("After this choice the others play.")),
        h("div", { class: "buttons" }, yes,
          h("button", { class: "secondary", id: "confirm-no", type: "button", onclick: () => done(false) }, _("Keep playing"))),
        h("label", { class: "confirm-setting" },
          h("input", { type: "checkbox", checked: true, onchange: (ev) => setConfirmWanted(ev.target.checked) }),
          " ", _("Ask before ending my turn"))));
    document.addEventListener("keydown", onKey, true);
    document.body.append(dlg);
    yes.focus();
  });
}

// --- the lesson ------------------------------------------------------------------------------

let pending = null;
function refreshTutorial() {
  if (!pending) pending = fetchTutorial().finally(() => (pending = null));
  return pending;
}

async function fetchTutorial() {
  for (let tries = 0; tries < 5; tries++) {
    const version = st.version;
    try {
      const q = st.token ? `?token=${encodeURIComponent(st.token)}` : "";
      const r = await api("GET", `/api/tutorial/games/${gid()}${q}`);
      tut = r.tutorial;
      tutVersion = tut ? tut.version : version;
      if (tut && tut.step !== lastStepShown) hint = "";
    } catch (e) {
      tutVersion = version;
    }
    if (!tut || st.version === tutVersion) break; // else the game moved on meanwhile
  }
  renderPanel(false);
  highlight();
}

function panel() {
  let el = $("tutorial");
  if (!el) {
    el = h("section", { id: "tutorial", class: "panel tutorial", role: "region", "aria-label": _("Tutorial"), "aria-live": "polite" });
    const act = $("act");
    if (act && act.parentNode) act.parentNode.insertBefore(el, act);
    else document.body.append(el);
    document.body.classList.add("has-tutorial");
  }
  return el;
}

function renderPanel(shake) {
  if (!tut) return;
  const el = panel();
  const n = tut.steps.length;
  const k = Math.min(tut.step, n);
  const parts = [h("header", { class: "tut-head" },
    h("span", { class: "tut-badge" }, _("Lesson {number} of {count}", { number: tut.number, count: tut.count })),
    h("strong", { class: "tut-title" }, tut.title),
    h("button", {
      class: "small secondary tut-fold", type: "button", "aria-expanded": el.classList.contains("folded") ? "false" : "true",
      title: _("Fold or unfold the lesson"), onclick: () => { el.classList.toggle("folded"); renderPanel(false); },
    }, el.classList.contains("folded") ? "▴" : "▾"))];
  parts.push(h("div", { class: "tut-bar", role: "progressbar", "aria-label": _("Steps of this lesson done"), "aria-valuemin": 0, "aria-valuemax": n, "aria-valuenow": k },
    h("i", { style: { width: `${Math.round((100 * k) / n)}%` } })));
  if (tut.off_script) {
    parts.push(h("p", { class: "tut-say" }, _("This game has left the lesson's path. Start the lesson again to follow it.")),
      h("div", { class: "buttons" }, restartButton(_("Start the lesson again"), "primary")));
  } else if (tut.complete) {
    parts.push(h("p", { class: "tut-say tut-done" }, "✔ ", tut.done));
    parts.push(h("div", { class: "buttons" },
      tut.next ? lessonButton(tut.next, _("Next lesson →"), "primary tut-next")
        : h("a", { class: "button primary tut-next", href: "/" }, _("Play a real game")),
      restartButton("Again", "secondary")));
  } else {
    if (k === 0 && tut.intro) parts.push(h("p", { class: "tut-intro" }, tut.intro));
    const step = tut.steps[k];
    if (mine()) {
      parts.push(h("p", { class: "tut-say" }, h("span", { class: "tut-step" }, _("Step {k} of {n}", { k: k + 1, n })), step.say));
    } else {
      parts.push(h("p", { class: "tut-say tut-wait" }, _("The others are playing: watch the board…")));
    }
    if (hint && mine()) parts.push(h("p", { class: "tut-hint", role: "status" }, hint));
  }
  el.replaceChildren(...parts);
  if (shake) {
    el.classList.remove("shake");
    void el.offsetWidth; // restart the animation
    el.classList.add("shake");
  }
}

function lessonButton(id, text, cls) {
  return h("button", { class: cls, type: "button", onclick: () => startLesson(id) }, text);
}

function restartButton(text, cls) {
  return lessonButton(tut.id, text, cls);
}

async function startLesson(id) {
  try {
    const r = await api("POST", "/api/tutorial", { lesson: id });
    location.href = r.url;
  } catch (e) {
    toast(e.message);
  }
}

// --- what to click: a pulsing outline ---------------------------------------------------------

function clearHighlight() {
  document.querySelectorAll(".tut-target").forEach((e) => e.classList.remove("tut-target"));
  document.querySelectorAll("svg .tut-ring").forEach((e) => e.remove());
}

function targets(exp) {
  const action = st.legal.find((a) => matches(a, exp));
  if (!action) return [];
  const pop = $("popup");
  const popupOpen = pop && !pop.hidden;
  if (action.kind === "bid") {
    if (popupOpen) {
      const b = pop.querySelector(`.amount[data-amount="${action.n}"]`);
      if (b) return [b];
    }
    return [...document.querySelectorAll(`#auction .god[data-god="${action.what}"], #act .god-button[data-god="${action.what}"]`)];
  }
  if (action.kind === "apollo" || action.where) {
    if (popupOpen) {
      const legal = (st.legal || []).find((a) => sameAction(a, action)) || action; // with its words
      const text = actionLabel(legal, (x) => (st.board ? st.board.name(x) : x));
      const b = [...pop.querySelectorAll(".popup-item")].find((x) => x.textContent.trim() === text);
      if (b) return [b];
    }
    if (action.kind === "apollo") return [...document.querySelectorAll('#auction .god[data-god="apollo"], #act .god-button[data-god="apollo"]')];
    const battle = document.querySelector(`#act .battle-dialog button.action[data-kind="${action.kind}"][data-where="${action.where}"]`);
    return battle ? [battle, { area: action.where }] : [{ area: action.where }];
  }
  if (action.kind === "take") {
    return [...document.querySelectorAll(`#act button[data-action="take"][data-amount="${action.n || 0}"]`)];
  }
  return [...document.querySelectorAll(`#act button.action[data-kind="${action.kind}"]`)]
    .filter((b) => !b.closest("details") && (b.dataset.what || "") === (action.what || "") && Number(b.dataset.n || 0) === (action.n || 0));
}

function highlight() {
  clearHighlight();
  const exp = expected();
  if (!exp) return;
  const found = targets(exp);
  let first = null;
  for (const t of found) {
    if (t.area) {
      const svg = $("board");
      const area = svg && svg.querySelector(`path.area[data-area="${CSS.escape(t.area)}"]`);
      if (!area) continue;
      const ring = document.createElementNS("http://www.w3.org/2000/svg", "path");
      ring.setAttribute("d", area.getAttribute("d"));
      ring.setAttribute("class", "tut-ring");
      ring.setAttribute("data-area", t.area);
      svg.append(ring);
      first = first || area;
    } else {
      t.classList.add("tut-target");
      first = first || t;
    }
  }
  if (first && tut.step !== lastStepShown) {
    lastStepShown = tut.step;
    const r = first.getBoundingClientRect();
    const sheet = $("tutorial");
    const bottom = sheet && getComputedStyle(sheet).position === "fixed" ? sheet.getBoundingClientRect().top : window.innerHeight;
    if (r.top < 0 || r.bottom > bottom) first.scrollIntoView({ block: "center", inline: "nearest" });
  }
}

// --- once --------------------------------------------------------------------------------------

let installed = false;
function installOnce() {
  if (installed) return;
  installed = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/tutorial.css" }));
  const pop = $("popup");
  if (pop) new MutationObserver(() => highlight()).observe(pop, { attributes: true, childList: true });
}
