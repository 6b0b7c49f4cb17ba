// The pieces of the board, drawn for this project as small SVG figures: a helmet for Troops,
// a trireme for Fleets, a crested helmet for Heroes, a beast for each Creature miniature, and
// the buildings (an anchor, a tower, a temple, a scroll, a walled city).
//
// Every faction owns a shape as well as a colour (a circle, a triangle, a square...): the
// plate that carries a piece's count, the Control token and the player cards show it, so
// that two factions never look alike to a colour-blind player.
//
// Each figure is drawn in a 30-unit box centred on (0, 0) (its plate included) and scaled to
// the size the caller gives.
import { ngettext, _, BUILDINGS, cardName, colour, factionShapePath, initial, ink, svg as s } from "./common.js";

export { s }; // for board.js

export const round = (x) => Math.round(x * 100) / 100;

const OUTLINE = "#1d1a14";

// A faction's plate: its shape in its colour, with a number (or a letter) on it.
function plate(p, x, y, r, text) {
  return s("g", { class: "plate", transform: `translate(${x},${y})` },
    s("path", { d: factionShapePath(p, r), fill: colour(p), stroke: "#fff", "stroke-width": 1.1, "stroke-linejoin": "round" }),
    text !== null && text !== undefined ? s("text", { class: "plate-text", y: round(r * 0.45), fill: ink(p), "font-size": round(r * (String(text).length > 1 ? 1.0 : 1.3)) }, text) : null);
}

function piece(cls, title, x, y, size, ...body) {
  return s("g", { class: `piece ${cls}`, transform: `translate(${round(x)},${round(y)}) scale(${round(size / 30)})`, filter: "url(#piece-shadow)" },
    s("title", {}, title), ...body);
}

// A Corinthian helmet seen from the side, with its crest.
const HELMET = "M-8,8 L-8,-1 C-8,-7 -3,-9.5 2,-9.5 C7,-9.5 9,-5 9,0 L9,4 L5,4 L4.2,0.6 L1,0.6 L1,8 Z";
const CREST = "M-7,-5 C-6,-12 4,-14.5 9.5,-9 C6,-11 -1,-10.5 -7,-5 Z";
const EYE = "M2.2,-3.6 L8,-3.6 L8,-1.6 L2.2,-1.6 Z";

export function troop(x, y, size, p, n, merc) {
  const title = merc ? ngettext("{n} mercenary Troop", "{n} mercenary Troops", n) : ngettext("{n} Troop", "{n} Troops", n);
  return piece(merc ? "merc" : "troop", title, x, y, size,
    s("g", { transform: "translate(-4.5,-1) scale(1.05)" },
      s("path", { d: CREST, fill: merc ? "#9a9a9a" : "#f4ecd8", stroke: OUTLINE, "stroke-width": 0.9 }),
      s("path", { d: HELMET, fill: colour(p), stroke: OUTLINE, "stroke-width": 1.2, "stroke-linejoin": "round", "stroke-dasharray": merc ? "2.4 1.4" : null }),
      s("path", { d: EYE, fill: OUTLINE })),
    plate(p, 7, 6, 8, merc ? _("{n}m", { n }) : n));
}

export function fleet(x, y, size, p, n) {
  return piece("fleet", ngettext("{n} Fleet", "{n} Fleets", n), x, y, size,
    // A trireme: a hull with a ram and oars, a mast and a square sail in the faction's colour.
    s("path", { d: "M-7,-1.5 L-7,-11 M-7,-10 L-7,-1", stroke: OUTLINE, "stroke-width": 1.2 }),
    s("path", { d: "M-13,-9.5 L-1,-9.5 L-2,-2 L-12,-2 Z", fill: colour(p), stroke: OUTLINE, "stroke-width": 1, "stroke-linejoin": "round" }),
    s("path", { d: "M-12,-0.5 L8,-0.5 L12,-3 L11,1.5 L5,5.5 L-9,5.5 Z", fill: "#6b4423", stroke: OUTLINE, "stroke-width": 1.1, "stroke-linejoin": "round" }),
    s("path", { d: "M-8,5.5 L-9.5,9 M-4,5.5 L-5.5,9 M0,5.5 L-1.5,9 M4,5.5 L2.5,9", stroke: OUTLINE, "stroke-width": 0.9 }),
    plate(p, 7.5, -5, 8, n));
}

export function hero(x, y, size, p, id) {
  const name = cardName(id);
  return piece("hero", _("{name} (Hero)", { name }), x, y, size,
    s("circle", { r: 11, fill: "#f6d36b", stroke: "#8a6212", "stroke-width": 1.2 }),
    s("path", { d: "M-8,-5 C-7,-13 6,-13.5 10,-6 C6,-9 -2,-10 -8,-5 Z", fill: "#b3261e", stroke: OUTLINE, "stroke-width": 0.8 }),
    s("path", { d: HELMET, transform: "translate(-2,1) scale(0.85)", fill: colour(p), stroke: OUTLINE, "stroke-width": 1.2, "stroke-linejoin": "round" }),
    plate(p, 7, 6.5, 7.5, initial(id)));
}

// The beasts: each miniature gets a silhouette of its own kind.
const BEASTS = {
  tentacles: "M-9,6 C-9,-2 -5,-9 0,-9 C5,-9 9,-2 9,6 C7,2 6,2 5,7 C3,2 2,2 1,8 C-1,2 -2,2 -3,7 C-5,2 -6,2 -9,6 Z",
  serpents: "M-8,8 C-9,0 -6,-4 -4,-8 C-2,-11 1,-9 -1,-7 C-4,-4 -3,0 -1,3 C0,-3 2,-8 5,-9 C8,-10 8,-6 6,-6 C3,-5 2,0 2,4 C4,1 7,0 9,2 C7,3 5,5 4,8 Z",
  horns: "M-6,8 L-6,0 C-8,-2 -10,-6 -9,-10 C-7,-6 -5,-4 -3,-4 L3,-4 C5,-4 7,-6 9,-10 C10,-6 8,-2 6,0 L6,8 C3,9 -3,9 -6,8 Z",
  eye: "M-8,8 L-8,-1 C-8,-8 -4,-10 0,-10 C4,-10 8,-8 8,-1 L8,8 Z",
  heads: "M-10,8 L-10,0 C-11,-4 -9,-7 -6,-6 C-5,-9 -2,-10 0,-10 C2,-10 5,-9 6,-6 C9,-7 11,-4 10,0 L10,8 Z",
  centaur: "M-10,8 L-9,1 C-9,-2 -6,-3 -2,-3 L1,-3 L1,-10 L5,-10 L5,-2 C8,-2 9,0 9,3 L10,8 L7,8 L6,4 L-5,4 L-7,8 Z",
  wave: "M-10,6 C-8,-2 -3,-9 3,-9 C8,-9 10,-5 8,-2 C6,-5 2,-5 1,-2 C0,1 3,3 6,2 C4,6 -2,8 -10,6 Z",
};
const BEAST_OF = {
  kraken: "tentacles", "scylla-charybdis": "tentacles", hydra: "serpents", medusa: "serpents",
  minotaur: "horns", "calydonian-boar": "horns", polyphemus: "eye", cerberus: "heads", geryon: "heads",
  chiron: "centaur", nereid: "wave", typhon: "wave",
};

export function creature(x, y, size, id, card, p) {
  const kind = BEAST_OF[card] || BEAST_OF[id] || "horns";
  return piece("creature", _("{name} (Mythological Creature)", { name: cardName(id) }), x, y, size,
    s("circle", { r: 11.5, fill: "#3b2350", stroke: p >= 0 ? colour(p) : "#d9c7ef", "stroke-width": 2.4 }),
    s("path", { d: BEASTS[kind], fill: "#e8d9ff", stroke: "#1a0f24", "stroke-width": 0.6, "stroke-linejoin": "round" }),
    kind === "eye" ? s("circle", { cy: -3, r: 2.6, fill: "#3b2350" }) : null,
    p >= 0 ? plate(p, 8, 8, 5.2, null) : null);
}

// A Control token: the faction's plate alone, larger.
export function control(x, y, size, p) {
  return piece("control", _("Control token"), x, y, size,
    s("path", { d: factionShapePath(p, 9), fill: colour(p), stroke: "#fff", "stroke-width": 1.8, "stroke-linejoin": "round" }),
    s("path", { d: factionShapePath(p, 4.2), fill: "none", stroke: ink(p), "stroke-width": 1.2, opacity: 0.85 }));
}

// Buildings: a square tile in the building's colour with its figure, rimmed in the owner's colour.
const BUILDING_ICON = {
  port: "M0,-6 L0,6 M-3.5,-3.5 L3.5,-3.5 M-6,1.5 C-5,6 5,6 6,1.5 M-6,1.5 L-7.5,3 M6,1.5 L7.5,3",
  fortress: "M-5,6 L-5,-3 L-6,-3 L-6,-7 L-3.5,-7 L-3.5,-5 L-1.2,-5 L-1.2,-7 L1.2,-7 L1.2,-5 L3.5,-5 L3.5,-7 L6,-7 L6,-3 L5,-3 L5,6 Z M-1.6,6 L-1.6,2 A1.6,1.6 0 0 1 1.6,2 L1.6,6",
  temple: "M-7,-2.5 L0,-7 L7,-2.5 Z M-6,-1 L6,-1 M-4.5,0 L-4.5,5 M-1.5,0 L-1.5,5 M1.5,0 L1.5,5 M4.5,0 L4.5,5 M-7,6 L7,6",
  university: "M-6,-5 L4,-5 C6,-5 6,-2 4,-2 L-6,-2 M-6,-5 C-8,-5 -8,-2 -6,-2 M-4,-2 L-4,5 L6,5 C8,5 8,2 6,2 L6,-2 M-4,5 C-6,5 -6,2 -4,2",
};

export function building(x, y, size, b, p) {
  const info = BUILDINGS[b] || { letter: b[0].toUpperCase(), name: b, colour: "#777" };
  const k = size / 24;
  const icon = BUILDING_ICON[b];
  return s("g", { class: `building ${b}`, transform: `translate(${round(x)},${round(y)}) scale(${round(k)})`, filter: "url(#piece-shadow)" },
    s("title", {}, info.name),
    s("rect", { x: -11, y: -11, width: 22, height: 22, rx: 3, fill: info.colour, stroke: p >= 0 ? colour(p) : "#fff", "stroke-width": 3 }),
    icon ? s("path", { d: icon, fill: b === "fortress" ? "#fff" : "none", stroke: "#fff", "stroke-width": b === "fortress" ? 0.6 : 1.7, "stroke-linejoin": "round", "stroke-linecap": "round", transform: "scale(1.25)" })
      : s("text", { class: "bld-letter", y: 5, "font-size": 14 }, info.letter));
}

export function metropolis(x, y, size, p) {
  const k = size / 24;
  return s("g", { class: "building metropolis", transform: `translate(${round(x)},${round(y)}) scale(${round(k)})`, filter: "url(#piece-shadow)" },
    s("title", {}, _("Metropolis")),
    s("path", {
      transform: "translate(0,3.5)",
      d: "M-22,11 L-22,-4 L-18,-4 L-18,-8 L-14,-8 L-14,-4 L-7,-4 L-7,-14 L-3,-14 L-3,-18 L3,-18 L3,-14 L7,-14 L7,-4 L14,-4 L14,-8 L18,-8 L18,-4 L22,-4 L22,11 Z",
      fill: "#7b3fa0", stroke: p >= 0 ? colour(p) : "#fff", "stroke-width": 3, "stroke-linejoin": "round",
    }),
    s("path", { transform: "translate(0,3.5)", d: "M-4,11 L-4,4 A4,4 0 0 1 4,4 L4,11 Z M-15,3 L-11,3 L-11,7 L-15,7 Z M11,3 L15,3 L15,7 L11,7 Z", fill: "#f3e6c4" }));
}

export function emptySite(x, y, size) {
  return s("rect", { x: round(x - size / 2), y: round(y - size / 2), width: round(size), height: round(size), rx: round(size * 0.15), class: "site empty" },
    s("title", {}, _("Construction site")));
}

// The Cornucopia printed on the board: a golden horn of plenty.
export function cornucopia(x, y, size, n) {
  return s("g", { class: "cornucopia", transform: `translate(${round(x)},${round(y)}) scale(${round(size / 24)})` },
    s("title", {}, ngettext("{n} Cornucopia (income)", "{n} Cornucopias (income)", n)),
    s("path", { d: "M-11,-8 Q-6,9 10,8 Q13,2 12,-4 Q2,1 -11,-8 Z", fill: "#f2c230", stroke: "#6b4a00", "stroke-width": 1.6, "stroke-linejoin": "round" }),
    s("ellipse", { cx: 11, cy: 2, rx: 2.2, ry: 5.8, fill: "#fff3c4", stroke: "#6b4a00", "stroke-width": 1 }),
    n > 1 ? s("text", { class: "badge-small", x: -7, y: 11, "font-size": 11 }, n) : null);
}

// Prosperity tokens: round green tokens showing a Cornucopia.
export function prosperity(x, y, size, n) {
  return s("g", { class: "prosperity", transform: `translate(${round(x)},${round(y)}) scale(${round(size / 24)})`, filter: "url(#piece-shadow)" },
    s("title", {}, ngettext("{n} Prosperity token (income)", "{n} Prosperity tokens (income)", n)),
    s("circle", { r: 11, fill: "#4d7a2a", stroke: "#f2c230", "stroke-width": 2.4 }),
    s("path", { d: "M-6.5,-4.5 Q-3.3,5 5.8,4.4 Q7.4,1.1 6.7,-2.4 Q1.1,0.7 -6.5,-4.5 Z", fill: "#f2c230" }),
    n > 1 ? s("text", { class: "badge-small", x: 9, y: -6, "font-size": 11 }, n) : null);
}

export function priestessIcon(x, y, size) {
  return s("g", { class: "priestess-icon", transform: `translate(${round(x)},${round(y)}) scale(${round(size / 24)})` },
    s("title", {}, _("Priestess icon: its new controller gains a Priestess")),
    s("circle", { r: 11, fill: "#fdf8ea", stroke: "#b98a1c", "stroke-width": 1.8 }),
    s("circle", { cy: -4.5, r: 3, fill: "#6b4a00" }),
    s("path", { d: "M-5,8 L0,-1.5 L5,8 Z", fill: "#6b4a00" }));
}

export function volcano(x, y, size) {
  return s("g", { class: "volcano", transform: `translate(${round(x)},${round(y)}) scale(${round(size / 24)})` },
    s("title", {}, _("Volcano")),
    s("path", { d: "M-11,8 L-3,-6 L3,-6 L11,8 Z", fill: "#7a4b32", stroke: "#3b2416", "stroke-width": 1.2, "stroke-linejoin": "round" }),
    s("path", { d: "M-3,-6 L-1.5,-11 L0.5,-8 L2,-12 L3,-6 Z", fill: "#e8562a" }));
}
