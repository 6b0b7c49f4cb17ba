// The lessons page (/tutorial, the lobby's "Learn to play"): one button per lesson.
import { _, api, h, ngettext } from "/static/common.js";
const list = document.getElementById("lessons");
async function start(id, button) {
  button.disabled = true;
  try {
    const r = await api("POST", "/api/tutorial", { lesson: id });
    location.href = r.url;
  } catch (e) {
    const err = document.getElementById("error");
    err.textContent = e.message;
    err.hidden = false;
    button.disabled = false;
  }
}
const data = await api("GET", "/api/tutorial");
list.replaceChildren(...data.lessons.map((l, i) => {
  const b = h("button", { class: i === 0 ? "primary" : "secondary", "data-lesson": l.id, type: "button" }, i === 0 ? _("Start") : _("Open"));
  b.addEventListener("click", () => start(l.id, b));
  return h("li", { class: "lesson" }, h("span", { class: "no" }, i + 1),
    h("span", { class: "what" }, h("b", {}, l.title), h("small", {}, ngettext("{n} step", "{n} steps", l.steps))), b);
}));
document.getElementById("total").textContent = _("{lessons} lessons, {steps} steps in all: about ten minutes.", { lessons: data.lessons.length, steps: data.steps });
