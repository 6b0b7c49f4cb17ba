// The friends' invitation links of a game this browser created: the lobby keeps them when the
// creator's seat opens by itself (lobby.js), and the game page shows them to the creator until
// every invited friend has joined (game.js).
import { _, colour, h, ink } from "./common.js";

const KEY = "cyclades.invites";
const KEPT = 20; // games whose links are kept

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (e) {
    return {};
  }
}

function save(links) {
  try {
    localStorage.setItem(KEY, JSON.stringify(links));
  } catch (e) { /* private mode: the links are on the lobby's page only */ }
}

// game: the answer of POST /api/games.
export function keepInvites(game) {
  const invited = (game.seats || []).filter((s) => s.access === "invite" && s.url)
    .map((s) => ({ seat: s.seat, name: s.name, factions: s.factions, url: s.url }));
  const links = all();
  links[game.game_id] = { invited, spectator: game.spectator_url, at: Date.now() };
  const ids = Object.keys(links).sort((a, b) => links[b].at - links[a].at);
  for (const id of ids.slice(KEPT)) delete links[id];
  save(links);
}

// The panel for the game page while invited seats are not joined yet; null otherwise.
export function invitesPanel(gid, seats) {
  const mine = all()[gid];
  if (!mine) return null;
  const waiting = mine.invited.filter((x) => {
    const s = (seats || [])[x.seat];
    return s && s.kind === "human" && !s.joined;
  });
  if (!waiting.length) {
    if (seats && seats.length) forget(gid); // everyone came
    return null;
  }
  const row = (label, url, attrs = {}) => h("div", { class: "invite-row", ...attrs }, label,
    h("input", { type: "text", readonly: true, value: new URL(url, location.href).href, "aria-label": _("link"), onfocus: (e) => e.target.select() }),
    h("button", {
      type: "button", class: "small secondary",
      onclick: async (ev) => {
        const btn = ev.currentTarget;
        try {
          await navigator.clipboard.writeText(new URL(url, location.href).href);
          btn.textContent = _("copied");
        } catch (e) {
          btn.parentElement.querySelector("input").select();
          btn.textContent = _("press Ctrl+C");
        }
        setTimeout(() => (btn.textContent = _("copy")), 2000);
      },
    }, _("copy")));
  const chipOf = (x) => {
    const f = (x.factions && x.factions[0]) ?? x.seat;
    return h("span", { class: "chip", style: { background: colour(f), color: ink(f) } }, x.name || `Player ${x.seat + 1}`);
  };
  return h("section", { class: "panel invites", id: "invites", "aria-label": _("Invitation links") },
    h("h2", {}, _("Waiting for your friends")),
    h("p", { class: "muted" }, waiting.length > 1
      ? _("Send each friend their own link: only whoever has a link plays that seat. The game begins when they come.")
      : _("Send this link to your friend: only whoever has it plays that seat. The game begins when they come.")),
    waiting.map((x) => row(chipOf(x), x.url, { "data-invite": x.seat })),
    mine.spectator ? row(h("span", { class: "muted" }, _("Spectators")), mine.spectator) : null);
}

function forget(gid) {
  const links = all();
  delete links[gid];
  save(links);
}
