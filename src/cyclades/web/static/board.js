// The board as SVG, drawn from the board's cells (GET /api/games/{id}/board) and the pieces of
// a view (game.view(seat)["areas"]): islands with their coasts and shallows, seas with their
// borders, the pieces as figures (board-art.js), every name where it can be read
// (board-layout.js). The board turns and scales to fill its panel, and lays itself out again
// when the panel changes size.
//
// For a layer drawn on top (animations), in screen pixels (client coordinates):
//   board.areaPoint(id)          where area id's pieces stand
//   board.anchor(id)             the same, in board units (for the overlay)
//   board.pieceElements(id)      the pieces drawn in area id: [{kind, id, el}] (kind: troop,
//                                merc, hero, fleet, creature, control, prosperity, building)
//   board.pieceBox(id, kind, x)  the screen box of one of them (x: a hero's or creature's id)
//   board.toScreen([x, y]) / board.fromScreen(x, y)   board units <-> screen pixels
//   board.overlay                an SVG group above everything, in board units (made anew
//                                when the board turns to fit a new panel: ask for it each time)
//   board.outline(id)            an area's outline (an SVG path), for a mark drawn around it
//   render(view, {under})        under(board): elements drawn beneath the pieces, again each
//                                time the board is drawn (marks of the last moves)
//   board.tokenSize              a token's size in board units
import * as art from "./board-art.js";
import { bestAngle, borders, grow, isleGrowth, orient, placeLabels, rowOf, smoothPath, zones } from "./board-layout.js";
import { _, colour } from "./common.js";

const { s, round } = art;
const ringPath = (ring) => (ring && ring.length ? "M" + ring.map((p) => `${p[0]},${p[1]}`).join("L") + "Z" : "");

// Names at about this many screen pixels (smaller only where two would touch; larger on a
// board drawn large), pieces at least TOKEN_PX wide where the cells allow it.
const LABEL_PX = { panel: 12.5, width: 10 };
const LABEL_MAX_PX = 15;
const TOKEN_PX = 26;

export class BoardView {
  // svg: an <svg> element; geo: the board's cells; onArea(id, event): a click on an area (or
  // Enter on it).
  constructor(svg, geo, onArea) {
    this.svg = svg;
    this.raw = geo;
    this.onArea = onArea;
    this.deg = null;
    this.scale = 0;
    this.view = null;
    this.opts = {};
    this.measured = new Map();
    svg.setAttribute("class", "board");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", _("The board"));
    this.fit();
    if (window.ResizeObserver) {
      let queued = false;
      const again = () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          this.fit();
        });
      };
      const ro = new ResizeObserver(again);
      ro.observe(svg);
      if (svg.parentElement) ro.observe(svg.parentElement);
    }
  }

  name(id) {
    const a = this.areas.get(id);
    return a ? a.name : id;
  }

  // --- fitting the panel ----------------------------------------------------------------

  // "panel": the board fills a box the page sizes (a desktop); "width": it takes the width it
  // is given and is as tall as it needs (a phone, the replay), at most max-height.
  panel() {
    const box = this.svg.parentElement || this.svg;
    const style = getComputedStyle(this.svg);
    const mode = style.getPropertyValue("--board-fit").trim() === "width" ? "width" : "panel";
    const w = box.clientWidth;
    const max = parseFloat(style.maxHeight);
    const h = mode === "panel" ? box.clientHeight : (Number.isFinite(max) && max > 0 ? max : window.innerHeight * 0.8);
    return { mode, w, h };
  }

  fit() {
    const { mode, w, h } = this.panel();
    const deg = w > 0 && h > 0 ? bestAngle(this.raw, w, h) : this.deg ?? 0;
    if (deg !== this.deg) this.build(deg);
    const W = this.geo.width;
    const H = this.geo.height;
    let scale;
    if (mode === "panel" && w > 0 && h > 0) {
      scale = Math.min(w / W, h / H);
      const [vw, vh] = [w / scale, h / scale];
      this.svg.setAttribute("viewBox", `${round((W - vw) / 2)} ${round((H - vh) / 2)} ${round(vw)} ${round(vh)}`);
    } else {
      this.svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      const sw = this.svg.clientWidth || w;
      const sh = this.svg.clientHeight || sw * (H / W);
      scale = Math.min(sw / W, sh / H) || 1;
    }
    this.mode = mode;
    if (this.layoutScale && Math.abs(scale / this.layoutScale - 1) < 0.04 && !this.dirty) return;
    this.scale = scale;
    this.layout(scale, mode);
  }

  // --- the drawing that does not change during a game --------------------------------

  build(deg) {
    const geo = orient(this.raw, deg);
    // Small isles far apart are drawn larger: their outline, their island, their room.
    const k = isleGrowth(geo.areas);
    if (k !== 1) {
      for (const a of geo.areas) {
        a.r = geo.R * k; // the seas around have room for larger pieces too
        if (a.kind !== "land") continue;
        a.hexes = a.polygons; // the cells as they are, for the borders between areas
        a.outline = grow(a.outline && a.outline.length ? a.outline : a.polygons[0], a.anchor, k);
        a.polygons = [a.outline];
      }
      geo.islands = geo.islands.map((isl) => {
        const a = geo.areas.find((x) => x.id === isl.areas[0]);
        return { ...isl, outlines: a ? [a.outline] : isl.outlines };
      });
    }
    this.deg = deg;
    this.geo = geo;
    this.R = geo.R;
    this.areas = new Map(geo.areas.map((a) => [a.id, a]));
    this.turned = deg !== 0; // drawn turned to fit its panel
    const { svg } = this;
    svg.replaceChildren();
    svg.append(s("defs", {},
      s("radialGradient", { id: "sea-grad", cx: "50%", cy: "45%", r: "75%" },
        s("stop", { offset: "0%", "stop-color": "#3f93c4" }),
        s("stop", { offset: "100%", "stop-color": "#23699a" })),
      s("linearGradient", { id: "land-grad", x1: "0", y1: "0", x2: "0.3", y2: "1" },
        s("stop", { offset: "0%", "stop-color": "#e9dca6" }),
        s("stop", { offset: "55%", "stop-color": "#c9b774" }),
        s("stop", { offset: "100%", "stop-color": "#a99a5c" })),
      s("pattern", { id: "waves", width: 28, height: 14, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M0 9 Q7 4.5 14 9 T28 9", fill: "none", stroke: "rgba(255,255,255,0.10)", "stroke-width": 1.3 })),
      s("pattern", { id: "hills", width: 22, height: 18, patternUnits: "userSpaceOnUse" },
        s("path", { d: "M2 14 Q6 8 10 14 M12 7 Q15 3 18 7", fill: "none", stroke: "rgba(110,85,30,0.22)", "stroke-width": 1.1 })),
      s("filter", { id: "piece-shadow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
        s("feDropShadow", { dx: 0, dy: 1, stdDeviation: 0.8, "flood-color": "#000", "flood-opacity": 0.5 })),
      s("filter", { id: "island-shadow", x: "-10%", y: "-10%", width: "120%", height: "120%" },
        s("feDropShadow", { dx: 0, dy: 2.5, stdDeviation: 2.5, "flood-color": "#0b2a44", "flood-opacity": 0.55 })),
      s("clipPath", { id: "land-clip" }, (geo.islands || []).flatMap((isl) => (isl.outlines || []).map((r) => s("path", { d: smoothPath(r) }))))));

    // Seas: their areas, their borders (solid where two seas meet), the board's rim.
    const seas = s("g", { class: "seas" });
    const lands = s("g", { class: "lands", "clip-path": "url(#land-clip)" });
    this.areaEls = new Map();
    for (const a of geo.areas) {
      const d = a.polygons.map(ringPath).join("");
      // What the area holds is explained by the page's tooltip (hover, or tap): data-tip.
      const el = s("path", { d, class: `area ${a.kind}`, "data-area": a.id, "data-tip": `area:${a.id}` });
      el.addEventListener("click", (ev) => this.onArea && this.onArea(a.id, ev));
      el.addEventListener("keydown", (ev) => {
        if ((ev.key === "Enter" || ev.key === " ") && el.classList.contains("legal") && this.onArea) {
          ev.preventDefault();
          const p = this.areaPoint(a.id);
          this.onArea(a.id, { clientX: p.x, clientY: p.y, target: el, stopPropagation() {}, preventDefault() {} });
        }
      });
      (a.kind === "sea" ? seas : lands).append(el);
      this.areaEls.set(a.id, el);
    }
    const lines = { sea: [], rim: [], land: [] };
    for (const e of borders(geo.areas)) {
      const seg = `M${e.p[0]},${e.p[1]}L${e.q[0]},${e.q[1]}`;
      if (!e.b) lines.rim.push(seg);
      else if (e.a.kind === "sea" && e.b.kind === "sea") lines.sea.push(seg);
      else if (e.a.kind === "land" && e.b.kind === "land") lines.land.push(seg);
    }
    const seaLines = s("g", { class: "sea-lines", "aria-hidden": "true" },
      s("path", { d: lines.rim.join(""), class: "rim" }),
      s("path", { d: lines.sea.join(""), class: "sea-border" }));
    // Islands: shallows around them, the land, the borders between their areas.
    const islands = s("g", { class: "islands", "aria-hidden": "true" });
    for (const isl of geo.islands || []) {
      for (const ring of isl.outlines || []) {
        const d = smoothPath(ring);
        islands.append(s("path", { d, class: "shallows" }), s("path", { d, class: "island", filter: "url(#island-shadow)" }),
          s("path", { d, class: "island-hills" }));
      }
    }
    const landLines = s("path", { d: lines.land.join(""), class: "land-border", "clip-path": "url(#land-clip)", "aria-hidden": "true" });
    const links = s("g", { class: "links", "aria-hidden": "true" }, (geo.links || []).map((l) => {
      const [p, q] = l.points;
      return s("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: `link ${l.kind}` });
    }));
    // On top, the layers that change: tints, printed icons, pieces, names, marks, the overlay.
    this.tints = s("g", { class: "tints", "aria-hidden": "true" });
    this.landTints = s("g", { class: "land-tints", "clip-path": "url(#land-clip)" });
    this.tints.append(this.landTints);
    this.icons = s("g", { class: "icons" });
    this.pieces = s("g", { class: "pieces" });
    this.labels = s("g", { class: "labels", "aria-hidden": "true" });
    this.marks = s("g", { class: "marks" });
    this.underlay = s("g", { class: "board-underlay" });
    this.overlay = s("g", { class: "board-overlay" });
    // The names over the marks: a ring around a legal area (a wide glowing outline) crossed the
    // names near it, hiding letters of the very places a player is asked to choose between.
    svg.append(seas, seaLines, islands, lands, landLines, links, this.tints, this.underlay, this.icons, this.pieces, this.marks, this.labels, this.overlay);
    this.landD = new Map(geo.areas.filter((a) => a.kind === "land").map((a) => [a.id, smoothPath(a.outline && a.outline.length ? a.outline : a.polygons[0])]));
    this.dirty = true;
  }

  // --- sizes for the screen: zones, printed icons, names -----------------------------

  layout(scale, mode) {
    const R = this.R;
    this.layoutScale = scale;
    this.dirty = false;
    // A board drawn small (a phone) keeps more of each cell for the names.
    this.tokenSize = Math.max(0.5 * R, Math.min((mode === "panel" ? 0.62 : 0.52) * R, TOKEN_PX / scale));
    this.labelSize = Math.max(LABEL_PX[mode], Math.min(LABEL_MAX_PX, 0.3 * R * scale)) / scale;
    this.zones = new Map(this.geo.areas.map((a) => [a.id, zones(a, a.r || R, this.tokenSize * (a.r || R) / R)]));
    this.icons.replaceChildren();
    this.printed = [];
    for (const z of this.zones.values()) {
      for (const ic of z.icons) {
        if (ic.kind === "prosperity") continue;
        this.printed.push(ic);
        this.icons.append(ic.kind === "priestess" ? art.priestessIcon(ic.cx, ic.cy, ic.w) : art.volcano(ic.cx, ic.cy, ic.w));
      }
    }
    if (this.view) this.render(this.view, this.opts);
    else this.placeNames([]);
  }

  // Every area's name, clear of the others and of what stands on the board now (`taken`: the
  // boxes of the pieces, sites and tokens drawn, in board units).
  placeNames(taken) {
    const obstacles = this.printed.concat(taken);
    const placed = this.placed = placeLabels(this.geo.areas, this.R, this.labelSize, (t, kind) => this.measure(t, kind), obstacles, { w: this.geo.width, h: this.geo.height }, this.geo.islands);
    this.labels.replaceChildren();
    for (const a of this.geo.areas) {
      const l = placed.get(a.id);
      if (!l) continue;
      const text = s("text", { x: round(l.x), y: round(l.y), class: `label ${a.kind}`, "font-size": round(l.size), "data-area": a.id });
      l.lines.forEach((line, i) => text.append(s("tspan", { x: round(l.x), dy: i ? round(l.lh) : null }, line)));
      this.labels.append(text);
    }
  }

  // A name's width, ascent and height at font size 1, measured once in this page's font.
  measure(text, kind) {
    const key = `${kind}|${text}`;
    if (this.measured.has(key)) return this.measured.get(key);
    const probe = s("text", { class: `label ${kind}`, "font-size": 100, x: 0, y: 0 }, text);
    this.svg.append(probe);
    let m;
    try {
      const b = probe.getBBox();
      m = b.width > 0 ? { width: b.width / 100, ascent: -b.y / 100, height: b.height / 100 } : null;
    } catch (e) {
      m = null;
    }
    probe.remove();
    if (!m) return { width: 0.55 * text.length, ascent: 0.9, height: 1.15 }; // not drawn yet
    this.measured.set(key, m);
    return m;
  }

  // --- where things are on screen (for an animation layer) ------------------------------

  toScreen(p) {
    const m = this.svg.getScreenCTM();
    const q = this.svg.createSVGPoint();
    [q.x, q.y] = p;
    const r = q.matrixTransform(m);
    return { x: r.x, y: r.y };
  }

  fromScreen(x, y) {
    const m = this.svg.getScreenCTM().inverse();
    const q = this.svg.createSVGPoint();
    [q.x, q.y] = [x, y];
    const r = q.matrixTransform(m);
    return [r.x, r.y];
  }

  anchor(id) {
    const a = this.areas.get(id);
    return a ? a.anchor : null;
  }

  areaPoint(id) {
    const p = this.anchor(id);
    return p ? this.toScreen(p) : null;
  }

  pieceElements(id) {
    const g = this.pieces.querySelector(`g.area-pieces[data-area="${CSS.escape(id)}"]`);
    if (!g) return [];
    return [...g.querySelectorAll("[data-piece]")].map((el) => ({ kind: el.dataset.piece, id: el.dataset.id || null, el }));
  }

  pieceBox(id, kind, which = null) {
    const p = this.pieceElements(id).find((x) => x.kind === kind && (which === null || x.id === which));
    return p ? p.el.getBoundingClientRect() : null;
  }

  // --- the pieces of a view ---------------------------------------------------------------

  // view: the game view; opts: {legal: Set of area ids, origin, battle, attack, under}.
  render(view, opts = {}) {
    this.view = view;
    this.opts = opts;
    const legal = opts.legal || new Set();
    this.landTints.replaceChildren();
    [...this.tints.children].forEach((c) => c !== this.landTints && c.remove());
    this.pieces.replaceChildren();
    this.marks.replaceChildren();
    this.underlay.replaceChildren(...(opts.under ? opts.under(this) : []));
    const heroOwner = {};
    const creatureOwner = {};
    for (const pl of view.players || []) {
      for (const hero of pl.heroes || []) heroOwner[hero] = pl.index;
      for (const c of pl.creatures || []) creatureOwner[c] = pl.index;
    }
    // Miniatures by their own name (Scylla and Charybdis are two miniatures of one card).
    const card = {};
    for (const [mini, m] of Object.entries(view.miniatures || {})) {
      creatureOwner[mini] = m.owner;
      card[mini] = m.card || mini;
    }
    for (const [id, el] of this.areaEls) {
      const on = legal.has(id);
      el.classList.toggle("legal", on);
      // A choice is a button for the keyboard and a screen reader, named after its area.
      if (on) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", this.name(id));
      } else {
        for (const attr of ["tabindex", "role", "aria-label"]) el.removeAttribute(attr);
      }
    }
    const taken = [];
    for (const st of view.areas || []) {
      const a = this.areas.get(st.id);
      if (!a) continue;
      if (st.owner >= 0) {
        const d = this.areaEls.get(st.id).getAttribute("d");
        (a.kind === "land" ? this.landTints : this.tints).append(s("path", { d, class: `tint ${a.kind}`, fill: colour(st.owner) }));
      }
      const attack = opts.attack && opts.attack.area === st.id ? opts.attack : null;
      taken.push(...this.drawArea(a, st, heroOwner, creatureOwner, card, attack));
    }
    this.placeNames(taken);
    for (const id of legal) this.mark(id, "legal-ring", _("You may choose this area"));
    if (opts.origin) this.mark(opts.origin, "origin", _("Moving from here"));
    if (opts.battle) this.mark(opts.battle, "battle", "Battle!");
  }

  // The outline of an area for a mark drawn around it: a land area's follows its coast.
  outline(id) {
    return this.landD.get(id) || (this.areaEls.get(id) && this.areaEls.get(id).getAttribute("d")) || "";
  }

  mark(id, cls, text) {
    if (!this.areas.has(id)) return null;
    const el = s("path", { d: this.outline(id), class: `mark ${cls}`, "data-area": id }, s("title", {}, text));
    this.marks.append(el);
    return el;
  }

  // Draws what stands in an area; returns the boxes it takes (board units).
  drawArea(a, st, heroOwner, creatureOwner, card, attack) {
    const z = this.zones.get(a.id);
    const taken = [];
    const take = (x, y, w, h) => taken.push({ x: x - w / 2, y: y - h / 2, w, h });
    const g = s("g", { class: "area-pieces", "data-area": a.id });
    const owner = st.owner;
    const tokens = [];
    const add = (list, kind, id, make) => list.push({ kind, id, make });
    if (a.kind === "land") {
      if (st.troops) add(tokens, "troop", null, (x, y, k) => art.troop(x, y, k, owner, st.troops, false));
      if (st.mercs) add(tokens, "merc", null, (x, y, k) => art.troop(x, y, k, owner, st.mercs, true));
      for (const hero of st.heroes || []) add(tokens, "hero", hero, (x, y, k) => art.hero(x, y, k, heroOwner[hero] ?? owner, hero));
      const units = (st.troops || 0) + (st.mercs || 0) + (st.heroes || []).length;
      if (!units && owner >= 0 && !attack) add(tokens, "control", null, (x, y, k) => art.control(x, y, k, owner));
    } else if (st.fleets) {
      add(tokens, "fleet", null, (x, y, k) => art.fleet(x, y, k, owner, st.fleets));
    }
    for (const c of st.creatures || []) add(tokens, "creature", c, (x, y, k) => art.creature(x, y, k, c, card[c] || c, creatureOwner[c] ?? -1));
    const foot = z.icons.find((ic) => ic.kind === "prosperity");
    if (st.prosperity && !foot) add(tokens, "prosperity", null, (x, y, k) => art.prosperity(x, y, k * 0.75, st.prosperity));
    if (a.kind === "sea" && a.cornucopias) add(tokens, "cornucopia", null, (x, y, k) => art.cornucopia(x, y, k * 0.8, a.cornucopias));
    // In a battle the attacker's units stand in the area too, in a row above the defender's.
    const raiders = [];
    if (attack) {
      const p = attack.player;
      if (attack.troops) add(raiders, "troop", null, (x, y, k) => art.troop(x, y, k, p, attack.troops, false));
      if (attack.mercs) add(raiders, "merc", null, (x, y, k) => art.troop(x, y, k, p, attack.mercs, true));
      for (const hero of attack.heroes || []) add(raiders, "hero", hero, (x, y, k) => art.hero(x, y, k, p, hero));
      if (attack.fleets) add(raiders, "fleet", null, (x, y, k) => art.fleet(x, y, k, p, attack.fleets));
    }
    const put = (list, zone, cls) => rowOf(zone, list.length, zone.h).forEach((spot, i) => {
      const t = list[i];
      const el = t.make(spot.x, spot.y, spot.size);
      take(spot.x, spot.y, spot.size * 1.12, spot.size * 1.12); // a plate may stand out a little
      el.dataset.piece = t.kind;
      if (t.id) el.dataset.id = t.id;
      if (cls) el.classList.add(cls);
      g.append(el);
    });
    if (st.prosperity && foot) {
      const el = art.prosperity(foot.cx, foot.cy, foot.w * 0.9, st.prosperity);
      take(foot.cx, foot.cy, foot.w, foot.h);
      el.dataset.piece = "prosperity";
      g.append(el);
    }
    // Many pieces in one area: their row grows past the cell rather than shrink them.
    const many = Math.max(tokens.length, raiders.length);
    const zone = { ...z.tokens, w: Math.max(z.tokens.w, Math.min(many * z.tokens.h * 1.08, 2.3 * this.R)) };
    if (raiders.length) {
      const half = zone.h / 2;
      put(raiders, { ...zone, h: half, cy: zone.cy - half / 2 }, "attacker");
      put(tokens, { ...zone, h: half, cy: zone.cy + half / 2 }, "defender");
    } else {
      put(tokens, zone, null);
    }
    // Building sites and buildings in a row, the printed Cornucopia at its end; a Metropolis
    // takes the room of two sites.
    if (z.sites) {
      const blds = st.buildings || [];
      // Several Metropolises can stand on one area: the row shrinks to stay in its place.
      const wanted = (a.sites || []).reduce((n, _, i) => n + (blds[i] === "metropolis" ? 2.1 : 1.1), 0) + (a.cornucopias ? 1.2 : 0);
      const S = Math.min(z.sites.site, z.sites.w / wanted);
      const widths = (a.sites || []).map((_site, i) => (blds[i] === "metropolis" ? 2.1 : 1.1) * S);
      const horn = a.cornucopias ? 1.2 * S : 0;
      const total = widths.reduce((x, y) => x + y, 0) + horn;
      let x = z.sites.cx - total / 2;
      const y = z.sites.cy;
      take(z.sites.cx, y, total, 1.3 * S);
      widths.forEach((w, i) => {
        const b = blds[i] || "";
        const mid = x + w / 2;
        x += w;
        if (!b) g.append(art.emptySite(mid, y, S * 0.92));
        else {
          const el = b === "metropolis" ? art.metropolis(mid, y, S * 0.95, owner) : art.building(mid, y, S * 0.98, b, owner);
          el.dataset.piece = "building";
          el.dataset.id = b;
          g.append(el);
        }
      });
      if (a.cornucopias) g.append(art.cornucopia(x + horn / 2, y, S * 1.05, a.cornucopias));
    }
    this.pieces.append(g);
    return taken;
  }
}

