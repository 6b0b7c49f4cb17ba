// Shared helpers for the lobby and the game page: names, colours, labels, HTTP.
// Plain ES module, no dependencies.

// Player colours, chosen to stand out on a blue sea (no blue player) and from each other for
// colour-blind players too (checked under simulated protanopia, deuteranopia and tritanopia by
// tests/test_faction_colours.py); each faction also has a shape of its own (FACTION_SHAPES).
export const PLAYER_COLOURS = ["#e41b0b", "#debd03", "#2da466", "#24242c", "#b512dc", "#5a3c20"];
export const PLAYER_COLOUR_NAMES = ["red", "yellow", "green", "black", "purple", "brown"];
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

export const GODS = {
  poseidon: { name: "Poseidon", colour: "#2f7fc1", gift: "Port · Fleet · Sea Moves" },
  ares: { name: "Ares", colour: "#b83227", gift: "Fortress · Troop · Land Moves" },
  zeus: { name: "Zeus", colour: "#c99a1e", gift: "Temple · Priestess" },
  athena: { name: "Athena", colour: "#6f7f8f", gift: "University · Philosopher" },
  hera: { name: "Hera", colour: "#9c4f96", gift: "Any building · Mercenary" },
  apollo: { name: "Apollo", colour: "#e49b1a", gift: "2 GP · Prosperity" },
};

export const BUILDINGS = {
  port: { letter: "P", name: "Port", colour: "#2f7fc1" },
  fortress: { letter: "F", name: "Fortress", colour: "#b83227" },
  temple: { letter: "T", name: "Temple", colour: "#c99a1e" },
  university: { letter: "U", name: "University", colour: "#6f7f8f" },
  metropolis: { letter: "M", name: "Metropolis", colour: "#7b3fa0" },
};

// Cards whose printed name is not the id in title case.
const CARD_NAMES = { "scylla-charybdis": "Scylla & Charybdis", "calydonian-boar": "Calydonian Boar" };

export function cardName(id) {
  if (!id) return "";
  return CARD_NAMES[id] || id.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

export function godName(id) {
  return (GODS[id] && GODS[id].name) || cardName(id);
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
    return (owner.faction_names && owner.faction_names[k]) || `${owner.name || `Player ${owner.seat + 1}`} (${"AB"[k]})`;
  }
  const s = seats && seats[p];
  if (s && s.name) return s.name;
  return `Player ${p + 1}`;
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
    return h("span", { class: "chip-mark", title: name, role: "img", "aria-label": name }, factionMark(p, 14));
  }
  return h("span", { class: "chip", style: { background: colour(p), color: ink(p) }, title: name },
    p >= 0 ? factionMark(p, 11) : null, text ?? name);
}

// A logged-in request that changes something carries the login's CSRF token (server/auth.py):
// the cyclades_csrf cookie, which only this site's pages can read.
export function csrfHeaders(method = "POST") {
  if (["GET", "HEAD", "OPTIONS"].includes(method)) return {};
  const m = document.cookie.match(/(?:^|;\s*)cyclades_csrf=([^;]+)/);
  return m ? { "X-CSRF-Token": decodeURIComponent(m[1]) } : {};
}

export async function api(method, path, body) {
  const opts = { method, headers: csrfHeaders(method) };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, "The server cannot be reached. Is it running?");
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

// English for an action when the server gave none, in the rulebook's words
// (the same sentences as cyclades.engine.actions.DESCRIPTIONS).
const DESCRIPTIONS = {
  claim: "Place a Control token on {where}",
  place_fleet: "Place a Fleet in {where}",
  place_troop: "Place a Troop on {where}",
  place_merc: "Place a mercenary Troop on {where}",
  place_hero: "Place {what} on {where}",
  bid: "Offer {n} GP to {what}",
  apollo: "Make an Offering to Apollo",
  build: "Build a {what} on {where}",
  replace: "Build in place of your {what} on {where}",
  forgo: "Forgo this building",
  choose_building: "Choose a {what}",
  recruit: "Recruit a {what} for {n} GP",
  recruit_hero: "Recruit {what} for {n} GP",
  sea_move: "Sea Move for {n} GP",
  land_move: "Land Move for {n} GP",
  heroic_move: "Heroic Move with {what} for {n} GP",
  origin: "Move from {where}",
  take: "Take {n} {what}",
  take_hero: "Take {what} along",
  destination: "Move to {where}",
  lose: "Lose a {what}",
  lose_hero: "Lose {what}",
  retreat: "Retreat to {where}",
  hold: "Do not retreat",
  prosperity: "Place a Prosperity token on {where}",
  metropolis: "Build the Metropolis on {where}",
  remove: "Give up the {what} on {where}",
  reserve: "Reserve {what}",
  peek: "Look at the top Creature card",
  play_peeked: "Play the peeked {what} for {n} GP",
  return_peeked: "Put the Creature card back",
  buy_creature: "Buy {what} for {n} GP",
  keep: "Keep {what} by discarding a Priestess",
  release: "Release {what}",
  move_creature: "Move {what} to {where}",
  stay: "Leave {what} where it is",
  place_creature: "Place {what} on {where}",
  displace: "Move the displaced {what} to {where}",
  target_area: "Choose {where}",
  destroy: "Destroy a {what} on {where}",
  steal: "Steal {what} from {where}",
  swap_hero: "Give up {what} for a Hero of the track",
  choose_hero: "Take {what} from the Hero track",
  choose_card: "Play {what} for free",
  exchange: "Exchange 2 mercenary Troops for a {what}",
  return_merc: "Return a mercenary Troop from {where}",
  sacrifice: "Sacrifice {what}",
  use_power: "Use the Sacrificial Power of {what}",
  discard_prosperity: "Discard a Prosperity token from {where}",
  convert: "Turn 2 Priestesses into a Philosopher, {n} times",
  metropolis_on_card: "Place the Metropolis on {what}'s card",
  reroll: "Pay {n} GP to re-roll the die",
  keep_roll: "Keep the die",
  escape: "Let a {what} retreat to {where} instead of being destroyed",
  fleet_move: "Move Fleets up to 3 sea spaces for {n} GP",
  drop: "Leave {n} of the moving Fleets here",
  swap_creature: "Replace {what} with the top Creature card for {n} GP",
  end_turn: "End your turn",
  done: "Done choosing",
  cancel: "Cancel",
};

// areaName(id) -> printed name; used to replace area ids in the server's text.
// playerName(p) -> a player's name, for the choices that name a player (the Griffin's, the
// Satyr's target).
export function actionLabel(a, areaName = (x) => x, playerName = (p) => `Player ${p + 1}`) {
  const where = a.where ? areaName(a.where) : "";
  if (a.kind === "take") return takeLabel(a);
  if (a.kind === "target_player") return `Target ${playerName(a.n || 0)}`;
  // classic Zeus' swap: `where` names the creature track slot by its price ("slot-3")
  if (a.kind === "swap_creature") return `Replace ${cardName(a.what)} (the ${a.where.replace("slot-", "")} GP slot) with the top Creature card for ${a.n} GP`;
  if (a.kind === "lose" && UNIT_WORDS[a.what]) return `Lose a ${UNIT_WORDS[a.what][0]}`;
  if (a.text) {
    let t = a.text;
    if (a.where && where !== a.where) t = t.split(a.where).join(where);
    return t;
  }
  const tpl = DESCRIPTIONS[a.kind];
  if (!tpl) return [a.kind.replace(/_/g, " "), cardName(a.what), where, a.n || ""].filter(Boolean).join(" ");
  return tpl.replace("{what}", cardName(a.what)).replace("{where}", where).replace("{n}", String(a.n || 0));
}

const UNIT_WORDS = { troop: ["Troop", "Troops"], merc: ["mercenary Troop", "mercenary Troops"], fleet: ["Fleet", "Fleets"] };

function takeLabel(a) {
  const [one, many] = UNIT_WORDS[a.what] || [cardName(a.what), cardName(a.what)];
  const n = a.n || 0;
  return n === 0 ? `Take no ${many}` : `Take ${n} ${n === 1 ? one : many}`;
}

export function unitWords(kind) {
  return UNIT_WORDS[kind] || [cardName(kind), cardName(kind)];
}
