// "My games" (GET /api/account/games): the games waiting on me first, with how long they have
// waited and how long they are kept; then invitations, tables and games waiting for players,
// the running games and the finished ones. Each is one click away.
import { _, api, h } from "./common.js";
import { duration, loginLink, placeText, whoAmI } from "./account.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 15000;

function others(g) {
  const bot = (s) => s.kind !== "human" && !/\bbot\b/i.test(s.name);
  return g.seats.filter((s) => s.seat !== g.seat).map((s) => (bot(s) ? _("{name} (bot)", { name: s.name }) : s.name)).join(", ");
}

function row(g, what, action) {
  return h("li", { class: `game-row ${g.my_turn ? "my-turn" : ""}`, "data-game": g.game_id },
    h("div", { class: "game-what" },
      h("b", {}, g.mode.label),
      h("span", { class: "muted" }, " " + (others(g) ? _("with {players}", { players: others(g) }) : _("with nobody yet"))),
      h("div", { class: "game-when" }, what)),
    action);
}

// "Log in or create an account.", its two links in the sentence.
function loginOrSignup() {
  return [loginLink(_("Log in")), " ", _("or"), " ", loginLink(_("create an account"), true), "."];
}

function speedWord(speed) {
  return speed === "live" ? _("live") : speed === "turn" ? _("turn-based") : speed;
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
    [_("Your move for {time}", { time: duration(now - g.updated) }), g.expires ? _("removed in {time} if nobody moves", { time: duration(g.expires - now) }) : "",
      g.cycle ? _("cycle {n}", { n: g.cycle }) : ""].filter(Boolean).join(" · "),
    open(g.url, _("Play"), true)));
  const invitations = data.invitations.map((g) => row(g, _("You are invited to this game."),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "small primary", "data-accept": g.game_id, onclick: () => answer(g.game_id, "accept") }, _("Accept")),
      h("button", { type: "button", class: "small secondary", "data-decline": g.game_id, onclick: () => answer(g.game_id, "decline") }, _("Decline")))));
  const tables = data.tables.map((t) => h("li", { class: "game-row", "data-table": t.table_id },
    h("div", { class: "game-what" }, h("b", {}, t.mode.label),
      h("span", { class: "muted" }, " · " + (t.rated ? _("{speed}, rated", { speed: speedWord(t.speed) }) : speedWord(t.speed))),
      h("div", { class: "game-when" }, _("Waiting for players: {seated} of {players} seated", { seated: t.seated.length, players: t.players }),
        t.fill_at ? " · " + _("bots fill it in {time}", { time: duration(t.fill_at - now) }) : "")),
    open(t.url, _("Open the table"))));
  const open_ = data.open.map((g) => row(g, _("Waiting for players to take their seats"), open(g.url, _("Open"))));
  const running = data.running.map((g) => {
    const who = g.to_move_seat !== null ? g.seats.find((s) => s.seat === g.to_move_seat) : null;
    return row(g, [who ? _("Waiting on {name}", { name: who.name }) : _("Going on"), g.cycle ? _("cycle {n}", { n: g.cycle }) : ""].filter(Boolean).join(" · "), open(g.url, _("Open")));
  });
  const finished = data.finished.map((g) => row(g,
    [g.won ? _("Won") : placeText(g.place, g.seats.length), _("ended {time} ago", { time: duration(now - g.finished) }), g.rated ? _("rated") : ""].filter(Boolean).join(" · "),
    open(g.replay, _("Replay"))));
  const sections = [
    section("waiting-on-me", _("Waiting on you"), waiting, _("Nothing waits on you.")),
    section("invitations", _("Invitations"), invitations),
    section("tables", _("Waiting for players"), [...tables, ...open_]),
    section("running", _("Running"), running),
    section("finished", _("Finished"), finished, _("No finished game yet.")),
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
      $("my-games").replaceChildren(h("p", { class: "panel" }, `${e.message}. `, ...loginOrSignup()));
      return;
    }
    showError(_("Your games cannot be loaded: {reason}", { reason: e.message }));
  }
}

async function main() {
  const me = await whoAmI();
  if (!me.account) {
    $("my-games").replaceChildren(h("p", { class: "panel" }, me.problem ? `${me.problem}. ` : _("Log in to see your games.") + " ",
      ...loginOrSignup()));
    return;
  }
  await load();
  setInterval(() => document.visibilityState === "visible" && load(), REFRESH_MS);
}

main();
