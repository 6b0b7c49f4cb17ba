// The account in every page's top bar: "Play now", "My games" with a badge counting the games
// waiting on me, and my name (profile, settings, log out) or "Log in". On a game page opened
// with a seat's link, it offers to keep that seat in an account (server/accounts.py).
import { ngettext, _, api, h } from "./common.js";

const KEEP_KEY = "cyclades.keep-seat"; // sessionStorage: {game_id, token, back} while logging in
const REFRESH_MS = 30000;

let current = null; // GET /api/account
let loading = null;

// Who is logged in: {account: {id, name} | null, waiting_on_me, invitations}. Cached per page.
export function whoAmI(fresh = false) {
  if (!loading || fresh) {
    loading = api("GET", "/api/account").then((data) => (current = data)).catch((e) => {
      current = { account: null, problem: e.status === 401 ? e.message : null };
      return current;
    });
  }
  return loading;
}

export async function logout() {
  try {
    await api("POST", "/api/account/logout");
  } catch (e) { /* the cookies are gone either way, or were already */ }
  location.href = "/";
}

// The page to go to after logging in: ?next=/path (only this site's own paths).
export function nextPage(fallback = "/my") {
  const next = new URLSearchParams(location.search).get("next") || "";
  return next.startsWith("/") && !next.startsWith("//") ? next : fallback;
}

export function loginLink(text = _("Log in"), signup = false) {
  const here = location.pathname + location.search;
  return h("a", { class: "account-login", href: `/login?next=${encodeURIComponent(here)}${signup ? "#signup" : ""}` }, text);
}

// A seat a guest wants to keep, carried across the login page.
export function keepRequest() {
  try {
    return JSON.parse(sessionStorage.getItem(KEEP_KEY) || "null");
  } catch (e) {
    return null;
  }
}

export function forgetKeepRequest() {
  try {
    sessionStorage.removeItem(KEEP_KEY);
  } catch (e) { /* nothing kept */ }
}

// "3 min", "5 h", "2 days": how long, in words people read at a glance.
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return ngettext("{n} second", "{n} seconds", s);
  const m = Math.round(s / 60);
  if (m < 60) return ngettext("{n} minute", "{n} minutes", m);
  const hours = Math.round(s / 3600);
  if (hours < 48) return ngettext("{n} hour", "{n} hours", hours);
  const d = Math.round(s / 86400);
  return ngettext("{n} day", "{n} days", d);
}

export function placeText(place, players) {
  const n = place + 1;
  const ord = n === 1 ? _("1st") : n === 2 ? _("2nd") : n === 3 ? _("3rd") : _("{n}th", { n });
  return _("{place} of {players}", { place: ord, players });
}

// --- the top bar --------------------------------------------------------------------------

function badge(n) {
  return n ? h("span", { class: "badge-count", title: ngettext("{n} game waiting on you", "{n} games waiting on you", n), "aria-label": _("{n} waiting on you", { n }) }, String(n)) : null;
}

function renderNav(nav, data) {
  const a = data && data.account;
  const items = [h("a", { class: "nav-play", href: "/play" }, _("Play now"))];
  if (a) {
    items.push(h("a", { class: "nav-my", href: "/my" }, _("My games"), badge(data.waiting_on_me)));
    items.push(h("details", { class: "account-menu" },
      h("summary", { title: _("Logged in as {name}", { name: a.name }) }, h("span", { class: "account-name" }, a.name)),
      h("div", { class: "menu", role: "menu" },
        h("a", { href: `/players/${encodeURIComponent(a.name)}`, role: "menuitem" }, _("My profile")),
        h("a", { href: "/my", role: "menuitem" }, _("My games")),
        h("a", { href: "/leaderboard", role: "menuitem" }, _("Leaderboard")),
        h("a", { href: "/account", role: "menuitem" }, _("Account settings")),
        h("button", { type: "button", class: "linklike", role: "menuitem", onclick: logout }, _("Log out")))));
  } else {
    items.push(h("a", { class: "nav-board", href: "/leaderboard" }, _("Leaderboard")));
    if (location.pathname !== "/login") items.push(loginLink());
  }
  nav.replaceChildren(...items);
  if (data && data.problem) nav.title = data.problem;
}

async function refreshNav(nav) {
  renderNav(nav, await whoAmI(true));
}

function installNav() {
  const bar = document.querySelector("header.topbar");
  if (!bar || document.querySelector(".account-nav")) return null;
  const nav = h("nav", { class: "account-nav", "aria-label": _("Your account") });
  // A game's top bar is full at a laptop's width, and a second line of it would take the
  // board's height: there the account heads the side column.
  const side = document.body.classList.contains("game-page") && matchMedia("(min-width: 821px)").matches
    ? document.querySelector("aside.side") : null;
  if (side) {
    nav.classList.add("side-account");
    side.prepend(nav);
  } else bar.append(nav);
  whoAmI().then((data) => renderNav(nav, data));
  setInterval(() => {
    if (document.visibilityState === "visible") refreshNav(nav);
  }, REFRESH_MS);
  document.addEventListener("click", (ev) => {
    for (const d of document.querySelectorAll("details.account-menu[open]")) {
      if (!d.contains(ev.target)) d.open = false;
    }
  });
  return nav;
}

// --- a guest's seat --------------------------------------------------------------------------

async function offerToKeepSeat() {
  const m = location.pathname.match(/^\/game\/([^/]+)$/);
  const token = new URLSearchParams(location.search).get("token");
  if (!m || !token) return;
  const gameId = decodeURIComponent(m[1]);
  try { // a lesson's seat is no one's to keep
    if ((await api("GET", `/api/tutorial/games/${encodeURIComponent(gameId)}`)).tutorial) return;
  } catch (e) {
    return;
  }
  try {
    if (sessionStorage.getItem(`${KEEP_KEY}.not-now.${gameId}`)) return;
  } catch (e) { /* offer it */ }
  const data = await whoAmI();
  if (data.account) {
    let mine;
    try {
      mine = await api("GET", "/api/account/games");
    } catch (e) {
      return;
    }
    const all = [...mine.waiting_on_me, ...mine.running, ...mine.open, ...mine.finished];
    if (all.some((g) => g.game_id === gameId)) return; // held already
  }
  const box = h("div", { class: "keep-seat panel", role: "note" });
  const close = h("button", {
    type: "button", class: "linklike keep-close", "aria-label": _("Not now"), title: _("Not now"),
    onclick: () => {
      box.remove();
      try { // not again for this game in this browser tab
        sessionStorage.setItem(`${KEEP_KEY}.not-now.${gameId}`, "1");
      } catch (e) { /* it comes back on the next visit */ }
    },
  }, "×");
  if (data.account) {
    box.append(h("p", {}, _("Keep this seat in your account ({name}): the game goes into My games.", { name: data.account.name })),
      h("div", { class: "buttons" }, h("button", {
        type: "button", class: "small primary", id: "keep-seat",
        onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          try {
            await api("POST", "/api/account/seats", { game_id: gameId, token });
            box.replaceChildren(h("p", {}, _("This seat is yours now: it is in My games.")));
            setTimeout(() => box.remove(), 4000);
          } catch (e) {
            box.replaceChildren(h("p", { class: "error" }, _("The seat cannot be kept: {reason}", { reason: e.message })), close);
          }
        },
      }, _("Keep this seat"))), close);
  } else {
    const go = (signup) => () => {
      try {
        sessionStorage.setItem(KEEP_KEY, JSON.stringify({ game_id: gameId, token, back: location.pathname + location.search }));
      } catch (e) { /* the login page will not know: the seat stays a guest's */ }
      location.href = `/login?keep=1${signup ? "#signup" : ""}`;
    };
    box.append(h("p", {}, _("You play as a guest, by this link. Create an account to keep this seat: your games, ratings and invitations in one place.")),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "small primary", id: "keep-signup", onclick: go(true) }, _("Create an account")),
        h("button", { type: "button", class: "small secondary", id: "keep-login", onclick: go(false) }, _("Log in"))), close);
  }
  const side = document.querySelector("aside.side");
  const account = side && side.querySelector(".side-account");
  if (account) account.after(box);
  else if (side) side.prepend(box);
  else document.body.append(box);
}

installNav();
offerToKeepSeat();

// --- the end of a game ---------------------------------------------------------------------------

// The end screen of a rated game I played: my rating before and after it (recorded by the server
// a moment after the end: asked again for a few seconds).
export async function ratingMoved(card, gameId) {
  const data = await whoAmI();
  if (!data.account || card.querySelector(".rating-moved")) return;
  const line = h("p", { class: "rating-moved", hidden: true });
  card.querySelector("h2").after(line);
  for (let i = 0; i < 10; i++) {
    let profile;
    try {
      profile = await api("GET", `/api/players/${encodeURIComponent(data.account.name)}`);
    } catch (e) {
      return;
    }
    const game = profile.recent.find((g) => g.game_id === gameId);
    if (game) {
      if (!game.rating) return; // unrated, or not my game
      const { before, after } = game.rating;
      line.replaceChildren(`Your ${game.mode.ruleset === "classic" ? "Classic" : "Legendary"} rating: ${before} → `,
        h("b", { class: after >= before ? "up" : "down" }, String(after)));
      line.hidden = false;
      return;
    }
    await new Promise((done) => setTimeout(done, 1000));
  }
}

// --- invitations by name ----------------------------------------------------------------------

// The lobby's "Your game is ready": beside each friend's invitation link, invite a player by
// their name instead (POST /api/games/{id}/invite): the seat then waits in their "My games".
export async function offerNameInvites(box, game) {
  const data = await whoAmI();
  if (!data.account) return;
  for (const row of box.querySelectorAll("[data-invite]")) {
    const seat = Number(row.dataset.invite);
    const input = h("input", { type: "text", maxlength: 24, placeholder: _("a player's name"), "aria-label": _("Invite a player by name to seat {n}", { n: seat + 1 }) });
    const message = h("span", { class: "muted", role: "status" });
    const form = h("form", { class: "invite-by-name", "data-invite-name": seat },
      h("span", { class: "what" }, _("or by name:")), input,
      h("button", { type: "submit", class: "small secondary" }, _("Invite")), message);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        const r = await api("POST", `/api/games/${encodeURIComponent(game.game_id)}/invite`,
          { seat, name: input.value.trim(), host_token: game.host_token });
        row.replaceWith(h("p", { class: "invited", "data-invited": seat }, _("{name} is invited to seat {n}: the game waits in their My games (the link above no longer works).", { name: r.invited, n: seat + 1 })));
        form.remove();
      } catch (e) {
        message.textContent = e.message;
      }
    });
    row.after(form);
  }
}
