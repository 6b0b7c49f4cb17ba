// "My games" (GET /api/account/games): the games waiting on me first, with how long they have
// waited and how long they are kept; then invitations, tables and games waiting for players,
// the running games and the finished ones. Each is one click away.
import { _, api, h } from "./common.js";
import { duration, loginLink, placeText, whoAmI } from "./account.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 15000;

function others(g) {
  const bot = (s) => s.kind !== "human" && !/\bbot\b/i.test(s.name);
  return g.seats.filter((s) => s.seat !== g.seat).map((s) => s.name + (bot(s) ? " (bot)" : "")).join(", ");
}

function row(g, what, action) {
  return h("li", { class: `game-row ${g.my_turn ? "my-turn" : ""}`, "data-game": g.game_id },
    h("div", { class: "game-what" },
      h("b", {}, g.mode.label),
      h("span", { class: "muted" }, ` with ${others(g) || "nobody yet"}`),
      h("div", { class: "game-when" }, what)),
    action);
}

function open(url, text, primary = false) {
  return url ? h("a", { class: `button small ${primary ? "primary" : "secondary"}`, href: url }, text) : null;
}

function section(id, title, items, empty = null) {
  if (!items.length && !empty) return null;
  return h("section", { class: "panel my-section", id },
    h("h2", {}, title, items.length ? h("span", { class: "count" }, ` (${items.length})`) : null),
    items.length ? h("ul", { class: "game-list" }, items) : h("p", { class: "muted" }, empty));
}

function render(data) {
  const now = Date.now() / 1000;
  const waiting = data.waiting_on_me.map((g) => row(g,
    [`Your move for ${duration(now - g.updated)}`, g.expires ? ` · removed in ${duration(g.expires - now)} if nobody moves` : "",
      g.cycle ? ` · cycle ${g.cycle}` : ""].join(""),
    open(g.url, "Play", true)));
  const invitations = data.invitations.map((g) => row(g, "You are invited to this game.",
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "small primary", "data-accept": g.game_id, onclick: () => answer(g.game_id, "accept") }, _("Accept")),
      h("button", { type: "button", class: "small secondary", "data-decline": g.game_id, onclick: () => answer(g.game_id, "decline") }, _("Decline")))));
  const tables = data.tables.map((t) => h("li", { class: "game-row", "data-table": t.table_id },
    h("div", { class: "game-what" }, h("b", {}, t.mode.label),
      h("span", { class: "muted" }, ` · ${t.speed}${t.rated ? ", rated" : ""}`),
      h("div", { class: "game-when" }, `Waiting for players: ${t.seated.length} of ${t.players} seated`,
        t.fill_at ? ` · bots fill it in ${duration(t.fill_at - now)}` : "")),
    open(t.url, "Open the table")));
  const open_ = data.open.map((g) => row(g, "Waiting for players to take their seats", open(g.url, "Open")));
  const running = data.running.map((g) => {
    const who = g.to_move_seat !== null ? g.seats.find((s) => s.seat === g.to_move_seat) : null;
    return row(g, `${who ? `Waiting on ${who.name}` : "Going on"}${g.cycle ? ` · cycle ${g.cycle}` : ""}`, open(g.url, "Open"));
  });
  const finished = data.finished.map((g) => row(g,
    [g.won ? "Won" : placeText(g.place, g.seats.length), ` · ended ${duration(now - g.finished)} ago`, g.rated ? " · rated" : ""].join(""),
    open(g.replay, "Replay")));
  const sections = [
    section("waiting-on-me", "Waiting on you", waiting, "Nothing waits on you."),
    section("invitations", "Invitations", invitations),
    section("tables", "Waiting for players", [...tables, ...open_]),
    section("running", "Running", running),
    section("finished", "Finished", finished, "No finished game yet."),
  ].filter(Boolean);
  $("my-games").replaceChildren(...sections);
}

async function answer(gameId, what) {
  try {
    const data = await api("POST", `/api/account/invitations/${encodeURIComponent(gameId)}/${what}`);
    if (what === "accept" && data.url) {
      location.href = data.url;
      return;
    }
  } catch (e) {
    showError(e.message);
  }
  load();
}

function showError(text) {
  $("my-error").textContent = text;
  $("my-error").hidden = !text;
}

async function load() {
  try {
    render(await api("GET", "/api/account/games"));
    showError("");
  } catch (e) {
    if (e.status === 401) {
      $("my-games").replaceChildren(h("p", { class: "panel" }, `${e.message}. `, loginLink("Log in"), _(" or "), loginLink("create an account", true), "."));
      return;
    }
    showError(`Your games cannot be loaded: ${e.message}`);
  }
}

async function main() {
  const me = await whoAmI();
  if (!me.account) {
    $("my-games").replaceChildren(h("p", { class: "panel" }, me.problem ? `${me.problem}. ` : "Log in to see your games. ",
      loginLink("Log in"), _(" or "), loginLink("create an account", true), "."));
    return;
  }
  await load();
  setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
}

main();
