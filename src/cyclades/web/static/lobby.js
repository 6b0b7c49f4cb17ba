// The lobby: create a game in any mode, hand out its seats (you, a friend's invitation
// link, open to anyone, a bot), list the games on the server, join an open seat, and, for
// the games this browser created, give an absent player's seat to a bot.
import { _, api, chip, colour, factionMark, h, ink, ngettext, PLAYER_COLOUR_NAMES } from "./common.js";
import { offerNameInvites } from "./account.js"; // logged in: invite players by name too
import { keepInvites } from "./invites.js";

const $ = (id) => document.getElementById(id);
let botKinds = ["greedy", "mcts", "random"];
let botLabels = {}; // bot kind -> a label for people (GET /api/bots "labels"): the levels say how they play
let LEVELS = ["beginner", "casual", "strong", "expert"];
let levelNames = {}; // level -> its name for people (GET /api/bots "levels"), weakest first
let defaultBot = "casual"; // the server's default (GET /api/bots), the same as the API's
const PEOPLE = [["you", _("you")], ["invite", _("a friend (invitation link)")], ["open", _("open to anyone")]];
const RULESETS = { legendary: _("Legendary"), classic: _("classic 2009") };
const HOST_KEY = "cyclades.host-tokens";

// The server lists its bot kinds and the default one: GET /api/bots -> {"bots": [...], "default"}.
async function loadBotKinds() {
  try {
    const data = await api("GET", "/api/bots");
    if (Array.isArray(data.bots) && data.bots.length) botKinds = data.bots;
    if (data.labels && typeof data.labels === "object") botLabels = data.labels;
    if (data.levels && typeof data.levels === "object") {
      levelNames = data.levels;
      LEVELS = Object.keys(levelNames);
    }
    defaultBot = botKinds.includes(data.default) ? data.default : botKinds[0];
  } catch (e) {
    // keep the defaults: creating a game will say what is wrong
  }
}

// --- the host tokens of the games created from this browser ------------------------------

function hostTokens() {
  try {
    return JSON.parse(localStorage.getItem(HOST_KEY) || "{}") || {};
  } catch (e) {
    return {};
  }
}

function keepHostToken(gameId, token) {
  const all = hostTokens();
  all[gameId] = token;
  try {
    localStorage.setItem(HOST_KEY, JSON.stringify(all));
  } catch (e) { /* private mode: the host controls last as long as the page */ }
}

// --- the form ------------------------------------------------------------------------

// Team of each seat (R22): 2 players are two teams (each person plays both factions of
// one), 4 in teams are 1-2-1-2, 6 are 1-2-3-1-2-3.
function teamOf(seat, n) {
  return n === 6 ? seat % 3 : seat % 2;
}

// Factions of each seat: one, or with 2 players the two of its team (seat 0: 0 and 2).
function factionsOf(seat, n) {
  return n === 2 ? [seat, seat + 2] : [seat];
}

function form() {
  const ruleset = $("ruleset").value;
  const n = Number($("players").value);
  return { ruleset, n, classic: ruleset === "classic" };
}

// Keep the options to what the chosen rules allow: classic 2-5 players, no teams, no
// Maelström, its own board; Legendary 2-6, teams always with 2 and 6, optional with 4.
function syncOptions() {
  const { classic } = form();
  const six = $("players").querySelector("option[value='6']");
  six.disabled = classic;
  if (classic && $("players").value === "6") $("players").value = "5";
  const { n } = form();
  const teams = $("teams");
  const hint = $("teams-hint");
  if (classic) {
    teams.checked = false;
    teams.disabled = true;
    hint.textContent = n === 2 ? _("The classic game has no teams; with 2 players each makes two offerings a cycle.") : _("The classic game has no teams.");
  } else if (n === 2 || n === 6) {
    teams.checked = true;
    teams.disabled = true;
    hint.textContent = n === 2
      ? _("2 players always play in teams: each plays the two factions of a team.")
      : _("6 players always play in three teams of two.");
  } else if (n === 4) {
    teams.disabled = false;
    hint.textContent = _("4 players may play in two teams of two (one purse per team).");
  } else {
    teams.checked = false;
    teams.disabled = true;
    hint.textContent = _("Team play is for 2, 4 or 6 players.");
  }
  $("team-goal").disabled = !teams.checked;
  $("maelstrom").disabled = classic;
  if (classic) $("maelstrom").checked = false;
  else if ($("maelstrom").dataset.touched !== "1") $("maelstrom").checked = true;
  // The classic game has its own board (R8): the choice shows it and is not sent.
  const board = $("board");
  let own = board.querySelector("option[value='classic']");
  if (classic && !own) {
    board.dataset.legendary = board.value;
    board.append(h("option", { value: "classic" }, _("the classic game's own board")));
    board.value = "classic";
  } else if (!classic && own) {
    own.remove();
    board.value = board.dataset.legendary || "random";
  }
  board.disabled = classic;
  seatRows();
}

function seatRows() {
  const { n } = form();
  const teams = $("teams").checked;
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((row) => ({
    kind: row.querySelector("select").value, name: row.querySelector("input").value,
  }));
  box.replaceChildren(...Array.from({ length: n }, (_seat, i) => {
    const prev = old[i] || { kind: i === 0 ? "you" : defaultBot, name: "" };
    const select = h("select", {
      name: `seat-${i}`, "aria-label": _("Seat {n}: who plays it", { n: i + 1 }), "data-seat": i,
      onchange: (ev) => onlyOneYou(ev.target),
    },
    PEOPLE.map(([v, text]) => h("option", { value: v }, text)),
    h("optgroup", { label: _("a bot: level") }, botKinds.filter((b) => LEVELS.includes(b))
      .map((b) => h("option", { value: b, title: botLabels[b] || b },
        _("bot: {name} (level {n} of {total})", { name: levelNames[b] || b, n: LEVELS.indexOf(b) + 1, total: LEVELS.length })))),
    h("optgroup", { label: _("a bot: agent") }, botKinds.filter((b) => !LEVELS.includes(b))
      .map((b) => h("option", { value: b, title: botLabels[b] || b }, _("bot: {name}", { name: b })))));
    select.value = [...select.options].some((o) => o.value === prev.kind) ? prev.kind : defaultBot;
    const factions = factionsOf(i, n);
    return h("div", { class: "seat", "data-row": i },
      h("span", { class: "swatches" }, factions.map((f) => h("span", {
        class: "swatch faction", title: PLAYER_COLOUR_NAMES[f], role: "img", "aria-label": PLAYER_COLOUR_NAMES[f],
      }, factionMark(f, 16)))),
      h("span", { class: "seat-no" }, _("Seat {n}", { n: i + 1 })),
      teams ? h("span", { class: "seat-team" }, _("team {n}", { n: teamOf(i, n) + 1 })) : null,
      select,
      h("input", { type: "text", name: `name-${i}`, placeholder: _("name (optional)"), maxlength: 24, value: prev.name, "aria-label": _("Name of seat {n}", { n: i + 1 }) }));
  }));
}

// One seat is "you" at most: choosing it for another seat makes the former one a friend's.
function onlyOneYou(select) {
  if (select.value !== "you") return;
  for (const other of $("seats").querySelectorAll("select")) {
    if (other !== select && other.value === "you") other.value = "invite";
  }
}

async function create(ev) {
  ev.preventDefault();
  const err = $("create-error");
  err.hidden = true;
  const { n, ruleset, classic } = form();
  const rows = [...$("seats").querySelectorAll(".seat")];
  const teams = !classic && $("teams").checked;
  const body = {
    players: n,
    ruleset,
    teams,
    team_goal: teams ? Number($("team-goal").value) : null,
    maelstrom: !classic && $("maelstrom").checked,
    board: classic ? "random" : $("board").value,
    seed: null,
    seats: rows.map((r) => r.querySelector("select").value),
    names: rows.map((r) => r.querySelector("input").value.trim() || null),
    max_cycles: null,
    speed: $("speed").value,
  };
  $("create").disabled = true;
  try {
    const game = await api("POST", "/api/games", body);
    if (game.host_token) keepHostToken(game.game_id, game.host_token);
    // The creator's seat opens at once; the friends' links go along, shown on the game page.
    const mine = (game.seats || []).find((s) => s.access === "host" && s.url);
    if (mine) {
      keepInvites(game);
      location.href = mine.url;
      return;
    }
    showCreated(game);
    loadGames();
  } catch (e) {
    err.textContent = _("The game could not be created: {reason}", { reason: e.message });
    err.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

function absolute(url) {
  return new URL(url, location.href).href;
}

function copyButton(url) {
  return h("button", {
    type: "button", class: "small secondary copy",
    onclick: async (ev) => {
      const btn = ev.currentTarget;
      const input = btn.parentElement.querySelector("input");
      try {
        await navigator.clipboard.writeText(absolute(url));
        btn.textContent = _("copied");
      } catch (e) {
        // No clipboard (plain http on another host): select the text instead.
        input.select();
        btn.textContent = _("press Ctrl+C");
      }
      setTimeout(() => (btn.textContent = _("copy")), 2000);
    },
  }, _("copy"));
}

function linkRow(labelEl, url, extra, attrs = {}) {
  return h("div", { class: "link-row", ...attrs }, labelEl,
    h("input", { type: "text", readonly: true, value: absolute(url), onfocus: (e) => e.target.select(), "aria-label": _("link") }),
    copyButton(url), extra);
}

function seatChip(s) {
  const f = (s.factions && s.factions[0]) ?? s.seat;
  return h("span", { class: "chip", style: { background: colour(f), color: ink(f) }, translate: s.name ? "no" : null }, s.name || _("Player {n}", { n: s.seat + 1 }));
}

function showCreated(game) {
  const box = $("created");
  const seats = game.seats || [];
  const mine = seats.find((s) => s.access === "host" && s.url);
  const invited = seats.filter((s) => s.access === "invite" && s.url);
  const open = seats.filter((s) => s.access === "open");
  box.replaceChildren(...[
    h("h3", {}, _("Your game is ready")),
    mine ? h("div", { class: "seat-line" },
      h("div", { class: "what" }, _("Your seat: this link is yours, keep it to come back to the game.")),
      linkRow(h("span", { class: "who" }, seatChip(mine)), mine.url,
        h("a", { class: "button small", href: mine.url, "data-seat-link": mine.seat }, _("open")))) : null,
    invited.length ? h("div", { class: "seat-line" },
      h("div", { class: "what" }, invited.length > 1
        ? _("Send each friend their own invitation link: only whoever has a link plays that seat.")
        : _("Send this invitation link to your friend: only whoever has it plays that seat.")),
      invited.map((s) => linkRow(h("span", { class: "who", title: _("seat {n}", { n: s.seat + 1 }) }, seatChip(s)), s.url, null,
        { "data-invite": s.seat }))) : null,
    open.length ? h("div", { class: "seat-line" },
      h("div", { class: "what" }, _("Open to anyone: the first to press Join in the list of games takes these seats:"), " ",
        open.flatMap((s, k) => [k ? ", " : "", seatChip(s)]), ".")) : null,
    linkRow(h("span", { class: "who" }, _("Spectators")), game.spectator_url),
    h("p", { class: "host-note" }, _("You are this game's host: from this browser, the list of games lets you give the seat of a player who does not come to a bot.")),
    mine ? h("div", { class: "row actions" }, h("a", { class: "button primary", id: "open-seat", href: mine.url }, _("Open your seat ({name})", { name: mine.name || _("Player {n}", { n: mine.seat + 1 }) }))) : null,
  ].filter(Boolean));
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
  offerNameInvites(box, game);
}

// --- the list of games ------------------------------------------------------------------

const STATUS = { waiting: _("waiting for players"), playing: _("in progress"), over: _("finished") };

function modeText(g) {
  const parts = [ngettext("{n} player", "{n} players", g.players), RULESETS[g.ruleset] || g.ruleset || RULESETS.legendary];
  if (g.teams) parts.push(g.players === 2 ? _("two factions each") : _("teams, goal {n}", { n: g.team_goal || 3 }));
  if (g.ruleset !== "classic" && g.maelstrom === false) parts.push(_("no Maelström"));
  return parts.join(" · ");
}

function seatTitle(s) {
  if (s.kind !== "human") return _("{kind} bot", { kind: s.kind });
  if (s.joined) return _("a player has joined");
  if (s.open) return _("open: anyone may join it");
  return _("kept for an invited player (by link)");
}

let listAsked = 0; // the latest list asked for: an older answer arriving late is dropped

async function loadGames() {
  const box = $("games");
  const asked = ++listAsked;
  let data;
  const query = new URLSearchParams();
  if ($("mode-filter").value) query.set("mode", $("mode-filter").value);
  if ($("status-filter").value) query.set("status", $("status-filter").value);
  const qs = query.toString();
  try {
    data = await api("GET", `/api/games${qs ? `?${qs}` : ""}`);
  } catch (e) {
    if (asked !== listAsked) return;
    box.replaceChildren(h("p", { class: "error" }, _("The list of games cannot be loaded: {reason}", { reason: e.message })));
    return;
  }
  if (asked !== listAsked) return;
  const games = (data.games || []).slice().sort((a, b) => (b.created || 0) - (a.created || 0));
  if (!games.length) {
    box.replaceChildren(h("p", { class: "muted" }, qs ? _("No such game now.") : _("No games yet: create one.")));
    return;
  }
  const hosted = hostTokens();
  // Keep what the host was choosing across the refresh.
  const openDetails = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.game));
  box.replaceChildren(h("table", { class: "games" },
    h("thead", {}, h("tr", {}, h("th", {}, _("Game")), h("th", {}, _("Seats")), h("th", {}, _("State")), h("th", {}, ""))),
    h("tbody", {}, games.map((g) => {
      const seats = g.seats || [];
      const free = seats.filter((s) => s.kind === "human" && !s.joined).length;
      const live = g.status !== "over";
      const host = hosted[g.game_id];
      const humans = seats.filter((s) => s.kind === "human");
      return h("tr", { class: g.status, "data-game": g.game_id },
        h("td", {}, h("code", { translate: "no" }, g.game_id), h("div", { class: "muted" }, modeText(g))),
        h("td", {}, seats.map((s) => h("span", {
          class: `seat-chip ${s.kind === "human" ? "human" : "bot"} ${s.joined ? "joined" : ""} ${s.open ? "open" : ""}`,
          style: { background: colour((s.factions && s.factions[0]) ?? s.seat), color: ink((s.factions && s.factions[0]) ?? s.seat) },
          title: seatTitle(s), translate: s.name ? "no" : null,
        }, s.name || (s.kind === "human" ? _("P{n}", { n: s.seat + 1 }) : s.kind), s.kind !== "human" ? " " + _("(bot)") : ""))),
        h("td", {}, STATUS[g.status] || g.status,
          g.status === "playing" && g.cycle ? h("div", { class: "muted" }, _("cycle {n}", { n: g.cycle })) : null,
          free && live ? h("div", { class: "muted" }, ngettext("{n} seat not taken yet", "{n} seats not taken yet", free)) : null),
        h("td", {}, h("div", { class: "game-links" },
          // An open seat goes to the first to join (POST /api/games/{id}/join); a friend's
          // seat only to its invitation link.
          live ? seats.filter((s) => s.kind === "human" && !s.joined && s.open).map((s) => h("button", {
            type: "button", class: "small primary", "data-join": `${g.game_id}:${s.seat}`,
            onclick: () => join(g.game_id, s.seat),
          }, _("Join (seat {n})", { n: s.seat + 1 }))) : null,
          h("a", { class: "button small secondary", href: `/game/${encodeURIComponent(g.game_id)}` }, g.status === "over" ? _("see") : _("spectate")),
          host && live && humans.length ? h("details", { class: "host-seats", "data-game": g.game_id, open: openDetails.has(g.game_id) },
            h("summary", {}, _("host: give a seat to a bot")),
            humans.map((s) => hostSeatRow(g.game_id, host, s))) : null)));
    }))));
}

function hostSeatRow(gameId, hostToken, s) {
  const select = h("select", { "aria-label": _("Bot for seat {n}", { n: s.seat + 1 }) },
    botKinds.map((b) => h("option", { value: b, selected: b === defaultBot }, b)));
  return h("div", { class: "host-seat" },
    h("span", {}, s.joined ? _("Seat {n} ({name})", { n: s.seat + 1, name: s.name || _("Player {n}", { n: s.seat + 1 }) })
      : _("Seat {n} ({name}, not joined)", { n: s.seat + 1, name: s.name || _("Player {n}", { n: s.seat + 1 }) })),
    select,
    h("button", {
      type: "button", class: "small", "data-replace": `${gameId}:${s.seat}`,
      onclick: async (ev) => {
        ev.currentTarget.disabled = true;
        try {
          await api("POST", `/api/games/${encodeURIComponent(gameId)}/seats/${s.seat}`,
            { host_token: hostToken, kind: select.value });
        } catch (e) {
          alert(_("That seat cannot be given to a bot: {reason}", { reason: e.message }));
        }
        loadGames();
      },
    }, _("give to bot")));
}

// Taking an open seat: the server makes a token for whoever joins first.
async function join(gameId, seat) {
  try {
    const data = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { seat });
    if (data && data.url) location.href = data.url;
  } catch (e) {
    alert(_("You cannot join that seat: {reason}", { reason: e.message }));
    loadGames();
  }
}

async function main() {
  await loadBotKinds();
  seatRows();
  syncOptions();
  $("ruleset").addEventListener("change", syncOptions);
  $("players").addEventListener("change", syncOptions);
  $("teams").addEventListener("change", syncOptions);
  $("maelstrom").addEventListener("change", (ev) => (ev.target.dataset.touched = "1"));
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadGames);
  $("mode-filter").addEventListener("change", loadGames);
  $("status-filter").addEventListener("change", loadGames);
  loadGames();
  setInterval(loadGames, 15000);
}

main();
