// A timed game's clocks (server/clocks.py): each seat's time, the running one counting down.
// The server sends its own time with the clocks (`now`): the page counts from the difference
// between it and this computer's, so a wrong clock here does not matter.
import { h } from "./common.js";

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
  return s.name || `Player ${i + 1}`;
}

function draw(el, seats) {
  const c = shown;
  el.replaceChildren(
    h("p", { class: "clock-speed muted" }, c.label || ""),
    h("ul", { class: "clock-list" }, c.banks.map((_, i) => {
      const left = timeLeft(c, i);
      const outs = c.timeouts[i];
      return h("li", { class: "clock" + (c.seat === i ? " running" : "") + (left < 30 && c.seat === i ? " low" : ""),
        "data-seat": i, "data-left": left.toFixed(1) },
      h("span", { class: "clock-name" }, seatLabel(seats, i)),
      h("b", { class: "clock-time" }, clockText(left)),
      outs ? h("small", { class: "clock-outs", title: `Time ran out ${outs} of ${c.timeouts_to_bot} times: at the last, a bot keeps the seat.` },
        outs === 1 ? "time ran out once" : `time ran out ${outs} times`) : null);
    })));
}

// The clocks of a state message (null: an untimed game, the panel hides).
export function showClocks(clock, seats) {
  const el = document.getElementById("clocks");
  if (!el) return;
  if (!clock) {
    el.hidden = true;
    if (timer) clearInterval(timer);
    timer = null;
    return;
  }
  shown = clock;
  offset = clock.now - Date.now() / 1000;
  el.hidden = false;
  draw(el, seats);
  if (!timer) timer = setInterval(() => shown && draw(el, seats), clock.per >= 3600 ? 30000 : 250);
}
