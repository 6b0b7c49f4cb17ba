// A timed game's clocks (server/clocks.py): each seat's time, the running one counting down.
// The server sends its own time with the clocks (`now`): the page counts from the difference
// between it and this computer's, so a wrong clock here does not matter.
import { _, api, h } from "./common.js";
import { whoAmI } from "./account.js";

let shown = null;        // the last clocks received
let offset = 0;          // server time - this computer's time, in seconds
let timer = null;

const serverNow = () => Date.now() / 1000 + offset;

// "7:42" for under an hour (live games), else days and hours ("2 d 5 h"), hours and minutes.
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${hh} h` : `${hh} h ${mm} min`;
}

// Seconds the seat has left: the running seat until its deadline; the others, what their next
// decision will have (its own time and the bank).
export function timeLeft(c, seat) {
  return c.seat === seat ? c.deadline - serverNow() : c.per + c.banks[seat];
}

function seatLabel(seats, i) {
  const s = (seats || [])[i] || {};
  return s.name || _("Player {n}", { n: i + 1 });
}

function draw(el, seats) {
  const c = shown;
  let body = el.querySelector(".clock-body");
  if (!body) {
    body = h("div", { class: "clock-body" });
    el.prepend(body);
  }
  body.replaceChildren(
    h("p", { class: "clock-speed muted" }, c.label || ""),
    h("ul", { class: "clock-list" }, c.banks.map((_bank, i) => {
      const left = timeLeft(c, i);
      const outs = c.timeouts[i];
      return h("li", { class: "clock" + (c.seat === i ? " running" : "") + (left < 30 && c.seat === i ? " low" : ""),
        "data-seat": i, "data-left": left.toFixed(1) },
      h("span", { class: "clock-name" }, seatLabel(seats, i)),
      h("b", { class: "clock-time" }, clockText(left)),
      outs ? h("small", { class: "clock-outs", title: _("Time ran out {n} of {max} times: at the last, a bot keeps the seat.", { n: outs, max: c.timeouts_to_bot }) },
        outs === 1 ? _("time ran out once") : _("time ran out {n} times", { n: outs })) : null);
    })));
}

// A player by link (no account needed) in a turn-based game may give an address for their
// seat: they are told by e-mail when it is their turn (server/notify.py). With an account,
// the account's own settings say how.
async function guestForm(el) {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  const gid = location.pathname.split("/")[2];
  if (!token || !gid || el.querySelector(".clock-mail")) return;
  const form = h("form", { class: "clock-mail" });
  el.append(form);
  const me = await whoAmI();
  if (me.account) {
    form.replaceChildren(h("a", { href: "/account" }, _("How you are told of your turn: your account's settings")));
    return;
  }
  let known;
  try {
    known = await api("GET", `/api/games/${encodeURIComponent(gid)}/notify?token=${encodeURIComponent(token)}`);
  } catch (e) {
    form.remove();
    return;
  }
  if (!known.email_available) {
    form.remove();
    return;
  }
  const input = h("input", { type: "email", id: "clock-mail-address", autocomplete: "email", maxlength: "254", placeholder: _("name@example.org"), value: known.email || "" });
  const said = h("span", { class: "muted", role: "status" });
  form.replaceChildren(
    h("label", { for: "clock-mail-address" }, _("Tell me by e-mail when it is my turn here:")),
    h("span", { class: "clock-mail-row" }, input, h("button", { type: "submit", class: "small" }, _("Save"))),
    said);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", `/api/games/${encodeURIComponent(gid)}/notify`, { token, email: input.value.trim() || null });
      said.textContent = r.email ? _("Saved: you will get an e-mail when it is your turn.") : _("Saved: no e-mails.");
    } catch (e) {
      said.textContent = e.message;
    }
  });
}

// The clocks of a state message (null: an untimed game, the panel hides); `now`: the server's
// time when it sent the message (a WebSocket's state may have been made earlier: its clock.now).
export function showClocks(clock, seats, now) {
  const el = document.getElementById("clocks");
  if (!el) return;
  if (!clock) {
    el.hidden = true;
    if (timer) clearInterval(timer);
    timer = null;
    return;
  }
  shown = clock;
  offset = (now ?? clock.now) - Date.now() / 1000;
  el.hidden = false;
  draw(el, seats);
  if (clock.turn_based) guestForm(el);
  if (!timer) timer = setInterval(() => shown && draw(el, seats), clock.per >= 3600 ? 30000 : 250);
}
