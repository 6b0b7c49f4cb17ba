// A player's profile (GET /api/players/{name}): games played and won per mode, the rating of
// each edition with its history drawn, and the recent games with their replays.
import { ngettext, LANG, _, api, h } from "./common.js";
import { duration, placeText } from "./account.js";

const SVG = "http://www.w3.org/2000/svg";
const EDITIONS = { legendary: _("Legendary"), classic: _("Classic (2009)") };
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// The rating after each game, as a line (1500, a newcomer's, as a dashed mark).
function historyChart(points) {
  const w = 320, hgt = 90, pad = 6;
  const values = [1500, ...points.map((p) => p.rating)];
  const lo = Math.min(...values) - 10, hi = Math.max(...values) + 10;
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "rating-chart", role: "img",
    "aria-label": _("Rating after each game: {ratings}", { ratings: points.map((p) => p.rating).join(", ") }) });
  chart.append(svg("line", { x1: pad, x2: w - pad, y1: y(1500), y2: y(1500), class: "base" }));
  chart.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }));
  values.forEach((v, i) => chart.append(svg("circle", { cx: x(i), cy: y(v), r: 2.5, class: "dot" })));
  return chart;
}

function ratingCard(edition, r) {
  return h("div", { class: "rating-card", "data-edition": edition },
    h("h3", {}, EDITIONS[edition] || edition),
    h("div", { class: "rating-big" }, String(r.rating)),
    h("div", { class: "muted" }, _("#{rank} on the leaderboard", { rank: r.rank }) + " · " + ngettext("{n} rated game, {wins} won", "{n} rated games, {wins} won", r.games, { wins: r.wins })),
    r.history.length ? historyChart(r.history) : null);
}

function render(p) {
  const now = Date.now() / 1000;
  document.title = `Cyclades — ${p.name}`;
  const ratings = Object.entries(p.ratings);
  return [
    h("div", { class: "people-head" }, h("h1", {}, p.name),
      h("span", { class: "muted" }, _("playing since {date}", { date: new Date(p.created * 1000).toLocaleDateString(LANG) }) + " · " + ngettext("{n} game finished, {wins} won", "{n} games finished, {wins} won", p.played, { wins: p.won }))),
    h("div", { class: "profile-grid" },
      h("section", { class: "panel", id: "ratings" }, h("h2", {}, _("Ratings")),
        ratings.length ? h("div", { class: "rating-cards" }, ratings.map(([e, r]) => ratingCard(e, r)))
          : h("p", { class: "muted" }, _("No rated game yet.")),
        h("p", {}, h("a", { href: "/leaderboard" }, _("The leaderboard")))),
      h("section", { class: "panel", id: "modes" }, h("h2", {}, _("Games by mode")),
        p.modes.length ? h("table", { class: "people-table" },
          h("thead", {}, h("tr", {}, h("th", {}, _("Mode")), h("th", {}, _("Played")), h("th", {}, _("Won")))),
          h("tbody", {}, p.modes.map((m) => h("tr", {}, h("td", {}, m.label), h("td", {}, String(m.played)), h("td", {}, String(m.won))))))
          : h("p", { class: "muted" }, _("No finished game yet.")))),
    h("section", { class: "panel", id: "recent" }, h("h2", {}, _("Recent games")),
      p.recent.length ? h("ul", { class: "game-list" }, p.recent.map((g) => h("li", { class: "game-row", "data-game": g.game_id },
        h("div", { class: "game-what" }, h("b", {}, g.mode.label),
          h("span", { class: "muted" }, ` with ${g.players.filter((x) => x !== p.name).join(", ")}`),
          h("div", { class: "game-when" }, g.won ? "Won" : placeText(g.place, g.players.length),
            ` · ${duration(now - g.finished)} ago`,
            g.rating ? h("span", { class: g.rating.after >= g.rating.before ? "up" : "down" },
              ` · rating ${g.rating.before} → ${g.rating.after}`) : null)),
        h("a", { class: "button small secondary", href: g.replay }, _("Replay")))))
        : h("p", { class: "muted" }, _("No finished game yet."))),
  ];
}

async function main() {
  const box = document.getElementById("profile");
  try {
    box.replaceChildren(...render(await api("GET", `/api/players/${encodeURIComponent(name)}`)));
  } catch (e) {
    box.replaceChildren(h("p", { class: "panel error" }, e.message));
  }
}

main();
