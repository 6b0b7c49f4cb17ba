// Shared helpers for the lobby and the game page: words, names, colours, labels, HTTP.
// Plain ES module, no dependencies.

// --- words: every one from the server's catalog --------------------------------------------------
// Each page loads /strings/{lang}.js first (server/i18n.py): the catalog's messages of these
// scripts in the page's language, and the names of gods, cards and pieces. `_("Offer {n} GP",
// {n: 3})` is a message in that language with its {placeholders} filled; the English message is
// its own key (the catalog's message id), so a message the catalog lacks reads in English.
const STRINGS = globalThis.CYCLADES_STRINGS || { lang: "en", messages: {}, names: {} };
export const LANG = STRINGS.lang || "en";

// French glues a word to a placeholder as it writes it (content/i18n.py `seam`): "de" + "Anafi"
// is "d'Anafi", "de" + "le Kraken" "du Kraken", "à" + "le Sphinx" "au Sphinx".
const ELIDES = /^(?!h(?:éros|arpie|asard|aut|ors|uit))(?:[aeiouyàâäéèêëîïôöùûüœæ]|h[aeiouyàâäéèêëîïôöùûüœæ])/i;
const CONTRACTED = { "de le ": "du ", "de les ": "des ", "à le ": "au ", "à les ": "aux " };
function seam(before, word) {
  const m = /(^|[^\p{L}\p{N}_'’])(de|De|à|À|que|Que) $/u.exec(before);
  if (!m || LANG !== "fr") return before + word;
  const head = before.slice(0, m.index + m[1].length);
  const glue = m[2];
  for (const article of ["le ", "les "]) {
    const form = CONTRACTED[glue.toLowerCase() + " " + article];
    if (form && word.startsWith(article)) {
      return head + (glue[0] === glue[0].toUpperCase() ? form[0].toUpperCase() + form.slice(1) : form) + word.slice(article.length);
    }
  }
  if (["de", "que"].includes(glue.toLowerCase()) && ELIDES.test(word)) return head + glue.slice(0, -1) + "'" + word;
  return before + word;
}

function fill(text, params) {
  if (!params) return text;
  let out = "";
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const before = out + text.slice(last, m.index);
    out = m[1] in params ? seam(before, String(params[m[1]])) : before + m[0];
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

export function _(message, params) {
  const t = STRINGS.messages[message];
  return fill(typeof t === "string" && t ? t : message, params);
}

// The form of `n` ({n} filled): French counts 0 and 1 as one, English only 1.
export function ngettext(one, many, n, params) {
  const forms = STRINGS.messages[one];
  const k = LANG === "fr" ? (n > 1 ? 1 : 0) : (n === 1 ? 0 : 1);
  const text = Array.isArray(forms) && forms[k] ? forms[k] : (k === 0 ? one : many);
  return fill(text, { n, ...(params || {}) });
}

export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// The log's lines of a new cycle and of battles, told apart in the page's language (the
// server's sentences are the catalog's, so the catalog's words find them).
const CYCLE_LINE = new RegExp("^" + escapeRegExp(_("Cycle {n} begins")).replace("\\{n\\}", "\\d+"));
const FIGHT_WORDS = new RegExp([_("battle"), _("round")].map(escapeRegExp).join("|"), "i");
export function logKind(line) {
  return CYCLE_LINE.test(line) ? "cycle" : FIGHT_WORDS.test(line) ? "fight" : "";
}
export function isFightLine(line) {
  return FIGHT_WORDS.test(line);
}

// A list in the page's language: "a, b and c".
export function listing(items) {
  const xs = items.filter((x) => x !== "" && x !== null && x !== undefined).map(String);
  if (xs.length <= 1) return xs.join("");
  return _("{items} and {last}", { items: xs.slice(0, -1).join(", "), last: xs[xs.length - 1] });
}

// Player colours, chosen to stand out on a blue sea (no blue player) and from each other for
// colour-blind players too (checked under simulated protanopia, deuteranopia and tritanopia by
// tests/web/test_faction_colours.py); each faction also has a shape of its own (FACTION_SHAPES).
export const PLAYER_COLOURS = ["#e41b0b", "#debd03", "#2da466", "#24242c", "#b512dc", "#5a3c20"];
export const PLAYER_COLOUR_NAMES = [_("red"), _("yellow"), _("green"), _("black"), _("purple"), _("brown")];
export const PLAYER_INK = ["#fff", "#1a1a1a", "#1a1a1a", "#fff", "#fff", "#fff"]; // text on the colour
export const FACTION_SHAPES = ["circle", "triangle", "square", "diamond", "cross", "down"];

// A faction's shape as an SVG path of radius r about (0, 0): the plate of its pieces.
export function factionShapePath(p, r) {
  const shape = FACTION_SHAPES[(p >= 0 ? p : 0) % FACTION_SHAPES.length];
  const f = (x) => Math.round(x * 100) / 100;
  const poly = (pts) => "M" + pts.map(([x, y]) => `${f(x * r)},${f(y * r)}`).join("L") + "Z";
  switch (shape) {
    case "triangle": return poly([[0, -1.25], [1.2, 0.85], [-1.2, 0.85]]);
    case "down": return poly([[-1.2, -0.85], [1.2, -0.85], [0, 1.25]]);
    case "square": return poly([[-0.9, -0.9], [0.9, -0.9], [0.9, 0.9], [-0.9, 0.9]]);
    case "diamond": return poly([[0, -1.2], [1.2, 0], [0, 1.2], [-1.2, 0]]);
    case "cross": {
      const a = 0.42;
      return poly([[-a, -1.05], [a, -1.05], [a, -a], [1.05, -a], [1.05, a], [a, a], [a, 1.05], [-a, 1.05], [-a, a], [-1.05, a], [-1.05, -a], [-a, -a]]);
    }
    default: return `M${f(-r)},0A${f(r)},${f(r)} 0 1 0 ${f(r)},0A${f(r)},${f(r)} 0 1 0 ${f(-r)},0Z`;
  }
}

// The faction's shape in its colour, as a small inline picture for a page (chips, player cards).
export function factionMark(p, size = 12) {
  return svg("svg", { class: "faction-mark", viewBox: "-7 -7 14 14", width: size, height: size, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: factionShapePath(p, 5.2), fill: colour(p), stroke: ink(p) === "#fff" ? "#fff" : "#1a1a1a", "stroke-width": 1.2, "stroke-linejoin": "round" }));
}

// An SVG element: svg("path", {d: ...}, child, "text", ...).
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const NAMES = STRINGS.names || {};

export const GODS = {
  poseidon: { name: godName("poseidon"), colour: "#2f7fc1", gift: _("Port · Fleet · Sea Moves") },
  ares: { name: godName("ares"), colour: "#b83227", gift: _("Fortress · Troop · Land Moves") },
  zeus: { name: godName("zeus"), colour: "#c99a1e", gift: _("Temple · Priestess") },
  athena: { name: godName("athena"), colour: "#6f7f8f", gift: _("University · Philosopher") },
  hera: { name: godName("hera"), colour: "#9c4f96", gift: _("Any building · Mercenary") },
  apollo: { name: godName("apollo"), colour: "#e49b1a", gift: _("2 GP · Prosperity") },
};

// Each building's letter on the board: its name's first letter in the page's language.
function building(id, colour) {
  return { letter: initial(id), name: cardName(id), colour };
}

export const BUILDINGS = {
  port: building("port", "#2f7fc1"),
  fortress: building("fortress", "#b83227"),
  temple: building("temple", "#c99a1e"),
  university: building("university", "#6f7f8f"),
  metropolis: building("metropolis", "#7b3fa0"),
};

// A god's, card's, hero's, bonus's or building's name as a title, from the server (content/names.py).
export function cardName(id) {
  if (!id) return "";
  return (NAMES[id] && NAMES[id].title) || id.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

// Its first letter, on a medallion or a building (content/i18n.py initial).
export function initial(id) {
  return (NAMES[id] && NAMES[id].initial) || cardName(id)[0] || "";
}

// ... as a sentence names it ("the Kraken").
export function calledName(id) {
  return (NAMES[id] && NAMES[id].called) || cardName(id);
}

export function godName(id) {
  return cardName(id);
}

export function colour(p) {
  return p >= 0 ? PLAYER_COLOURS[p % PLAYER_COLOURS.length] : "#999";
}

export function ink(p) {
  return p >= 0 ? PLAYER_INK[p % PLAYER_INK.length] : "#000";
}

// A seat's display name: its chosen name, else "Player N" (as the server's log says).
export function seatName(seats, p) {
  // In the 2-player game a seat (a person) plays two factions (R22): "Ann (A)", "Ann (B)".
  const owner = Array.isArray(seats) && seats.find((x) => x && Array.isArray(x.factions) && x.factions.length > 1 && x.factions.includes(p));
  if (owner) {
    const k = owner.factions.indexOf(p);
    const person = owner.name || _("Player {n}", { n: owner.seat + 1 });
    return (owner.faction_names && owner.faction_names[k]) || `${person} (${"AB"[k]})`;
  }
  const s = seats && seats[p];
  if (s && s.name) return s.name;
  return _("Player {n}", { n: p + 1 });
}

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// Create an element: h("div", {class: "x", onclick: f}, child, "text", ...).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") {
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, val);
        else el.style[prop] = val;
      }
    }
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A small coloured disc naming a player.
export function chip(p, seats, text) {
  const name = seatName(seats, p);
  if (text === "") { // the faction's mark alone, named for a screen reader
    return h("span", { class: "chip-mark", title: name, role: "img", "aria-label": name, translate: "no" }, factionMark(p, 14));
  }
  // A player's name is theirs in every language (translate="no").
  return h("span", { class: "chip", style: { background: colour(p), color: ink(p) }, title: name, translate: text ? null : "no" },
    p >= 0 ? factionMark(p, 11) : null, text ?? name);
}

// A logged-in request that changes something carries the login's CSRF token (server/auth.py):
// the cyclades_csrf cookie, which only this site's pages can read.
export function csrfHeaders(method = "POST") {
  if (["GET", "HEAD", "OPTIONS"].includes(method)) return {};
  const m = document.cookie.match(/(?:^|;\s*)cyclades_csrf=([^;]+)/);
  return m ? { "X-CSRF-Token": decodeURIComponent(m[1]) } : {};
}

// A request of this page's, in the page's language: ?lang= (server/i18n.py reads it first), so a
// page opened by a link in a language, with no cookie, gets its labels, log and refusals in it.
export function inPageLanguage(path) {
  const u = new URL(path, location.href);
  if (!u.searchParams.has("lang")) u.searchParams.set("lang", LANG);
  return u.pathname + u.search + u.hash;
}

// A WebSocket of this server at `path`, in the page's language.
export function socketTo(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(`${proto}//${location.host}${inPageLanguage(path)}`);
}

export async function api(method, path, body) {
  const opts = { method, headers: csrfHeaders(method) };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(inPageLanguage(path), opts);
  } catch (e) {
    throw new ApiError(0, _("The server cannot be reached. Is it running?"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const detail = data && (data.detail ?? data.message);
    const msg = typeof detail === "string" ? detail : detail ? JSON.stringify(detail) : `HTTP ${res.status}`;
    throw new ApiError(res.status, msg);
  }
  return data;
}

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// The action as the engine's JSON has it: only kind, what, where, n (the server may
// add a "text" to each legal action; that is not part of the action).
export function bareAction(a) {
  const out = { kind: a.kind };
  if (a.what) out.what = a.what;
  if (a.where) out.where = a.where;
  if (a.n) out.n = a.n;
  return out;
}

export function sameAction(a, b) {
  return a.kind === b.kind && (a.what || "") === (b.what || "") && (a.where || "") === (b.where || "") && (a.n || 0) === (b.n || 0);
}

// An action's words come from the server (each legal action's `text`, the engine's sentence in
// the page's language); area ids in it are replaced by their printed names.
// areaName(id) -> printed name.
export function actionLabel(a, areaName = (x) => x) {
  let t = a.text || [a.kind, a.what, a.where, a.n].filter((x) => x !== undefined && x !== null && x !== "").join(" ");
  const where = a.where ? areaName(a.where) : "";
  if (a.where && where !== a.where) t = t.split(a.where).join(where);
  return t;
}

// The words for one and for several of a unit ("Troop", "Troops"), from the server.
export function unitWords(kind) {
  const n = NAMES[kind];
  return n && n.one ? [n.one, n.many] : [cardName(kind), cardName(kind)];
}
