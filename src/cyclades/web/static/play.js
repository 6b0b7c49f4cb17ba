// "Play now" (/play) and a play-now table (/play/{id}): choose the edition, the player count and
// the speed; join a table waiting for players of that kind or open one (POST /api/play); watch
// it fill (GET /api/play/tables/{id}), then go to the game. The creator chose when bots fill
// the empty seats and may fill them at once.
import { _, api, h } from "./common.js";
import { duration, loginLink, whoAmI } from "./account.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1500;
const LEVELS = ["beginner", "casual", "strong", "expert"];
let polling = null;
let me = { account: null };

async function loadBots() {
  let data = { bots: LEVELS, labels: {}, default: "casual" };
  try {
    data = await api("GET", "/api/bots");
  } catch (e) { /* the levels above */ }
  const select = $("play-bot");
  select.replaceChildren(...data.bots.filter((b) => LEVELS.includes(b)).map((b) => h("option", {
    value: b, selected: b === data.default, title: (data.labels || {})[b] || b,
  }, ((data.labels || {})[b] || b).split(":")[0])));
}

function syncPlayers() {
  const classic = $("play-edition").value === "classic";
  const six = $("play-players").querySelector("option[value='6']");
  six.disabled = classic;
  if (classic && $("play-players").value === "6") $("play-players").value = "5";
  $("play-players").querySelector("option[value='2']").textContent = classic ? "2 (two offerings each a cycle)" : "2 (each plays two factions)";
}

async function playNow(ev) {
  ev.preventDefault();
  const edition = $("play-edition").value;
  const after = $("play-bots-after").value;
  const body = {
    ruleset: edition === "classic" ? "classic" : "legendary",
    maelstrom: edition === "legendary-maelstrom",
    players: Number($("play-players").value),
    speed: $("play-speed").value,
    rated: $("play-rated").checked,
    bots_after: after === "" ? null : Number(after),
    bot: $("play-bot").value,
    bots_rated: $("play-bots-rated").checked,
  };
  $("play-error").hidden = true;
  $("play-submit").disabled = true;
  try {
    const table = await api("POST", "/api/play", body);
    history.pushState(null, "", table.url);
    showTable(table);
  } catch (e) {
    $("play-error").textContent = _("No table for you: {reason}", { reason: e.message });
    $("play-error").hidden = false;
  } finally {
    $("play-submit").disabled = false;
  }
}

function showTable(t) {
  if (t.status === "started" && t.game_url) {
    location.href = t.game_url;
    return;
  }
  $("play-choose").hidden = true;
  $("waiting-tables").hidden = true;
  const box = $("table");
  box.hidden = false;
  const now = Date.now() / 1000;
  const link = new URL(t.url, location.href).href;
  const seated = t.seated.map((s) => h("li", {}, s.name));
  for (let i = 0; i < t.free; i++) seated.push(h("li", { class: "free" }, _("a free seat")));
  const state = {
    waiting: t.fill_at ? (t.fill_at > now ? _("Bots fill the empty seats in {time}.", { time: duration(t.fill_at - now) }) : _("Bots are taking the empty seats…"))
      : _("The game starts when the table is full."),
    starting: _("The game is being set up…"),
    started: t.mine ? _("The game has started.") : _("This table's game has started."),
    closed: _("This table is closed: everyone left it."),
  }[t.status] || t.status;
  box.replaceChildren(
    h("h2", {}, t.mode.label),
    h("p", { class: "muted" }, [t.speed === "live" ? _("Live") : t.speed === "turn-based-72h" ? _("Turn-based, three days a decision") : _("Turn-based, a day a decision"),
      t.rated ? (t.bots_rated ? _("rated, bots included") : _("rated (unrated if bots play)")) : _("unrated"), _("bots: {level}", { level: t.bot })].join(" · ")),
    h("ol", { class: "table-seats", id: "table-seats" }, seated),
    h("p", { class: "table-state", id: "table-state" }, state),
    t.status === "waiting" && t.mine ? h("div", { class: "link-row" }, h("span", { class: "who" }, _("Invite by link")),
      h("input", { type: "text", readonly: true, value: link, "aria-label": _("the table's link"), onfocus: (e) => e.target.select() })) : null,
    h("div", { class: "buttons" },
      t.status === "waiting" && t.mine && t.creator && t.free ? h("button", { type: "button", class: "primary", id: "fill-now", onclick: fillNow }, _("Fill with bots now")) : null,
      t.status === "waiting" && !t.mine && t.free && me.account ? h("button", { type: "button", class: "primary", id: "join-table", onclick: joinTable }, _("Sit at this table")) : null,
      t.status === "waiting" && t.mine ? h("button", { type: "button", class: "secondary", id: "leave-table", onclick: leaveTable }, _("Leave the table")) : null,
      t.status === "started" && t.game_id && !t.mine ? h("a", { class: "button secondary", href: `/game/${encodeURIComponent(t.game_id)}` }, _("Watch the game")) : null,
      h("a", { class: "button secondary", href: "/my" }, _("My games"))),
    h("p", { class: "error", id: "table-error", role: "alert", hidden: true }));
  if (t.status === "waiting" || t.status === "starting") poll(t.table_id);
}

function tableError(e) {
  const el = $("table-error");
  if (el) {
    el.textContent = e.message;
    el.hidden = false;
  }
}

async function fillNow() {
  try {
    showTable(await api("POST", `/api/play/tables/${encodeURIComponent(currentId())}/fill`));
  } catch (e) {
    tableError(e);
  }
}

async function joinTable() {
  try {
    showTable(await api("POST", `/api/play/tables/${encodeURIComponent(currentId())}/join`));
  } catch (e) {
    tableError(e);
  }
}

async function leaveTable() {
  try {
    await api("POST", `/api/play/tables/${encodeURIComponent(currentId())}/leave`);
    location.href = "/play";
  } catch (e) {
    tableError(e);
  }
}

function currentId() {
  return decodeURIComponent((location.pathname.match(/^\/play\/([^/]+)$/) || [])[1] || "");
}

function poll(id) {
  clearTimeout(polling);
  polling = setTimeout(async () => {
    try {
      showTable(await api("GET", `/api/play/tables/${encodeURIComponent(id)}`));
    } catch (e) {
      tableError(e);
      poll(id);
    }
  }, POLL_MS);
}

async function listTables() {
  let data;
  try {
    data = await api("GET", "/api/play/tables");
  } catch (e) {
    return;
  }
  const tables = data.tables.filter((t) => !t.mine);
  $("waiting-tables").hidden = !tables.length;
  $("waiting-list").replaceChildren(h("ul", { class: "game-list" }, tables.map((t) => h("li", { class: "game-row", "data-table": t.table_id },
    h("div", { class: "game-what" }, h("b", {}, t.mode.label), h("span", { class: "muted" }, " · " + (t.speed === "live" ? _("live") : _("turn-based")) + (t.rated ? ", " + _("rated") : "")),
      h("div", { class: "game-when" }, _("{players} waiting · {n} free", { players: t.seated.map((s) => s.name).join(", "), n: t.free }))),
    h("a", { class: "button small secondary", href: t.url }, _("See"))))));
}

async function main() {
  me = await whoAmI();
  if (!me.account) {
    const box = $("play-login");
    box.replaceChildren(me.problem ? `${me.problem}. ` : _("Play now seats you with other players who have an account:") + " ",
      loginLink(_("log in")), " ", _("or"), " ", loginLink(_("create an account"), true), ". ",
      _("Guests play by link:"), " ", h("a", { href: "/" }, _("create a game and send the links")), ".");
    box.hidden = false;
  }
  if (currentId()) {
    try {
      showTable(await api("GET", `/api/play/tables/${encodeURIComponent(currentId())}`));
    } catch (e) {
      $("table").hidden = false;
      $("table").replaceChildren(h("p", { class: "error" }, _("This table cannot be shown: {reason}", { reason: e.message })), h("a", { href: "/play" }, _("Play now")));
    }
    return;
  }
  if (!me.account) return;
  await loadBots();
  $("play-choose").hidden = false;
  $("play-edition").addEventListener("change", syncPlayers);
  $("play-form").addEventListener("submit", playNow);
  syncPlayers();
  listTables();
}

window.addEventListener("popstate", () => location.reload());
main();
