// Tooltips for the game screen: anything with data-tip="kind:id" explains itself on hover
// (mouse) and on tap (touch screens), from the content texts of GET /api/content
// (content/descriptions.py, the same texts as the rules page). Also: the "your move" signal
// (the tab's title and a short WebAudio sound that can be turned off, kept in localStorage).
import { _, h } from "./common.js";

const tips = new Map(); // "god:zeus" -> {name, text, cost, rows}
let areaTip = null; // (id) -> element: the game page describes an area from the view
let lastPointer = "mouse";
let shownFor = null;

export function loadContent(c) {
  tips.clear();
  for (const g of c.gods || []) tips.set(`god:${g.id}`, { name: g.name, text: g.summary, rows: g.actions });
  for (const x of c.creatures || []) tips.set(`creature:${x.id}`, { name: x.name, text: x.text, cost: x.cost, kind: x.miniature ? _("Mythological Creature with a miniature") : _("Mythological Creature") });
  for (const x of c.heroes || []) tips.set(`hero:${x.id}`, { name: x.name, kind: _("Hero"), cost: x.cost, rows: [{ text: x.military, cost: _("in battle") }, { text: x.sacrifice, cost: _("sacrifice") }] });
  for (const x of c.bonuses || []) tips.set(`bonus:${x.id}`, { name: x.name, kind: _("Metropolis bonus"), text: x.text });
  for (const x of c.buildings || []) tips.set(`building:${x.id}`, { name: x.name, kind: _("Building"), text: x.text, cost: x.cost });
  for (const x of c.units || []) tips.set(`unit:${x.id}`, { name: x.name, text: x.text, cost: x.cost });
}

export function tipInfo(key) {
  return tips.get(key) || null;
}

export function setAreaTip(fn) {
  areaTip = fn;
}

// The text of a tip as an element (also used inside popups).
export function tipBody(key) {
  const [kind, ...rest] = String(key).split(":");
  const id = rest.join(":");
  if (kind === "area") return areaTip ? areaTip(id) : null;
  if (kind === "text") return h("div", { class: "tip-body" }, h("p", {}, id));
  const t = tips.get(key);
  if (!t) return null;
  return h("div", { class: "tip-body" },
    h("div", { class: "tip-head" }, h("b", {}, t.name), t.kind ? h("small", {}, ` · ${t.kind}`) : null),
    t.text ? h("p", {}, t.text) : null,
    t.rows ? h("table", { class: "tip-rows" }, h("tbody", {}, t.rows.map((r) => h("tr", {}, h("td", {}, r.text), h("td", { class: "price" }, r.cost || ""))))) : null,
    t.cost ? h("div", { class: "tip-cost" }, _("Cost:"), " ", t.cost) : null);
}

const $tip = () => document.getElementById("tip");

export function hideTip() {
  const t = $tip();
  if (t) t.hidden = true;
  shownFor = null;
}

function showTip(el, ev) {
  const t = $tip();
  const body = tipBody(el.getAttribute("data-tip"));
  if (!t || !body) return hideTip();
  t.replaceChildren(body);
  t.hidden = false;
  shownFor = el;
  const r = el.getBoundingClientRect();
  const w = t.offsetWidth;
  const hgt = t.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  // On the board, near the pointer; elsewhere under (or over) the element.
  const big = r.width > 160 && r.height > 60 && ev && ev.clientX !== undefined;
  let x = big ? ev.clientX + 14 : r.left;
  let y = big ? ev.clientY + 18 : r.bottom + 6;
  if (y + hgt > vh - 4) y = (big ? ev.clientY - 12 : r.top - 6) - hgt;
  x = Math.max(4, Math.min(x, vw - w - 4));
  y = Math.max(4, y);
  t.style.left = `${x}px`;
  t.style.top = `${y}px`;
}

export function installTips() {
  document.addEventListener("pointerdown", (ev) => { lastPointer = ev.pointerType || "mouse"; }, true);
  document.addEventListener("mouseover", (ev) => {
    if (lastPointer === "touch" || lastPointer === "pen") return;
    const el = ev.target.closest && ev.target.closest("[data-tip]");
    if (el) {
      if (el !== shownFor || el.getAttribute("data-tip").startsWith("area:")) showTip(el, ev);
    } else if (shownFor) hideTip();
  });
  document.addEventListener("mousemove", (ev) => {
    if (shownFor && lastPointer === "mouse" && shownFor.getAttribute("data-tip").startsWith("area:")) showTip(shownFor, ev);
  }, { passive: true });
  // A tap: explain what was tapped, unless the tap does something (a choice to make).
  document.addEventListener("click", (ev) => {
    if (lastPointer !== "touch" && lastPointer !== "pen") return;
    const el = ev.target.closest && ev.target.closest("[data-tip]");
    if (!el || el.closest(".clickable, .legal, button, a, #popup")) {
      if (!(el && el === shownFor)) hideTip();
      return;
    }
    if (el === shownFor) hideTip();
    else showTip(el, ev);
  });
  window.addEventListener("scroll", () => { if (lastPointer !== "touch") hideTip(); }, { passive: true, capture: true });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hideTip(); });
}

// --- your move: the tab's title and a short sound -----------------------------------------

const SOUND_KEY = "cyclades.sound";
let audio = null;
export const signals = { beeps: 0 };

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch (e) {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch (e) { /* private mode: only for this page */ }
}

// Two soft notes, generated (no sound file).
export function beep() {
  signals.beeps += 1;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    const t = audio.currentTime + 0.02;
    for (const [i, f] of [[0, 660], [1, 880]]) {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.type = "sine";
      o.frequency.value = f;
      const t0 = t + i * 0.16;
      g.gain.setValueAtTime(0.0001, t0);
      g.gain.exponentialRampToValueAtTime(0.18, t0 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.22);
      o.connect(g).connect(audio.destination);
      o.start(t0);
      o.stop(t0 + 0.25);
    }
  } catch (e) { /* no sound on this browser */ }
}

// The browser lets a page play sound only after the person touched it: open the
// audio context on the first gesture, so that a later beep in the background plays.
export function unlockAudio() {
  const once = () => {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !audio && soundOn()) audio = new Ctx();
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) { /* ignore */ }
    document.removeEventListener("pointerdown", once, true);
  };
  document.addEventListener("pointerdown", once, true);
}
