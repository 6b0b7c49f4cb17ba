// Where things go on the board: pure geometry, no drawing.
//
// The server sends the board's cells (GET /api/games/{id}/board: hexagons of `hex_size`
// units, one per cell, grouped into areas). Here the board is
// - turned to fit its panel (any multiple of 30 degrees: the one that draws it largest),
// - given zones: in every area, where its pieces stand (a row of tokens) and where its
//   building sites and printed icons are, sized for the screen,
// - labelled: every area's name is placed where it overlaps no other name and no zone,
//   inside its own area and off the other islands where it can, on two lines or a little
//   smaller where it must.

const rnd = (x) => Math.round(x * 100) / 100;

function polygonCentre(poly) {
  let x = 0;
  let y = 0;
  for (const p of poly) {
    x += p[0];
    y += p[1];
  }
  return [x / poly.length, y / poly.length];
}

// The board turned by `deg` degrees about its middle, moved so that it starts at (margin, margin).
// Every area gets `cells` (the centres of its hexagons, turned) and `anchor`: the cell its
// pieces stand on (for an area of several cells, the one nearest their middle).
export function orient(geo, deg) {
  const t = (deg * Math.PI) / 180;
  const [c, sn] = [Math.cos(t), Math.sin(t)];
  const turn = (p) => [p[0] * c - p[1] * sn, p[0] * sn + p[1] * c];
  const R = geo.hex_size || 40;
  const margin = 0.12 * R;
  const all = geo.areas.flatMap((a) => (a.polygons && a.polygons.length ? a.polygons : [a.outline || []]).flat().map(turn));
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, y0] = [Math.min(...xs) - margin, Math.min(...ys) - margin];
  const move = (p) => {
    const q = turn(p);
    return [rnd(q[0] - x0), rnd(q[1] - y0)];
  };
  const ring = (r) => (r || []).map(move);
  const areas = geo.areas.map((a) => {
    const polygons = (a.polygons && a.polygons.length ? a.polygons : [a.outline]).map(ring);
    const cells = polygons.map(polygonCentre);
    const mid = polygonCentre(cells);
    const anchor = cells.reduce((best, p) => (Math.hypot(p[0] - mid[0], p[1] - mid[1]) < Math.hypot(best[0] - mid[0], best[1] - mid[1]) - 0.01 ? p : best), cells[0]);
    return { ...a, polygons, outline: ring(a.outline), cells, anchor, centre: anchor.map(rnd) };
  });
  return {
    ...geo,
    deg,
    R,
    width: rnd(Math.max(...xs) - Math.min(...xs) + 2 * margin),
    height: rnd(Math.max(...ys) - Math.min(...ys) + 2 * margin),
    areas,
    islands: (geo.islands || []).map((i) => ({ ...i, outlines: (i.outlines || []).map(ring) })),
    tiles: (geo.tiles || []).map((tl) => ({ ...tl, outline: ring(tl.outline) })),
    links: (geo.links || []).map((l) => ({ ...l, points: ring(l.points) })),
  };
}

// The turn that draws the board largest in a panel of w x h (0, 30, ..., 150 degrees: the
// others draw the same box). A turn must gain 6% to be taken over the board as it comes.
export function bestAngle(geo, w, h) {
  const pts = geo.areas.flatMap((a) => (a.polygons && a.polygons.length ? a.polygons : [a.outline || []]).flat());
  let best = { deg: 0, scale: 0 };
  for (const deg of [0, 90, 30, 60, 120, 150]) {
    const t = (deg * Math.PI) / 180;
    const [c, sn] = [Math.cos(t), Math.sin(t)];
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const p of pts) {
      const x = p[0] * c - p[1] * sn;
      const y = p[0] * sn + p[1] * c;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    const scale = Math.min(w / (x1 - x0), h / (y1 - y0));
    if (scale > best.scale * (best.deg === 0 && deg !== 0 ? 1.06 : 1.0001)) best = { deg, scale };
  }
  return best.deg;
}

// A coast: the ring of hexagon corners rounded off (each corner becomes a curve through the
// middles of its two edges), so that an island looks like an island and still touches every
// sea it borders along the middle of their shared edge.
export function smoothPath(ring) {
  if (!ring || ring.length < 3) return "";
  const mid = (a, b) => [rnd((a[0] + b[0]) / 2), rnd((a[1] + b[1]) / 2)];
  const n = ring.length;
  let d = `M${mid(ring[n - 1], ring[0]).join(",")}`;
  for (let i = 0; i < n; i++) {
    const p = ring[i];
    const m = mid(p, ring[(i + 1) % n]);
    d += `Q${p[0]},${p[1]} ${m[0]},${m[1]}`;
  }
  return d + "Z";
}

// On a board of small isles far apart (the classic board) each isle is drawn larger than its
// cell, out into the sea around it: 1 elsewhere. The isle still borders the same seas.
export function isleGrowth(areas) {
  const lands = areas.filter((a) => a.kind === "land");
  const islands = new Set(lands.map((a) => a.island));
  const cells = (kind) => areas.filter((a) => a.kind === kind).reduce((n, a) => n + a.cells.length, 0);
  return lands.length && islands.size === lands.length && cells("sea") >= 3 * cells("land") ? 1.3 : 1;
}

export function grow(ring, centre, k) {
  return ring.map((p) => [rnd(centre[0] + (p[0] - centre[0]) * k), rnd(centre[1] + (p[1] - centre[1]) * k)]);
}

// Borders between two areas (an edge of a hexagon shared by cells of different areas) and the
// board's rim (an edge no other cell shares): [{a, b, p, q}], b null on the rim.
export function borders(areas) {
  const key = (p) => `${Math.round(p[0] * 4)},${Math.round(p[1] * 4)}`;
  const edges = new Map();
  for (const a of areas) {
    for (const poly of a.hexes || a.polygons) {
      for (let i = 0; i < poly.length; i++) {
        const p = poly[i];
        const q = poly[(i + 1) % poly.length];
        const k = [key(p), key(q)].sort().join("|");
        const e = edges.get(k);
        if (e) e.b = a;
        else edges.set(k, { a, b: null, p, q });
      }
    }
  }
  return [...edges.values()].filter((e) => e.a !== e.b);
}

// --- zones: where pieces, sites and icons stand in an area ------------------------------

// R: a cell's radius; T: the size of a token (both in board units).
export function zones(area, R, T) {
  const [cx, cy] = area.anchor;
  const out = { tokens: null, sites: null, icons: [] };
  if (area.kind === "land") {
    const sites = (area.sites || []).length;
    const horn = area.cornucopias ? 1 : 0;
    const room = 1.5 * R;
    // Room for a Metropolis too: it takes the place of two sites.
    const metro = sites ? 1.0 : 0;
    const site = Math.min(0.3 * R, room / (sites * 1.1 + metro + horn * 1.2 || 1));
    const width = (sites * 1.1 + metro + horn * 1.2) * site;
    out.tokens = box(cx, cy - 0.06 * R, Math.min(1.7 * R, 3.3 * T), T);
    if (sites || horn) out.sites = { ...box(cx, cy + 0.5 * R, width, site * 1.3), site };
    // At the cell's foot: the printed icons, and the place of Prosperity tokens (any land may
    // get some, so the place is kept free of names on every land).
    const icons = [area.priestess && "priestess", area.volcano && "volcano", "prosperity"].filter(Boolean);
    const icon = 0.3 * R;
    icons.forEach((kind, i) => out.icons.push({ kind, ...box(cx + (i - (icons.length - 1) / 2) * icon * 1.15, cy + 0.8 * R, icon, icon) }));
  } else {
    const extra = (area.cornucopias ? 1 : 0);
    out.tokens = box(cx, cy, Math.min(1.6 * R, (2.3 + extra) * T), T);
  }
  return out;
}

function box(x, y, w, h) {
  return { x: rnd(x - w / 2), y: rnd(y - h / 2), w: rnd(w), h: rnd(h), cx: rnd(x), cy: rnd(y) };
}

// Positions of n tokens in a row inside a zone: [{x, y, size}] (smaller when many).
export function rowOf(zone, n, T) {
  if (!n) return [];
  const gap = 0.08 * T;
  const size = Math.min(T, (zone.w - (n - 1) * gap) / n);
  return Array.from({ length: n }, (_, i) => ({ x: rnd(zone.cx + (i - (n - 1) / 2) * (size + gap)), y: zone.cy, size: rnd(size) }));
}

// --- labels ----------------------------------------------------------------------------

// Ways to write a name: one line, or two lines split at the space that balances them best.
function splits(name) {
  const out = [[name]];
  const words = name.split(" ");
  if (words.length > 1) {
    let best = null;
    for (let i = 1; i < words.length; i++) {
      const a = words.slice(0, i).join(" ");
      const b = words.slice(i).join(" ");
      const worst = Math.max(a.length, b.length);
      if (!best || worst < best.worst) best = { worst, lines: [a, b] };
    }
    out.push(best.lines);
  }
  return out;
}

const overlap = (a, b) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

// Whether point p lies inside a ring (even-odd rule).
function inside(p, ring) {
  let odd = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [a, b] = [ring[i], ring[j]];
    if ((a[1] > p[1]) !== (b[1] > p[1]) && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) odd = !odd;
  }
  return odd;
}

// The share of a box that lies on another island than `area`'s own (a sea's name: on any
// island), from a grid of points in it: a name across a coast is hard to read and hides the
// glowing ring of an island the player may be choosing.
function onOtherIslands(box, area, islands) {
  const near = islands.filter((isl) => !isl.areas.has(area.id) && isl.x0 < box.x + box.w && isl.x1 > box.x && isl.y0 < box.y + box.h && isl.y1 > box.y);
  if (!near.length) return 0;
  let on = 0;
  for (let i = 0; i < 5; i++) {
    for (let j = 0; j < 3; j++) {
      const p = [box.x + ((i + 0.5) / 5) * box.w, box.y + ((j + 0.5) / 3) * box.h];
      if (near.some((isl) => isl.rings.some((ring) => inside(p, ring)))) on++;
    }
  }
  return on / 15;
}

// Label every area. measure(text, kind) -> {width, ascent, height} of the text at font size 1
// (board units per unit of size); size: the font size (board units) of a land name (sea names
// are a little smaller); obstacles: boxes to keep clear; bounds: {w, h}; islands: the board's
// islands ({areas: [ids], outlines: [rings]}), which a name had better not cross. Returns
// Map id -> {x, y (the first line's baseline), lines, size, box}.
export function placeLabels(areas, R, size, measure, obstacles, bounds, islands = []) {
  const pad = 0.05 * size;
  const hardCost = (b) => {
    let hard = 0;
    for (const o of obstacles) hard += overlap(b, o);
    return hard + b.w * b.h - overlap(b, { x: 0, y: 0, w: bounds.w, h: bounds.h });
  };
  const isles = islands.map((isl) => {
    const points = (isl.outlines || []).flat();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return { areas: new Set(isl.areas), rings: isl.outlines || [], x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
  });
  // The places to try for an area's name: spots near its cells, one or two lines, full size or
  // a little smaller; each with a cost (far from its cells, two lines, smaller: dearer).
  const candidatesOf = (a, spots, shrinks) => {
    const fontSize = a.kind === "land" ? size : size * 0.92;
    const list = [];
    for (const lines of splits(a.name)) {
      const m = lines.map((t) => measure(t, a.kind));
      for (const shrink of shrinks) {
        const fs = fontSize * shrink;
        const w = Math.max(...m.map((x) => x.width)) * fs + 2 * pad;
        const lh = m[0].height * fs;
        const h = lh * lines.length + 2 * pad;
        for (const spot of spots) {
          const b = { x: spot.x - w / 2, y: spot.y - h / 2, w, h };
          const near = Math.min(...a.cells.map((c) => Math.hypot(c[0] - spot.x, c[1] - spot.y)));
          const r = a.r || R;
          // (Below 70% only where nothing larger is free: a smaller name is harder to read
          // than one across a coast.)
          const smaller = (1 - shrink) * 6 + Math.max(0, 0.7 - shrink) * 40;
          const hard = hardCost(b);
          // (The coasts are counted only where the place is free: elsewhere it is a last resort.)
          const coasts = hard <= 0.01 ? onOtherIslands(b, a, isles) * 8 : 0;
          const cost = spot.pref + (lines.length - 1) * 0.35 + smaller + (Math.max(0, near - 0.75 * r) / r) * 1.5 + coasts;
          list.push({ box: b, lines, size: fs, x: spot.x, y: spot.y - h / 2 + pad + m[0].ascent * fs, lh, cost, hard });
        }
      }
    }
    return list;
  };
  const candidates = new Map();
  for (const a of areas) {
    const land = a.kind === "land";
    const spots = [];
    a.cells.forEach((cell, i) => {
      const offsets = land
        ? [[0, -0.64], [0, -0.78], [0, -0.96], [-0.25, -0.66], [0.25, -0.66], [0, 1.02], [-1.0, 0], [1.0, 0], [-0.8, -0.5], [0.8, -0.5], [-0.8, 0.5], [0.8, 0.5]]
        : cell === a.anchor
          ? [[0, 0.6], [0, -0.6], [0, 0.74], [0, -0.74], [-0.4, 0.5], [0.4, 0.5], [-0.4, -0.5], [0.4, -0.5], [0, 0.9], [0, -0.9]]
          : [[0, 0], [0, 0.3], [0, -0.3], [-0.3, 0], [0.3, 0], [0, 0.6], [0, -0.6]];
      const r = a.r || R;
      offsets.forEach(([dx, dy], j) => spots.push({ x: cell[0] + dx * r, y: cell[1] + dy * r, pref: i * 0.4 + j * 0.12 }));
    });
    candidates.set(a.id, candidatesOf(a, spots, [1, 0.9, 0.8, 0.7]));
  }
  // Where none of those is free: anywhere on a fine grid around the area, down to 60%.
  const fallback = (a) => {
    const spots = [];
    for (const cell of a.cells) {
      for (let dx = -1.2; dx <= 1.21; dx += 0.15) {
        for (let dy = -1.2; dy <= 1.21; dy += 0.1) spots.push({ x: cell[0] + dx * (a.r || R), y: cell[1] + dy * (a.r || R), pref: 1 + Math.hypot(dx, dy) });
      }
    }
    return candidatesOf(a, spots, [1, 0.85, 0.7, 0.6, 0.5]);
  };
  // Greedy, the most constrained first: the area with the fewest free places takes its best
  // one, and the places it covers are no longer free for the others.
  for (const list of candidates.values()) for (const c of list) c.free = c.hard <= 0.01;
  const placed = new Map();
  const boxes = [];
  const open = new Set(areas.map((a) => a.id));
  while (open.size) {
    let pick = null;
    for (const id of open) {
      const list = candidates.get(id);
      let count = 0;
      for (const c of list) count += c.free ? 1 : 0;
      if (!pick || count < pick.count) pick = { id, count, list };
    }
    let choice;
    if (!pick.count) {
      const more = fallback(areas.find((a) => a.id === pick.id)).filter((c) => c.hard <= 0.01 && boxes.every((b) => overlap(c.box, b) <= 0.01));
      if (more.length) {
        for (const c of more) c.free = true;
        pick.list = more;
        pick.count = more.length;
      }
    }
    if (pick.count) choice = pick.list.filter((c) => c.free).reduce((a, b) => (b.cost < a.cost ? b : a));
    else {
      const clash = (c) => c.hard + boxes.reduce((sum, b) => sum + overlap(c.box, b), 0);
      choice = pick.list.reduce((a, b) => (clash(b) + b.cost < clash(a) + a.cost ? b : a));
      choice = { ...choice, clash: clash(choice) };
    }
    placed.set(pick.id, choice);
    boxes.push(choice.box);
    open.delete(pick.id);
    for (const id of open) for (const c of candidates.get(id)) if (c.free && overlap(c.box, choice.box) > 0.01) c.free = false;
  }
  return placed;
}
