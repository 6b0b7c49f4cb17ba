// What others do, you see: the decisions the server reports with each new state (their
// engine events, docs/events.md) played on the board before the new position is drawn.
// Units travel from area to area, a battle rolls its dice and loses its units round by round,
// buildings, Metropolises, creatures and heroes appear where they are placed, GP float up by
// the player who gains or pays them; above the board, a caption tells the move in words.
// A speed setting (kept in localStorage) and Skip; nothing is animated in a hidden tab.
// The board is asked where things are (board.js: anchor, outline, overlay, tokenSize), never
// redrawn here; the pieces that travel or appear are the board's own figures (board-art.js).
import * as art from "./board-art.js";
import { _, BUILDINGS, cardName, colour, godName, h, ink, seatName, svg } from "./common.js";

const SPEED_KEY = "cyclades.animationSpeed";
export const SPEEDS = { slow: 1.7, normal: 1, fast: 0.45, off: 0 };
export const SPEED_NAMES = { slow: _("Moves: slow"), normal: _("Moves: normal"), fast: _("Moves: fast"), off: _("Moves: off") };
// What the page animates of its own player's decisions: what chance decided, not their clicks.
const OWN = new Set(["battle", "round", "casualty", "retreat", "escaped", "battle_won", "battle_held", "side_destroyed",
  "hector", "reroll", "metropolis", "metropolis_lost", "eliminated", "game_over", "cycle", "income", "gp", "graeae"]);
const PAYS = { paid: "amount", recruited: "cost", land_move: "cost", sea_move: "cost", creature_bought: "cost",
  hero_recruited: "cost", creature_swapped: "cost", paid_for_power: "amount", reroll: "cost" };
const BEHIND = 8; // more moves than this waiting: play faster to catch up

const ease = (t) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

export class Animator {
  // host: {board(), seats(), isMe(p), panelOf(p), stage()}: the board view, the seats, whether
  // p is the page's own player, p's card in the players' row, the element over the board.
  constructor(host) {
    this.host = host;
    this.queue = []; // [{moves, apply}]
    this.running = false;
    this.skipping = false;
    this.timers = new Set();
    this.stats = { moves: 0, events: {}, skips: 0 }; // what was played, skips done (the tests read it)
    let speed = null;
    try {
      speed = localStorage.getItem(SPEED_KEY);
    } catch (e) { /* private mode */ }
    const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    this.speedName = speed in SPEEDS ? speed : reduced ? "off" : "normal";
    this.listeners = [];
  }

  get speed() {
    return this.speedName;
  }

  set speed(name) {
    if (!(name in SPEEDS)) return;
    this.speedName = name;
    try {
      localStorage.setItem(SPEED_KEY, name);
    } catch (e) { /* the setting lasts this page only */ }
    if (name === "off") this.skip();
    this.changed();
  }

  get busy() {
    return this.running || this.queue.length > 0;
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  changed() {
    for (const fn of this.listeners) fn(this);
  }

  // A new state: `apply` draws it; `moves` are the decisions that led there. Applied at once
  // when there is nothing to play; else after what is queued before it.
  push(moves, apply) {
    const playable = this.factor() > 0 && !document.hidden && (moves || []).some((m) => this.eventsOf(m).length);
    if (!playable && !this.busy) {
      apply();
      return;
    }
    this.queue.push({ moves: playable ? moves : [], apply });
    if (!this.running) this.run();
  }

  // Everything queued is drawn at once.
  skip() {
    if (!this.busy) return;
    this.skipping = true;
    for (const done of this.timers) done();
    this.timers.clear();
  }

  factor() {
    const f = SPEEDS[this.speedName] ?? 1;
    const waiting = this.queue.reduce((n, x) => n + x.moves.length, 0);
    return waiting > BEHIND ? f * 0.5 : f;
  }

  async run() {
    this.running = true;
    this.changed();
    try {
      while (this.queue.length) {
        const item = this.queue.shift();
        for (const move of item.moves) {
          if (this.skipping) break;
          await this.playMove(move);
        }
        item.apply();
        this.clear();
      }
    } finally {
      this.running = false;
      if (this.skipping) this.stats.skips += 1;
      this.skipping = false;
      this.clear();
      this.changed();
    }
  }

  // --- timing ------------------------------------------------------------------------

  wait(ms) {
    if (this.skipping || document.hidden) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(id);
        this.timers.delete(done);
        resolve();
      };
      const id = setTimeout(done, ms * this.factor());
      this.timers.add(done);
    });
  }

  // fn(t) for t from 0 to 1 over ms (scaled by the speed); at once when skipping.
  tween(ms, fn) {
    const total = ms * this.factor();
    if (this.skipping || document.hidden || total <= 0) {
      fn(1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const start = performance.now();
      let stopped = false;
      const done = () => {
        if (stopped) return;
        stopped = true;
        this.timers.delete(done);
        fn(1);
        resolve();
      };
      this.timers.add(done);
      const step = (now) => {
        if (stopped) return;
        const t = Math.min(1, (now - start) / total);
        fn(t);
        if (t >= 1) done();
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
  }

  // --- a decision ----------------------------------------------------------------------

  eventsOf(move) {
    const own = this.host.isMe(move.player);
    return (move.events || []).filter((e) => !own || OWN.has(e.type));
  }

  layer() {
    return this.host.board().overlay; // made anew when the board turns: asked for each time
  }

  clear() {
    const board = this.host.board();
    if (board) this.layer().replaceChildren();
    const stage = this.host.stage();
    if (stage) stage.replaceChildren();
  }

  async playMove(move) {
    const events = this.eventsOf(move);
    if (!events.length) return;
    this.stats.moves += 1;
    this.caption(move);
    const ctx = { move, battles: {}, travelled: new Set() };
    // A move into a battle has no `moved` event: its land_move / sea_move shows the journey.
    for (const e of events) if (e.type === "moved") ctx.travelled.add(`${e.origin}>${e.destination}`);
    for (const e of events) {
      if (this.skipping) return;
      this.stats.events[e.type] = (this.stats.events[e.type] || 0) + 1;
      await this.playEvent(e, ctx);
    }
    await this.wait(250);
    this.layer().replaceChildren();
  }

  caption(move) {
    const stage = this.host.stage();
    if (!stage) return;
    const lines = (move.lines || []).slice(-3); // the end of a long move: where it is now
    // Above the board, or below it when the move happens in the board's upper half.
    const board = this.host.board();
    const first = (move.events || []).map((e) => e.destination || e.area || e.origin).find((id) => id && board.anchor(id));
    const upper = first && board.anchor(first)[1] < (board.geo.height || 0) / 2;
    stage.classList.toggle("at-bottom", !!upper);
    stage.replaceChildren(h("div", { class: "anim-caption", role: "status" },
      h("span", { class: "chip", style: { background: colour(move.player), color: ink(move.player) } }, seatName(this.host.seats(), move.player)),
      h("span", { class: "anim-lines" }, lines.length ? lines.map((l) => h("span", { class: "anim-line" }, l)) : "…"),
      h("button", { type: "button", id: "anim-skip", class: "small secondary anim-skip", onclick: () => this.skip(), title: _("Draw the board as it is now (Escape)") }, _("Skip »"))));
  }

  async playEvent(e, ctx) {
    const p = e.player;
    if (PAYS[e.type] && e[PAYS[e.type]]) this.purse(p, -e[PAYS[e.type]]);
    switch (e.type) {
      case "moved":
      case "displaced":
        return this.travel(e.origin, e.destination, this.units(e.fleets && !e.troops && !e.mercs ? "fleet" : "troop", p,
          (e.troops || 0) + (e.mercs || 0) + (e.fleets || 0) + (e.heroes || []).length), p);
      case "land_move":
      case "sea_move":
        if (ctx.travelled.has(`${e.origin}>${e.destination}`)) return null;
        return this.travel(e.path && e.path.length ? [e.origin, ...e.path] : e.origin, e.destination,
          this.units(e.type === "sea_move" ? "fleet" : "troop", p, e.fleets || ""), p);
      case "pegasus":
      case "perseus":
      case "retreat":
      case "escaped":
        return this.travel(e.origin, e.destination, this.units("troop", p, ""), p);
      case "prosperity_moved":
        return this.travel(e.origin, e.destination, art.prosperity(0, 0, this.size(), 1), p);
      case "troop":
      case "merc":
      case "fleet":
        return this.pop(e.area, this.units(e.type === "fleet" ? "fleet" : e.type, p, `+${e.count}`));
      case "built":
        return this.pop(e.area, art.building(0, 0, this.size(), e.building, p));
      case "metropolis":
        await this.ring(e.area, "#7b3fa0", 3);
        return this.pop(e.area, art.metropolis(0, 0, 1.6 * this.size(), p), _("Metropolis!"));
      case "demolished":
        return this.float(e.area, `− ${(BUILDINGS[e.building] || { name: e.building }).name}`, "#fff");
      case "prosperity":
        return this.pop(e.area, art.prosperity(0, 0, this.size(), 1));
      case "control":
        return this.ring(e.area, colour(p), 1);
      case "hero_placed":
        return this.pop(e.area, art.hero(0, 0, this.size(), p, e.hero), cardName(e.hero));
      case "creature_placed":
        return this.pop(e.area, art.creature(0, 0, this.size(), e.card, e.card, p), cardName(e.card));
      case "creature_moved":
        return this.float(e.area, cardName(e.card), "#f0e4ff");
      case "creature_slain":
        return this.float(e.area, `✝ ${cardName(e.card)}`, "#fff");
      case "battle":
        ctx.battles[e.area] = [e.attacker, e.defender];
        return this.ring(e.area, "#ff3b2f", 2);
      case "round":
        return this.dice(e, ctx.battles[e.area]);
      case "casualty":
        return this.float(e.area, `−1 ${unitName(e.unit)}`, colour(p), true);
      case "destroyed":
        return this.float(e.area, `−${e.count} ${unitName(e.unit, e.count)}`, "#fff", true);
      case "battle_won":
      case "battle_held":
        return this.ring(e.area, colour(p), 2);
      case "gp":
        this.purse(p, e.amount);
        return null;
      case "geryon_gp":
        return this.float(e.area, `+${e.amount} GP`, "#ffe17a");
      case "offering":
        return this.god(e.god, p, e.amount);
      case "cycle":
        return this.banner(`Cycle ${e.cycle}`);
      case "game_over":
        return this.banner(_("The game is over"));
      default:
        return null;
    }
  }

  // --- on the board ----------------------------------------------------------------------

  point(id) {
    return this.host.board().anchor(id);
  }

  // The scale of what is drawn here against the board: 1 where a piece is 24 units wide.
  scale() {
    return this.size() / 24;
  }

  // The same for words and dice, never below 1 screen pixel a unit (a board drawn small, on a
  // phone, still shows 13 px words and dice one can read).
  textScale() {
    return Math.max(this.scale(), 1 / (this.host.board().scale || 1));
  }

  size() {
    return this.host.board().tokenSize || 24;
  }

  // Troops (or mercenaries) or Fleets with their count (a number, "+2", or "" for none).
  units(kind, p, n) {
    return kind === "fleet" ? art.fleet(0, 0, this.size(), p, n) : art.troop(0, 0, this.size(), p, n, kind === "merc");
  }

  // A figure of board-art.js (drawn at 0, 0) to be moved about, named by its kind ("piece
  // troop": troop, "building fortress": building, "prosperity").
  piece(figure) {
    const c = figure.classList;
    const kind = c.contains("piece") ? c[1] : c[0];
    return svg("g", { class: `anim-piece anim-${kind}`, "aria-hidden": "true" }, figure);
  }

  // Units travel from an area (or along a list of areas) to another.
  async travel(from, to, figure, p) {
    const route = (Array.isArray(from) ? from : [from]).concat([to]).map((id) => this.point(id)).filter(Boolean);
    if (route.length < 2) return;
    const piece = this.piece(figure);
    const trail = svg("polyline", { class: "anim-trail", points: route.map((q) => q.join(",")).join(" "), stroke: colour(p) });
    this.layer().append(trail, piece);
    const legs = [];
    let total = 0;
    for (let i = 1; i < route.length; i++) {
      const d = Math.hypot(route[i][0] - route[i - 1][0], route[i][1] - route[i - 1][1]);
      legs.push(d);
      total += d;
    }
    await this.tween(650 + 120 * (route.length - 2), (t) => {
      let left = ease(t) * total;
      let i = 0;
      while (i < legs.length - 1 && left > legs[i]) left -= legs[i++];
      const f = legs[i] ? Math.min(1, left / legs[i]) : 1;
      const x = route[i][0] + (route[i + 1][0] - route[i][0]) * f;
      const y = route[i][1] + (route[i + 1][1] - route[i][1]) * f;
      piece.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    });
  }

  // Something placed: it grows in its area, with a word under it if given.
  async pop(area, figure, word = null) {
    const at = this.point(area);
    if (!at) return;
    const piece = this.piece(figure);
    const k = this.textScale();
    const label = word ? svg("text", { class: "anim-word", x: at[0], y: at[1] + 22 * k, "font-size": 11 * k, "stroke-width": 3 * k }, word) : null;
    this.layer().append(piece, label);
    await this.tween(420, (t) => {
      const s = 0.3 + 0.9 * Math.sin(Math.min(1, t) * Math.PI * 0.62) / Math.sin(Math.PI * 0.62);
      piece.setAttribute("transform", `translate(${at[0]},${at[1]}) scale(${(t < 1 ? s : 1).toFixed(3)})`);
    });
    await this.wait(word ? 420 : 160);
  }

  // An area's outline flashes (a battle, a new controller, a Metropolis).
  async ring(area, stroke, times) {
    const d = this.host.board().outline(area);
    if (!d) return;
    const ring = svg("path", { d, class: "anim-ring", stroke });
    this.layer().append(ring);
    await this.tween(380 * times, (t) => ring.setAttribute("stroke-opacity", (0.35 + 0.65 * Math.abs(Math.cos(t * Math.PI * times))).toFixed(2)));
  }

  // Words rising from an area (a loss, a creature's deed); `stay`: slower, for losses.
  async float(area, text, fill, stay = false) {
    const at = this.point(area);
    if (!at) return;
    const k = this.textScale();
    const el = svg("text", { class: "anim-float", x: at[0], y: at[1], fill, "font-size": 13 * k, "stroke-width": 3 * k }, text);
    this.layer().append(el);
    await this.tween(stay ? 800 : 600, (t) => {
      el.setAttribute("y", (at[1] - 6 * k - 16 * k * t).toFixed(1));
      el.setAttribute("opacity", (t < 0.75 ? 1 : 1 - (t - 0.75) * 4).toFixed(2));
    });
  }

  // A battle round: each side's die and total above the area, on a dark plate, the loser's
  // side dimmed.
  async dice(e, sides) {
    const at = this.point(e.area);
    if (!at) return;
    const [att, dfd] = sides || [null, null];
    const k = this.textScale();
    const [da, dd] = e.dice || [0, 0];
    const [sa, sd] = e.strength || [da, dd];
    const die = (x, p, value, total, lost) => svg("g", { class: `anim-die${lost ? " lost" : ""}`, transform: `translate(${x},0)` },
      svg("rect", { x: -12, y: -12, width: 24, height: 24, rx: 5, fill: p === null ? "#fff" : colour(p), stroke: "#fff", "stroke-width": 2 }),
      svg("text", { class: "anim-die-face", y: 6, fill: p === null ? "#000" : ink(p) }, value),
      svg("text", { class: "anim-die-total", y: 26 }, `= ${total}`));
    // Above the area, or below it at the board's top edge; never across a side edge.
    const box = this.host.board().svg.viewBox.baseVal;
    const x = box && box.width ? Math.min(Math.max(at[0], box.x + 40 * k), box.x + box.width - 40 * k) : at[0];
    const y = box && box.height && at[1] - 78 * k < box.y ? at[1] + 46 * k : at[1] - 46 * k;
    const g = svg("g", { class: "anim-round", "data-round": e.round, transform: `translate(${x},${y}) scale(${k})` },
      svg("rect", { class: "anim-plate", x: -38, y: -30, width: 76, height: 62, rx: 8 }),
      svg("text", { class: "anim-round-no", y: -17 }, `Round ${e.round}`),
      die(-17, att, da, sa, sa < sd), die(17, dfd, dd, sd, sd < sa));
    this.layer().append(g);
    await this.tween(260, (t) => g.setAttribute("opacity", t.toFixed(2)));
    await this.wait(1000);
    g.remove();
  }

  // --- beside the board ---------------------------------------------------------------------

  // GP gained (+) or paid (−) rise from the player's purse in the players' row.
  purse(p, amount) {
    if (!amount || this.skipping || document.hidden) return;
    const card = this.host.panelOf(p);
    if (!card) return;
    const stat = card.querySelector(".stat.gp") || card;
    const r = stat.getBoundingClientRect();
    const el = h("div", { class: `anim-gp ${amount > 0 ? "gain" : "pay"}`, "aria-hidden": "true" }, `${amount > 0 ? "+" : "−"}${Math.abs(amount)} GP`);
    el.style.left = `${Math.round(r.left + r.width / 2)}px`;
    el.style.top = `${Math.round(r.top)}px`;
    document.body.append(el);
    const ms = 1100 * Math.max(0.4, this.factor());
    el.animate([{ transform: "translate(-50%, 0)", opacity: 1 }, { transform: "translate(-50%, -26px)", opacity: 0 }], { duration: ms, easing: "ease-out" });
    setTimeout(() => el.remove(), ms);
  }

  async god(god, p, amount) {
    const row = document.querySelector(`#auction li.god[data-god="${god}"]`);
    if (!row) return;
    row.classList.add("anim-bid");
    row.style.setProperty("--bid-colour", colour(p));
    row.dataset.animBid = god === "apollo" ? "Apollo" : `${amount} GP`;
    await this.wait(650);
    row.classList.remove("anim-bid");
  }

  async banner(text) {
    const stage = this.host.stage();
    if (!stage) return;
    const el = h("div", { class: "anim-banner" }, text);
    stage.append(el);
    await this.wait(900);
    el.remove();
  }
}

function unitName(unit, n = 1) {
  const words = { troop: ["Troop", "Troops"], merc: ["mercenary", "mercenaries"], fleet: ["Fleet", "Fleets"] }[unit];
  if (words) return words[n === 1 ? 0 : 1];
  return cardName(unit) || godName(unit);
}

// The setting in the board's corner: how fast others' moves are played (Skip is in the
// caption while they are, and Escape).
export function speedControl(anim) {
  const select = h("select", { id: "anim-speed", "aria-label": _("How others' moves are shown"), title: _("How others' moves are shown on the board") },
    Object.entries(SPEED_NAMES).map(([v, text]) => h("option", { value: v }, text)));
  select.value = anim.speed;
  select.addEventListener("change", () => (anim.speed = select.value));
  anim.onChange(() => (select.value = anim.speed));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && anim.busy) anim.skip();
  });
  return h("div", { class: "anim-setting" }, select);
}

// Each player's last move stays marked until they play again: the areas it touched, outlined
// in the player's colour (dashes; one pattern per player, so that marks stay apart where they
// meet), drawn under the pieces (board.render's `under`).
export function lastMoveMarks(board, lastMoves, seats) {
  const marks = [];
  for (const m of lastMoves || []) {
    if (!m) continue;
    for (const id of m.areas) {
      const d = board.outline(id);
      if (!d) continue;
      marks.push(svg("path", {
        d, class: "last-move", stroke: colour(m.player), "stroke-dasharray": `${5 + m.player} ${3 + (m.player % 3)}`,
        "data-player": m.player, "data-area": id,
      }, svg("title", {}, _("{name}'s last move", { name: seatName(seats, m.player) }))));
    }
  }
  return marks;
}
