// The lobby: create a game, show its seat links, list the games on the server.
import { api, chip, colour, h, ink, PLAYER_COLOUR_NAMES } from "./common.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_BOTS = ["random"];
let botKinds = DEFAULT_BOTS;

// The server may list its bot kinds (GET /api/bots -> {"bots": [...]} or [...]).
async function loadBotKinds() {
  try {
    const data = await api("GET", "/api/bots");
    const list = Array.isArray(data) ? data : data && (data.bots || data.agents || data.kinds);
    if (Array.isArray(list) && list.length) {
      botKinds = list.map((b) => (typeof b === "string" ? b : b.name)).filter(Boolean);
    }
  } catch (e) {
    botKinds = DEFAULT_BOTS;
  }
}

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat")].map((row) => ({
    kind: row.querySelector("select").value, name: row.querySelector("input").value,
  }));
  box.replaceChildren(...Array.from({ length: n }, (_, i) => {
    const prev = old[i] || { kind: i === 0 ? "human" : botKinds[0], name: "" };
    const select = h("select", { name: `seat-${i}`, "aria-label": `Seat ${i + 1}`, "data-seat": i },
      h("option", { value: "human" }, "human"),
      botKinds.map((b) => h("option", { value: b }, `bot: ${b}`)));
    select.value = [...select.options].some((o) => o.value === prev.kind) ? prev.kind : "human";
    return h("div", { class: "seat" },
      h("span", { class: "swatch", style: { background: colour(i) }, title: PLAYER_COLOUR_NAMES[i] }),
      h("span", { class: "seat-no" }, `Seat ${i + 1}`),
      select,
      h("input", { type: "text", name: `name-${i}`, placeholder: "name (optional)", maxlength: 24, value: prev.name, "aria-label": `Name of seat ${i + 1}` }));
  }));
}

async function create(ev) {
  ev.preventDefault();
  const err = $("create-error");
  err.hidden = true;
  const n = Number($("players").value);
  const rows = [...$("seats").querySelectorAll(".seat")];
  const body = {
    players: n,
    ruleset: $("ruleset").value,
    maelstrom: $("maelstrom").checked,
    board: $("board").value,
    seed: null,
    seats: rows.map((r) => r.querySelector("select").value),
    names: rows.map((r) => r.querySelector("input").value.trim() || null),
    max_cycles: null,
  };
  $("create").disabled = true;
  try {
    const game = await api("POST", "/api/games", body);
    showCreated(game, body);
    loadGames();
  } catch (e) {
    err.textContent = `The game could not be created: ${e.message}`;
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
      try {
        await navigator.clipboard.writeText(absolute(url));
        btn.textContent = "copied";
      } catch (e) {
        // No clipboard (plain http on another host): select the text instead.
        const input = btn.parentElement.querySelector("input");
        input.select();
        btn.textContent = "press Ctrl+C";
      }
      setTimeout(() => (btn.textContent = "copy"), 2000);
    },
  }, "copy");
}

function linkRow(labelEl, url, extra) {
  return h("div", { class: "link-row" }, labelEl,
    h("input", { type: "text", readonly: true, value: absolute(url), onfocus: (e) => e.target.select() }),
    copyButton(url), extra);
}

function showCreated(game, body) {
  const box = $("created");
  const seats = game.seats || [];
  const names = seats.map((s) => ({ name: s.name }));
  const humans = seats.filter((s) => s.url);
  const first = humans[0];
  box.replaceChildren(
    h("h3", {}, "Your game is ready"),
    h("p", {}, humans.length > 1
      ? "Send each player their own seat link: whoever has a link plays that seat, so keep them secret."
      : "Your seat's link is secret: keep it to come back to the game."),
    ...humans.map((s) => linkRow(
      h("span", { class: "who" }, chip(s.seat, names, s.name || `Player ${s.seat + 1}`)),
      s.url,
      h("a", { class: "button small", href: s.url, "data-seat-link": s.seat }, "open"))),
    linkRow(h("span", { class: "who" }, "Spectators"), game.spectator_url),
    first ? h("div", { class: "row actions" }, h("a", { class: "button primary", id: "open-seat", href: first.url }, `Open your seat (${first.name || `Player ${first.seat + 1}`})`)) : null,
  );
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

const STATUS = { waiting: "waiting for players", playing: "in progress", over: "finished" };

async function loadGames() {
  const box = $("games");
  let data;
  try {
    data = await api("GET", "/api/games");
  } catch (e) {
    box.replaceChildren(h("p", { class: "error" }, `The list of games cannot be loaded: ${e.message}`));
    return;
  }
  const games = (data.games || []).slice().sort((a, b) => String(b.created).localeCompare(String(a.created)));
  if (!games.length) {
    box.replaceChildren(h("p", { class: "muted" }, "No games yet: create one."));
    return;
  }
  box.replaceChildren(h("table", { class: "games" },
    h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Seats"), h("th", {}, "State"), h("th", {}, ""))),
    h("tbody", {}, games.map((g) => {
      const seats = g.seats || [];
      const open = seats.filter((s) => s.kind === "human" && !s.joined).length;
      return h("tr", { class: g.status },
        h("td", {}, h("code", {}, g.game_id), h("div", { class: "muted" }, `${g.players} players · ${g.ruleset || "legendary"}`)),
        h("td", {}, seats.map((s) => h("span", {
          class: `seat-chip ${s.kind === "human" ? "human" : "bot"} ${s.joined ? "joined" : ""}`,
          style: { background: colour(s.seat), color: ink(s.seat) },
          title: s.kind === "human" ? (s.joined ? "a player has joined" : "a free seat: join with its link") : `${s.kind} bot`,
        }, s.name || (s.kind === "human" ? `P${s.seat + 1}` : s.kind)))),
        h("td", {}, STATUS[g.status] || g.status,
          g.status === "playing" && g.cycle ? h("div", { class: "muted" }, `cycle ${g.cycle}`) : null,
          open && g.status !== "over" ? h("div", { class: "muted" }, `${open} seat${open > 1 ? "s" : ""} not taken yet`) : null),
        h("td", { class: "game-links" },
          // A seat the server marks "open" may be taken by anyone (POST /api/games/{id}/join);
          // the others only by their secret links.
          g.status !== "over" ? seats.filter((s) => s.kind === "human" && !s.joined && s.open).map((s) => h("button", {
            type: "button", class: "small", "data-join": `${g.game_id}:${s.seat}`,
            onclick: () => join(g.game_id, s.seat),
          }, `join as ${s.name || `Player ${s.seat + 1}`}`)) : null,
          h("a", { class: "button small secondary", href: `/game/${encodeURIComponent(g.game_id)}` }, g.status === "over" ? "see" : "spectate")));
    }))));
}

// Taking a free seat: the server hands out that seat's link once (POST /api/games/{id}/join).
async function join(gameId, seat) {
  try {
    const data = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, { seat });
    if (data && data.url) location.href = data.url;
  } catch (e) {
    alert(e.status === 404 || e.status === 405
      ? "This server gives seats only by their secret links: ask the game's creator for yours."
      : `You cannot join that seat: ${e.message}`);
    loadGames();
  }
}

async function main() {
  await loadBotKinds();
  seatRows();
  $("players").addEventListener("change", seatRows);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", loadGames);
  loadGames();
  setInterval(loadGames, 15000);
}

main();
