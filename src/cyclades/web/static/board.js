// The board as SVG, drawn from the board's geometry (GET /api/games/{id}/board)
// and the pieces of a view (game.view(seat)["areas"]).
import { BUILDINGS, cardName, colour, ink } from "./common.js";

const NS = "http://www.w3.org/2000/svg";

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
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

const ringPath = (ring) => (ring && ring.length ? "M" + ring.map((p) => `${p[0]},${p[1]}`).join("L") + "Z" : "");
const round = (x) => Math.round(x * 100) / 100;

function initials(id) {
  const name = cardName(id).replace(/^The /, "");
  const words = name.split(/[\s&]+/).filter(Boolean);
  return words.length > 1 ? words[0][0] + words[1][0] : name.slice(0, 2);
}

// The same board turned a quarter (clockwise), for a tall screen: the shapes turn, while
// names, pieces and building sites keep their places around each area's centre, upright.
export function turnGeometry(geo) {
  const H = geo.height;
  const pt = (p) => [Math.round((H - p[1]) * 100) / 100, p[0]];
  const ring = (r) => (r || []).map(pt);
  const near = (c, c2, p) => (p ? [Math.round((c2[0] + p[0] - c[0]) * 100) / 100, Math.round((c2[1] + p[1] - c[1]) * 100) / 100] : p);
  const areas = geo.areas.map((a) => {
    const centre = pt(a.centre);
    return {
      ...a,
      outline: a.outline ? ring(a.outline) : a.outline,
      polygons: (a.polygons || []).map(ring),
      centre,
      label: near(a.centre, centre, a.label),
      sites: (a.sites || []).map((q) => near(a.centre, centre, q)),
      metropolis_site: Array.isArray(a.metropolis_site) ? near(a.centre, centre, a.metropolis_site) : a.metropolis_site,
    };
  });
  return {
    ...geo,
    width: geo.height,
    height: geo.width,
    viewBox: `0 0 ${geo.height} ${geo.width}`,
    areas,
    tiles: (geo.tiles || []).map((t) => ({ ...t, centre: t.centre ? pt(t.centre) : t.centre, outline: ring(t.outline) })),
    islands: (geo.islands || []).map((i) => ({ ...i, outlines: (i.outlines || []).map(ring) })),
    links: (geo.links || []).map((l) => ({ ...l, points: ring(l.points) })),
    turned: true,
  };
}

export class BoardView {
  // svg: an <svg> element; geo: the board geometry; onArea(id, event): a click on an area.
  constructor(svg, geo, onArea) {
    this.svg = svg;
    this.geo = geo;
    this.onArea = onArea;
    this.areas = new Map(geo.areas.map((a) => [a.id, a]));
    this.k = geo.hex_size / 40; // piece scale
    this.shrink = 1; // smaller pieces where two sides stand (a battle)
    this.drawStatic();
  }

  name(id) {
    const a = this.areas.get(id);
    return a ? a.name : id;
  }

  // For the layers drawn over the board (animate.js): an area's centre in the board's
  // coordinates, its outline (an SVG path), and a group of its own above the board's
  // drawing (`under`: beneath the pieces and labels).
  centre(id) {
    const a = this.areas.get(id);
    return a ? a.centre : null;
  }

  outline(id) {
    const el = this.areaEls.get(id);
    return el ? el.getAttribute("d") : "";
  }

  layer(name, under = false) {
    let g = this.svg.querySelector(`:scope > g.layer-${name}`);
    if (!g) {
      g = s("g", { class: `layer layer-${name}` });
      if (under) this.svg.insertBefore(g, this.pieces);
      else this.svg.append(g);
    }
    return g;
  }

  drawStatic() {
    const { svg, geo } = this;
    svg.replaceChildren();
    svg.setAttribute("viewBox", geo.viewBox || `0 0 ${geo.width} ${geo.height}`);
    svg.setAttribute("class", "board");
    svg.append(s("defs", {},
      s("radialGradient", { id: "sea-grad", cx: "50%", cy: "45%", r: "75%" },
        s("stop", { offset: "0%", "stop-color": "#4f9cc9" }),
        s("stop", { offset: "70%", "stop-color": "#2c6f9f" }),
        s("stop", { offset: "100%", "stop-color": "#1d4f78" })),
      s("linearGradient", { id: "land-grad", x1: "0", y1: "0", x2: "0", y2: "1" },
        s("stop", { offset: "0%", "stop-color": "#efe2b6" }),
        s("stop", { offset: "100%", "stop-color": "#d9c58c" })),
      s("pattern", { id: "waves", width: 24, height: 12, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M0 8 Q6 4 12 8 T24 8", fill: "none", stroke: "rgba(255,255,255,0.09)", "stroke-width": 1.2 })),
      s("filter", { id: "shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
        s("feDropShadow", { dx: 0, dy: 1, stdDeviation: 0.9, "flood-color": "#000", "flood-opacity": 0.55 })),
      s("filter", { id: "island-shadow", x: "-10%", y: "-10%", width: "120%", height: "120%" },
        s("feDropShadow", { dx: 0, dy: 2, stdDeviation: 2.5, "flood-color": "#0b2a44", "flood-opacity": 0.6 })),
    ));
    const g = s("g", { class: "static" });
    g.append(s("rect", { x: 0, y: 0, width: geo.width, height: geo.height, fill: "url(#sea-grad)", rx: 14 }));
    g.append(s("rect", { x: 0, y: 0, width: geo.width, height: geo.height, fill: "url(#waves)", rx: 14 }));
    for (const t of geo.tiles || []) {
      g.append(s("path", { d: ringPath(t.outline), class: "tile-outline" }));
    }
    // Sea areas, then islands (with a shadow), then land areas on top.
    this.areaEls = new Map();
    this.tintEls = new Map();
    const seas = s("g", { class: "seas" });
    const islands = s("g", { class: "islands" });
    const lands = s("g", { class: "lands" });
    for (const a of geo.areas) {
      const d = ringPath(a.outline) || a.polygons.map(ringPath).join("");
      // What the area holds is explained by the page's tooltip (hover, or tap): data-tip.
      const el = s("path", { d, class: `area ${a.kind}`, "data-area": a.id, "data-tip": `area:${a.id}`, "aria-label": a.name });
      el.addEventListener("click", (ev) => this.onArea && this.onArea(a.id, ev));
      (a.kind === "sea" ? seas : lands).append(el);
      this.areaEls.set(a.id, el);
    }
    for (const isl of geo.islands || []) {
      for (const ring of isl.outlines || []) {
        islands.append(s("path", { d: ringPath(ring), class: "island", filter: "url(#island-shadow)" }));
      }
    }
    g.append(seas, islands, lands);
    // Land borders inside an island, over the areas.
    for (const isl of geo.islands || []) {
      for (const ring of isl.outlines || []) g.append(s("path", { d: ringPath(ring), class: "island-edge" }));
    }
    for (const l of geo.links || []) {
      const [p, q] = l.points;
      g.append(s("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: `link ${l.kind}` }));
    }
    svg.append(g);
    // Overlays that change: tints, highlights, then pieces, then labels (always readable).
    this.tints = s("g", { class: "tints" });
    this.marks = s("g", { class: "marks" });
    this.pieces = s("g", { class: "pieces" });
    const labels = s("g", { class: "labels" });
    for (const a of geo.areas) {
      const [x, y] = a.label;
      labels.append(s("text", { x, y, class: `label ${a.kind}` }, a.name));
      if (a.volcano) labels.append(this.volcano(a.label[0] + 24 * this.k, a.label[1] - 3 * this.k));
    }
    svg.append(this.tints, this.pieces, labels, this.marks);
    // Area names stay readable however small the board is drawn: at least ~9 screen pixels.
    if (window.ResizeObserver) new ResizeObserver(() => this.fitLabels()).observe(svg);
    this.fitLabels();
  }

  fitLabels() {
    const w = this.svg.clientWidth || this.svg.getBoundingClientRect().width;
    const h = this.svg.clientHeight || this.svg.getBoundingClientRect().height;
    if (!w || !h) return;
    const scale = Math.min(w / this.geo.width, h / this.geo.height); // screen px per unit
    // Up to 14 units on a board drawn large; more on a small screen (a phone), where the
    // names would otherwise shrink to nothing (classic isles stand far apart: up to 20).
    const cap = this.geo.height > this.geo.width * 0.8 && this.geo.areas.length < 45 ? 20 : 14;
    const size = Math.max(10, Math.min(cap, 9 / scale));
    this.svg.style.setProperty("--label", `${Math.round(size * 10) / 10}px`);
    this.svg.style.setProperty("--label-sea", `${Math.round(size * 8.6) / 10}px`);
  }

  volcano(x, y) {
    const k = this.k;
    return s("g", { class: "volcano", transform: `translate(${round(x)},${round(y)}) scale(${k})` },
      s("title", {}, "Volcano"),
      s("path", { d: "M-6,4 L-1.5,-4 L1.5,-4 L6,4 Z", fill: "#7a4b32", stroke: "#3b2416", "stroke-width": 0.7 }),
      s("path", { d: "M-1.5,-4 L0,-7 L1.5,-4", fill: "#e8562a" }));
  }

  // view: the game view; opts: {legal: Set of area ids, origin, battle, seats}.
  render(view, opts = {}) {
    const legal = opts.legal || new Set();
    this.tints.replaceChildren();
    this.pieces.replaceChildren();
    this.marks.replaceChildren();
    const heroOwner = {};
    const creatureOwner = {};
    for (const pl of view.players || []) {
      for (const hero of pl.heroes || []) heroOwner[hero] = pl.index;
      for (const c of pl.creatures || []) creatureOwner[c] = pl.index;
    }
    // Miniatures by their own name (Scylla and Charybdis are two miniatures of one card).
    for (const [mini, m] of Object.entries(view.miniatures || {})) creatureOwner[mini] = m.owner;
    for (const st of view.areas || []) {
      const a = this.areas.get(st.id);
      if (!a) continue;
      const el = this.areaEls.get(st.id);
      el.classList.toggle("legal", legal.has(st.id));
      const d = el.getAttribute("d");
      if (st.owner >= 0) {
        this.tints.append(s("path", { d, class: `tint ${a.kind}`, fill: colour(st.owner) }));
      }
      const attack = opts.attack && opts.attack.area === st.id ? opts.attack : null;
      this.drawArea(a, st, heroOwner, creatureOwner, attack);
    }
    const mark = (id, cls, text) => {
      const el = this.areaEls.get(id);
      if (!el) return;
      this.marks.append(s("path", { d: el.getAttribute("d"), class: `mark ${cls}` }, s("title", {}, text)));
    };
    for (const id of legal) mark(id, "legal-ring", "You may choose this area");
    if (opts.origin) mark(opts.origin, "origin", "Moving from here");
    if (opts.battle) mark(opts.battle, "battle", "Battle!");
  }

  drawArea(a, st, heroOwner, creatureOwner, attack) {
    const k = this.k;
    const [cx, cy] = a.centre;
    const g = s("g", { class: "area-pieces", "data-area": a.id });
    const owner = st.owner;
    const tokens = [];
    if (a.kind === "land") {
      if (st.troops) tokens.push((x, y) => this.troop(x, y, owner, st.troops, "troop"));
      if (st.mercs) tokens.push((x, y) => this.troop(x, y, owner, st.mercs, "merc"));
      for (const hero of st.heroes || []) tokens.push((x, y) => this.hero(x, y, heroOwner[hero] ?? owner, hero));
      const units = (st.troops || 0) + (st.mercs || 0) + (st.heroes || []).length;
      if (!units && owner >= 0 && !attack) tokens.push((x, y) => this.control(x, y, owner));
    } else if (st.fleets) {
      tokens.push((x, y) => this.fleet(x, y, owner, st.fleets));
    }
    for (const c of st.creatures || []) tokens.push((x, y) => this.creature(x, y, c, creatureOwner[c]));
    // In a battle the attacker's units stand in the area too, in a row above the defender's.
    const raiders = [];
    if (attack) {
      const p = attack.player;
      if (attack.troops) raiders.push((x, y) => this.troop(x, y, p, attack.troops, "troop"));
      if (attack.mercs) raiders.push((x, y) => this.troop(x, y, p, attack.mercs, "merc"));
      for (const hero of attack.heroes || []) raiders.push((x, y) => this.hero(x, y, p, hero));
      if (attack.fleets) raiders.push((x, y) => this.fleet(x, y, p, attack.fleets));
    }
    this.shrink = raiders.length ? 0.78 : 1;
    const step = 19 * k * this.shrink;
    const row = (list, y, cls) => list.forEach((make, i) => {
      const x = cx + (i - (list.length - 1) / 2) * step;
      const el = make(round(x), round(y));
      if (cls) el.classList.add(cls);
      g.append(el);
    });
    const metropolis = (st.buildings || []).includes("metropolis");
    if (raiders.length) {
      row(raiders, cy - 6 * k, "attacker");
      row(tokens, cy + 8 * k, "defender");
    } else {
      row(tokens, cy + (metropolis ? -3 : 1) * k);
    }
    this.shrink = 1;
    // Construction sites and buildings, in a row; a Metropolis is wider than a building.
    const sites = a.sites || [];
    const blds = st.buildings || [];
    let rowL = 0;
    let rowR = 0;
    if (sites.length) {
      const widths = sites.map((_, i) => (blds[i] === "metropolis" ? 21 : 11.2) * k);
      const total = widths.reduce((x, y) => x + y, 0);
      const mid = sites.reduce((x, p) => x + p[0], 0) / sites.length;
      let x = mid - total / 2;
      [rowL, rowR] = [x, x + total];
      sites.forEach((p, i) => {
        const b = blds[i] || "";
        const cxSite = x + widths[i] / 2;
        x += widths[i];
        g.append(b === "metropolis" ? this.metropolis(cxSite, p[1], owner) : this.site(cxSite, p[1], b, owner));
      });
    }
    // Income: printed Cornucopias (a horn on the board) and Prosperity tokens (round tokens).
    const printed = a.cornucopias || 0;
    const prosperity = st.prosperity || 0;
    if (printed || prosperity) {
      const k2 = 13 * k;
      let px, py, qx, qy; // printed horn, prosperity token
      if (a.kind === "land" && sites.length) {
        const y = sites[0][1];
        [px, py] = [rowR + k2 - 5.6 * k, y];
        [qx, qy] = [rowL - k2 + 5.6 * k, y];
      } else {
        [px, py] = [cx - (prosperity && printed ? 8 * k : 0), cy + 20 * k];
        [qx, qy] = [cx + (prosperity && printed ? 8 * k : 0), cy + 20 * k];
      }
      if (printed) g.append(this.cornucopia(px, py, printed));
      if (prosperity) g.append(this.prosperityToken(qx, qy, prosperity));
    }
    if (a.priestess) g.append(this.priestessIcon(a.label[0] - 26 * k, a.label[1] - 3 * k));
    this.pieces.append(g);
  }

  troop(x, y, p, n, kind) {
    const k = this.k * this.shrink;
    const merc = kind === "merc";
    const title = `${n} ${merc ? "mercenary " : ""}Troop${n > 1 ? "s" : ""}`;
    // A hoplite's shield: a round shield with a crest line; mercenaries wear a dashed rim.
    return s("g", { class: `piece ${kind}`, transform: `translate(${x},${y}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, title),
      s("circle", { r: 8.5, fill: colour(p), stroke: merc ? "#f4efe2" : "#fff", "stroke-width": 1.6, "stroke-dasharray": merc ? "2.2 1.6" : null }),
      s("circle", { r: 5.8, fill: "none", stroke: "rgba(255,255,255,0.45)", "stroke-width": 0.8 }),
      s("text", { class: "count", y: 3.3, fill: ink(p) }, merc ? `${n}m` : n));
  }

  fleet(x, y, p, n) {
    const k = this.k * this.shrink;
    return s("g", { class: "piece fleet", transform: `translate(${x},${y}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, `${n} Fleet${n > 1 ? "s" : ""}`),
      // A trireme: hull with a ram, a mast and a square sail.
      s("path", { d: "M-11,1 L11,1 L8,6 L-8,6 Z M11,1 L14,3 L10,4 Z", fill: colour(p), stroke: "#fff", "stroke-width": 1.2, "stroke-linejoin": "round" }),
      s("path", { d: "M0,1 L0,-10", stroke: "#fff", "stroke-width": 1.1 }),
      s("path", { d: "M-6,-8 L6,-8 L5,-1 L-5,-1 Z", fill: "#f6f0dc", stroke: colour(p), "stroke-width": 1.2 }),
      n > 1 ? s("g", { transform: "translate(10,-7)" },
        s("circle", { r: 5, fill: "#fff", stroke: colour(p), "stroke-width": 1.2 }),
        s("text", { class: "badge", y: 2.4 }, n)) : null);
  }

  hero(x, y, p, hero) {
    const k = this.k * this.shrink;
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? 4.2 : 9.5;
      const t = (Math.PI / 5) * i - Math.PI / 2;
      pts.push(`${round(r * Math.cos(t))},${round(r * Math.sin(t))}`);
    }
    return s("g", { class: "piece hero", transform: `translate(${x},${y}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, `${cardName(hero)} (Hero)`),
      s("polygon", { points: pts.join(" "), fill: colour(p), stroke: "#fff", "stroke-width": 1.3, "stroke-linejoin": "round" }),
      s("text", { class: "hero-initial", y: 2.8, fill: ink(p) }, cardName(hero)[0]));
  }

  creature(x, y, c, p) {
    const k = this.k * this.shrink;
    const hex = (r) => {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const t = (Math.PI / 3) * i;
        pts.push(`${round(r * Math.cos(t))},${round(r * Math.sin(t))}`);
      }
      return pts.join(" ");
    };
    // A miniature: a dark purple hexagon in its owner's colour ring.
    return s("g", { class: "piece creature", transform: `translate(${x},${y}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, `${cardName(c)} (Mythological Creature)`),
      s("polygon", { points: hex(10.2), fill: p >= 0 ? colour(p) : "#d9c7ef", stroke: "#fff", "stroke-width": 1 }),
      s("polygon", { points: hex(7.4), fill: "#3b2350" }),
      s("text", { class: "creature-initials", y: 2.6 }, initials(c)));
  }

  control(x, y, p) {
    const k = this.k * this.shrink;
    return s("g", { class: "piece control", transform: `translate(${x},${y}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, "Control token"),
      s("circle", { r: 6.5, fill: colour(p), stroke: "#fff", "stroke-width": 1.3 }),
      s("circle", { r: 3.2, fill: "none", stroke: ink(p), "stroke-width": 1, opacity: 0.8 }));
  }

  site(x, y, b, p) {
    const k = this.k;
    const w = 9.6 * k;
    if (!b) {
      return s("rect", { x: round(x - w / 2), y: round(y - w / 2), width: round(w), height: round(w), rx: 1.5 * k, class: "site empty" },
        s("title", {}, "Construction site"));
    }
    const info = BUILDINGS[b] || { letter: b[0].toUpperCase(), name: b, colour: "#777" };
    return s("g", { class: `building ${b}`, transform: `translate(${round(x)},${round(y)}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, info.name),
      s("rect", { x: -5.2, y: -5.2, width: 10.4, height: 10.4, rx: 1.5, fill: info.colour, stroke: p >= 0 ? colour(p) : "#fff", "stroke-width": 1.6 }),
      s("text", { class: "bld-letter", y: 2.6 }, info.letter));
  }

  metropolis(x, y, p) {
    const k = this.k;
    // A walled city: three towers over a gate.
    return s("g", { class: "building metropolis", transform: `translate(${round(x)},${round(y)}) scale(${round(k * 0.75)})`, filter: "url(#shadow)" },
      s("title", {}, "Metropolis"),
      s("path", {
        d: "M-13,8 L-13,-4 L-10,-4 L-10,-7 L-7,-7 L-7,-4 L-4,-4 L-4,-10 L-1.5,-10 L-1.5,-13 L1.5,-13 L1.5,-10 L4,-10 L4,-4 L7,-4 L7,-7 L10,-7 L10,-4 L13,-4 L13,8 Z",
        fill: "#7b3fa0", stroke: p >= 0 ? colour(p) : "#fff", "stroke-width": 2, "stroke-linejoin": "round",
      }),
      s("path", { d: "M-3,8 L-3,2 A3,3 0 0 1 3,2 L3,8 Z", fill: "#f3e6c4" }));
  }

  // The Cornucopia printed on the board: a golden horn of plenty.
  cornucopia(x, y, n) {
    const k = this.k;
    return s("g", { class: "cornucopia", transform: `translate(${round(x)},${round(y)}) scale(${k})` },
      s("title", {}, `${n} Cornucopia${n > 1 ? "s" : ""} (income)`),
      s("path", { d: "M-6,-4.5 Q-3,4.5 5.5,4 Q7,1 6.3,-2.2 Q1,0.6 -6,-4.5 Z", fill: "#f2c230", stroke: "#6b4a00", "stroke-width": 1, "stroke-linejoin": "round" }),
      s("ellipse", { cx: 5.9, cy: 0.9, rx: 1.2, ry: 3.1, fill: "#fff3c4", stroke: "#6b4a00", "stroke-width": 0.6 }),
      n > 1 ? s("text", { class: "badge-small", x: -4.5, y: 6.5 }, n) : null);
  }

  // Prosperity tokens: round tokens showing a Cornucopia.
  prosperityToken(x, y, n) {
    const k = this.k;
    return s("g", { class: "prosperity", transform: `translate(${round(x)},${round(y)}) scale(${k})`, filter: "url(#shadow)" },
      s("title", {}, `${n} Prosperity token${n > 1 ? "s" : ""} (income)`),
      s("circle", { r: 6, fill: "#4d7a2a", stroke: "#f2c230", "stroke-width": 1.4 }),
      s("path", { d: "M-3.6,-2.4 Q-1.8,2.8 3.2,2.4 Q4.1,0.6 3.7,-1.3 Q0.6,0.4 -3.6,-2.4 Z", fill: "#f2c230" }),
      n > 1 ? s("text", { class: "badge-small", x: 5.5, y: -4 }, n) : null);
  }

  priestessIcon(x, y) {
    const k = this.k;
    return s("g", { class: "priestess-icon", transform: `translate(${round(x)},${round(y)}) scale(${k})` },
      s("title", {}, "Priestess icon: its new controller gains a Priestess"),
      s("circle", { cy: -3, r: 2, fill: "#fff" }),
      s("path", { d: "M-3.2,4 L0,-1 L3.2,4 Z", fill: "#fff" }),
      s("circle", { r: 5.6, cy: 0.5, fill: "none", stroke: "#b98a1c", "stroke-width": 0.9 }));
  }
}
