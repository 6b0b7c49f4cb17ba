// The end of a game: scores (per team in team play), a chart of every player's GP and
// metropolises cycle by cycle (an inline SVG, drawn here), "Rematch", "Download the game
// record" and "Watch the replay". Also the "Scroll back" link of the game page, and the
// chart the replay viewer shows. Plain ES module, no dependencies besides common.js.
import { ngettext, _, api, colour, h, ink, svg as s } from "./common.js";

// The end screen's and the viewer's styles live in replay.css; the game page loads it here.
export function ensureStyles() {
  if (document.querySelector("link[data-endgame-css]")) return;
  const link = h("link", { rel: "stylesheet", href: "/static/replay.css", "data-endgame-css": "1" });
  document.head.append(link);
}

const enc = encodeURIComponent;
const timelines = new Map(); // game id -> timeline (a finished game's never changes)

// --- sides: players, or teams in team play -------------------------------------------

// The sides the score is kept for: [{key, label, colour, members}] (R22: a team shares
// its purse and counts its metropolises together).
export function sides(names, teams) {
  const name = (p) => (names && names[p]) || `Player ${p + 1}`;
  if (!teams || !teams.length) {
    return names.map((_name, p) => ({ key: p, label: name(p), colour: colour(p), ink: ink(p), members: [p] }));
  }
  const byTeam = new Map();
  teams.forEach((t, p) => {
    if (!byTeam.has(t)) byTeam.set(t, []);
    byTeam.get(t).push(p);
  });
  return [...byTeam.entries()].sort((a, b) => a[0] - b[0]).map(([t, ps]) => ({
    key: t,
    label: uniqueJoin(ps.map(name)),
    colour: colour(ps[0]),
    ink: ink(ps[0]),
    members: ps,
  }));
}

function uniqueJoin(list) {
  const out = [...new Set(list.map((x) => x.replace(/ \([AB]\)$/, "")))];
  return out.join(" & ");
}

// --- the chart ---------------------------------------------------------------------------

// timeline: GET /api/games/{id}/timeline (or a replay's "timeline"). opts.names: a name per
// player; opts.cursor: a cycle to mark (the replay viewer's position). One line per player
// (per team in team play) in each panel: GP above, metropolises below.
export function timelineChart(timeline, opts = {}) {
  const names = opts.names || timeline.names || [];
  const teamList = timeline.teams;
  const teamsOf = teamList ? (() => {
    const t = [];
    teamList.forEach((x) => x.members.forEach((p) => (t[p] = x.team)));
    return t;
  })() : null;
  const who = sides(names, teamsOf);
  const pts = timeline.points || [];
  const team = Boolean(teamList);
  const gpOf = (pt) => (team ? pt.team_gp : pt.gp);
  const mOf = (pt) => (team ? pt.team_metropolises : pt.metropolises);
  const showGp = pts.length && gpOf(pts[0]) !== null && gpOf(pts[0]) !== undefined;

  // About as wide as it is shown, so that the lettering stays readable on a phone.
  const W = opts.width || (window.innerWidth < 520 ? 340 : 560);
  const left = 34;
  const right = 12;
  const panelH = 96;
  const gap = 34;
  const top = 18;
  const panels = showGp ? [["gp", _("GP"), gpOf], ["metro", _("Metropolises"), mOf]] : [["metro", _("Metropolises"), mOf]];
  const H = top + panels.length * panelH + (panels.length - 1) * gap + 30;
  const cycles = pts.map((p) => p.cycle);
  const c0 = cycles.length ? cycles[0] : 0;
  const c1 = cycles.length ? Math.max(cycles[cycles.length - 1], c0 + 1) : 1;
  const x = (c) => left + ((c - c0) / (c1 - c0)) * (W - left - right);
  const svg = s("svg", {
    class: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": showGp ? _("GP and metropolises of each player after each cycle") : _("Metropolises of each player after each cycle"),
  });
  panels.forEach(([key, title, get], k) => {
    const y0 = top + k * (panelH + gap);
    const values = pts.map(get).flat().filter((v) => typeof v === "number");
    let vmax = Math.max(key === "metro" ? 2 : 5, ...values);
    if (key === "metro") vmax = Math.max(vmax, 1);
    const step = niceStep(vmax);
    vmax = Math.ceil(vmax / step) * step;
    const y = (v) => y0 + panelH - (v / vmax) * panelH;
    const g = s("g", { class: `panel-${key}` });
    g.append(s("text", { class: "chart-title", x: left, y: y0 - 4 }, title));
    for (let v = 0; v <= vmax + 1e-9; v += step) {
      g.append(s("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }));
      g.append(s("text", { class: "tick y", x: left - 5, y: y(v) + 3.5 }, String(v)));
    }
    // Cycle ticks along the bottom of each panel; labels under the last one.
    const every = Math.max(1, Math.ceil(cycles.length / 14));
    cycles.forEach((c, i) => {
      if (i % every && i !== cycles.length - 1) return;
      g.append(s("line", { class: "grid x", x1: x(c), x2: x(c), y1: y0 + panelH, y2: y0 + panelH + 3 }));
      if (k === panels.length - 1) {
        g.append(s("text", { class: "tick x", x: x(c), y: y0 + panelH + 14 }, c === 0 ? _("setup") : String(c)));
      }
    });
    if (opts.cursor !== undefined && opts.cursor !== null && pts.length) {
      const cx = x(Math.min(Math.max(opts.cursor, c0), c1));
      g.append(s("line", { class: "cursor", x1: cx, x2: cx, y1: y0, y2: y0 + panelH }));
    }
    // One line per side; lines that would lie on top of each other are set a little apart.
    who.forEach((side, i) => {
      const off = (i - (who.length - 1) / 2) * (key === "metro" ? 2.2 : 1.2);
      const pointsOf = pts.map((pt) => {
        const vals = get(pt) || [];
        const v = team ? vals[i] : vals[side.key];
        return [x(pt.cycle), y(v || 0) + off, v, pt.cycle];
      });
      let d = "";
      pointsOf.forEach(([px, py], j) => {
        if (key === "metro" && j) d += `H${r2(px)}V${r2(py)}`; // metropolises change in steps
        else d += `${j ? "L" : "M"}${r2(px)},${r2(py)}`;
      });
      const line = s("path", {
        d, class: `series ${key}`, stroke: side.colour, "data-side": side.key,
        "data-player": team ? null : side.key,
      });
      line.append(s("title", {}, `${side.label}: ${title}`));
      g.append(line);
      for (const [px, py, v, c] of pointsOf) {
        const dot = s("circle", { class: `dot ${key}`, cx: r2(px), cy: r2(py), r: 2.6, fill: side.colour });
        const when = c === 0 ? _("after the setup") : _("after cycle {n}", { n: c });
        const what = key === "gp" ? _("{n} GP", { n: v }) : ngettext("{n} metropolis", "{n} metropolises", v);
        dot.append(s("title", {}, `${side.label}, ${when}: ${what}`));
        g.append(dot);
      }
    });
    svg.append(g);
  });
  svg.append(s("text", { class: "axis-title", x: W - right, y: H - 2 }, _("cycle")));
  const legend = h("div", { class: "chart-legend" }, who.map((side) => h("span", { class: "legend-item" },
    h("span", { class: "legend-swatch", style: { background: side.colour } }), side.label)));
  const note = showGp ? null : h("p", { class: "muted chart-note" }, _("GP are hidden until the game is over."));
  return h("figure", { class: "timeline-figure" }, svg, legend, note);
}

// chances: GET /api/games/{id}/chances (or /api/replays/{id}/chances): per cycle each side's
// estimated chance to win (agents/advice.py). One line per player (per team in team play),
// 0 to 100%; opts.cursor marks a cycle (the replay viewer's position).
export function chancesChart(doc, opts = {}) {
  ensureAdviceStyles();
  const names = opts.names || doc.names || [];
  const sideList = doc.sides || names.map((_name, p) => [p]);
  const teamsOf = [];
  sideList.forEach((m, t) => m.forEach((p) => (teamsOf[p] = t)));
  const who = sides(names, sideList.some((m) => m.length > 1) ? teamsOf : null);
  const pts = doc.points || [];
  const W = opts.width || (window.innerWidth < 520 ? 340 : 560);
  const left = 34;
  const right = 12;
  const top = 18;
  const panelH = 150;
  const H = top + panelH + 30;
  const cycles = pts.map((p) => p.cycle);
  const c0 = cycles.length ? cycles[0] : 0;
  const c1 = cycles.length ? Math.max(cycles[cycles.length - 1], c0 + 1) : 1;
  const x = (c) => left + ((c - c0) / (c1 - c0)) * (W - left - right);
  const y = (v) => top + panelH - v * panelH;
  const svg = s("svg", { class: "timeline chances", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": _("Each player's estimated chance to win after each cycle") });
  svg.append(s("text", { class: "chart-title", x: left, y: top - 4 }, _("Chance to win")));
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s("line", { class: "grid", x1: left, x2: W - right, y1: y(v), y2: y(v) }));
    svg.append(s("text", { class: "tick y", x: left - 5, y: y(v) + 3.5 }, `${Math.round(v * 100)}%`));
  }
  const every = Math.max(1, Math.ceil(cycles.length / 14));
  cycles.forEach((c, i) => {
    if (i % every && i !== cycles.length - 1) return;
    svg.append(s("line", { class: "grid x", x1: x(c), x2: x(c), y1: top + panelH, y2: top + panelH + 3 }));
    svg.append(s("text", { class: "tick x", x: x(c), y: top + panelH + 14 }, c === 0 ? _("setup") : String(c)));
  });
  if (opts.cursor !== undefined && opts.cursor !== null && pts.length) {
    const cx = x(Math.min(Math.max(opts.cursor, c0), c1));
    svg.append(s("line", { class: "cursor", x1: cx, x2: cx, y1: top, y2: top + panelH }));
  }
  who.forEach((side, i) => {
    const pointsOf = pts.map((pt) => [x(pt.cycle), y((pt.side_chances || [])[i] || 0), (pt.side_chances || [])[i] || 0, pt.cycle]);
    const d = pointsOf.map(([px, py], j) => `${j ? "L" : "M"}${r2(px)},${r2(py)}`).join("");
    const line = s("path", { d, class: "series chance", stroke: side.colour, "data-side": i });
    line.append(s("title", {}, _("{name}: chance to win", { name: side.label })));
    svg.append(line);
    for (const [px, py, v, c] of pointsOf) {
      const dot = s("circle", { class: "dot chance", cx: r2(px), cy: r2(py), r: 2.6, fill: side.colour });
      const when = c === 0 ? _("after the setup") : _("after cycle {n}", { n: c });
      dot.append(s("title", {}, `${side.label}, ${when}: ${Math.round(v * 100)}%`));
      svg.append(dot);
    }
  });
  svg.append(s("text", { class: "axis-title", x: W - right, y: H - 2 }, _("cycle")));
  // Its own legend classes: the GP chart's legend stays the only ".chart-legend" of a card.
  const legend = h("div", { class: "chances-legend" }, who.map((side) => h("span", { class: "chances-legend-item" },
    h("span", { class: "legend-swatch", style: { background: side.colour } }), side.label)));
  const note = h("p", { class: "muted chances-note" }, _("As a network learned from the bots' games estimates it at the end of each cycle, from what the player to move could see; the last point is the result."));
  return h("figure", { class: "timeline-figure chances-figure" }, svg, legend, note);
}

function ensureAdviceStyles() {
  if (document.querySelector("link[data-advice-css]")) return;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/advice.css", "data-advice-css": "1" }));
}

function niceStep(vmax) {
  if (vmax <= 5) return 1;
  const raw = vmax / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

function r2(v) {
  return Math.round(v * 100) / 100;
}

// --- the end screen ---------------------------------------------------------------------

// card: the result dialog the game page drew (title, table, buttons); ctx: {gid, token,
// seat, seats, view, names?}. Adds the team scores, the chart, and the buttons.
export function endScreen(card, ctx) {
  if (!card || !ctx || !ctx.gid) return;
  ensureStyles();
  card.classList.add("endgame");
  const v = ctx.view || {};
  const r = v.result || {};
  const n = (v.players || []).length;
  const names = ctx.names || Array.from({ length: n }, (_name, p) => nameOf(ctx, p));
  const parts = [];
  if (r.teams && r.teams.length) parts.push(teamTable(r, names));
  const chart = h("div", { class: "endgame-chart", id: "endgame-chart" }, h("p", { class: "muted" }, _("Drawing the game, cycle by cycle…")));
  const odds = h("div", { class: "endgame-chart", id: "chances-chart" }, h("p", { class: "muted" }, _("Estimating the chances, cycle by cycle…")));
  ensureAdviceStyles();
  parts.push(h("div", { class: "endgame-charts" },
    h("section", { class: "endgame-section" }, h("h3", {}, _("Cycle by cycle")), chart),
    h("section", { class: "endgame-section" }, h("h3", {}, _("Chances to win")), odds)));
  const notice = h("div", { class: "rematch-notice", id: "rematch-notice", role: "status", hidden: true });
  const rematchBtn = h("button", { class: "primary", id: "rematch", type: "button" }, _("Rematch"));
  rematchBtn.addEventListener("click", () => startRematch(ctx, rematchBtn, notice));
  parts.push(notice, h("div", { class: "buttons endgame-buttons" },
    rematchBtn,
    h("a", { class: "button", id: "download-record", href: `/api/games/${enc(ctx.gid)}/record`, download: `cyclades-${ctx.gid}.json` }, _("Download the game record")),
    h("a", { class: "button", id: "watch-replay", href: `/replay/${enc(ctx.gid)}`, target: "_blank", rel: "noopener" }, _("Watch the replay"))));
  const anchor = card.querySelector(".buttons");
  for (const p of parts) {
    if (anchor) card.insertBefore(p, anchor);
    else card.append(p);
  }
  loadChart(ctx.gid, chart, names);
  loadChances(ctx.gid, odds, names);
  watchRematch(ctx, notice);
}

function nameOf(ctx, p) {
  const seats = ctx.seats || [];
  const owner = seats.find((x) => x && Array.isArray(x.factions) && x.factions.length > 1 && x.factions.includes(p));
  if (owner) return (owner.faction_names && owner.faction_names[owner.factions.indexOf(p)]) || `${owner.name} (${"AB"[owner.factions.indexOf(p)]})`;
  return (seats[p] && seats[p].name) || `Player ${p + 1}`;
}

function teamTable(r, names) {
  const who = sides(names, r.teams);
  const winners = new Set(r.winners || []);
  const rows = who.map((side) => {
    const metros = side.members.reduce((a, p) => a + ((r.metropolises || [])[p] || 0), 0);
    const gp = (r.gp || [])[side.members[0]]; // the purse is kept by the first member (R22)
    const won = side.members.some((p) => winners.has(p));
    return h("tr", { class: won ? "winner" : "" },
      h("td", {}, h("span", { class: "chip", style: { background: side.colour, color: side.ink } }, side.label)),
      h("td", {}, metros), h("td", {}, gp ?? "?"),
      h("td", {}, won ? h("span", { class: "laurel" }, _("★ winners")) : ""));
  });
  return h("section", { class: "endgame-section" }, h("h3", {}, _("Teams")),
    h("table", { class: "result-table team-table" },
      h("thead", {}, h("tr", {}, h("th", {}, _("Team")), h("th", {}, _("Metropolises")), h("th", {}, _("GP (shared)")), h("th", {}, ""))),
      h("tbody", {}, rows)));
}

async function loadChart(gid, box, names) {
  try {
    let tl = timelines.get(gid);
    if (!tl) {
      tl = await api("GET", `/api/games/${enc(gid)}/timeline`);
      if (tl.over) timelines.set(gid, tl);
    }
    box.replaceChildren(timelineChart(tl, { names: tl.names || names }));
  } catch (e) {
    box.replaceChildren(h("p", { class: "muted" }, _("The chart could not be drawn: {reason}", { reason: e.message })));
  }
}

const chanceDocs = new Map(); // game id -> chances (a finished game's never change)

async function loadChances(gid, box, names) {
  try {
    let doc = chanceDocs.get(gid);
    if (!doc) {
      doc = await api("GET", `/api/games/${enc(gid)}/chances`);
      chanceDocs.set(gid, doc);
    }
    box.replaceChildren(chancesChart(doc, { names: doc.names || names }));
  } catch (e) {
    box.replaceChildren(h("p", { class: "muted" }, _("The chances could not be estimated: {reason}", { reason: e.message })));
  }
}

// --- rematch ------------------------------------------------------------------------

async function startRematch(ctx, btn, notice) {
  btn.disabled = true;
  try {
    const body = ctx.token ? { token: ctx.token } : {};
    const r = await api("POST", `/api/games/${enc(ctx.gid)}/rematch`, body);
    if (r.host_token) keepHostToken(r.game_id, r.host_token);
    location.assign(r.url);
  } catch (e) {
    btn.disabled = false;
    notice.hidden = false;
    notice.className = "rematch-notice error";
    notice.textContent = `No rematch: ${e.message}`;
  }
}

// The host of the game hosts its rematch: the lobby keeps host tokens under this key.
function keepHostToken(gameId, token) {
  const KEY = "cyclades.host-tokens";
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    all[gameId] = token;
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (e) { /* private mode: the host can still play */ }
}

// Someone else may start the rematch: show each player the link to their own seat in it.
function watchRematch(ctx, notice) {
  const q = ctx.token ? `?token=${enc(ctx.token)}` : "";
  let timer = null;
  const check = async () => {
    const overlay = notice.closest(".overlay");
    if (!notice.isConnected) return; // the dialog was drawn again: that one watches
    if (!overlay || !overlay.hidden) {
      try {
        const r = await api("GET", `/api/games/${enc(ctx.gid)}/rematch${q}`);
        if (r.rematch) {
          notice.hidden = false;
          notice.className = "rematch-notice";
          notice.replaceChildren("A rematch has begun: ",
            h("a", { class: "button primary", id: "join-rematch", href: r.rematch.url },
              r.rematch.seat !== null && r.rematch.seat !== undefined ? _("Take your seat") : _("Watch it")));
          const btn = document.getElementById("rematch");
          if (btn) btn.textContent = _("Go to the rematch");
          return; // found: no more polling
        }
      } catch (e) { /* try again later */ }
    }
    timer = setTimeout(check, 4000);
  };
  clearTimeout(timer);
  check();
}

// --- the game page's "Scroll back" link ----------------------------------------------------

// Adds to the game page's top bar a link to the replay viewer, at the current position,
// following the game as it goes on.
export function scrollBackLink(gid, token = "") {
  if (!gid || document.getElementById("scroll-back")) return;
  ensureStyles();
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const a = h("a", {
    id: "scroll-back", class: "scroll-back", href: `/replay/${enc(gid)}?step=last${token ? `&token=${enc(token)}` : ""}`,
    target: "_blank", rel: "noopener",
    title: _("Look back through the game so far, decision by decision (a new tab)"),
  }, _("⟲ Scroll back"));
  const conn = document.getElementById("conn");
  if (conn && conn.parentNode === bar) bar.insertBefore(a, conn);
  else bar.append(a);
}
