// The leaderboard (GET /api/leaderboard?edition=): the rated players of an edition, best first.
import { _, api, h } from "./common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let edition = params.get("edition") === "classic" ? "classic" : "legendary";

async function load() {
  for (const b of document.querySelectorAll("[data-edition]")) b.setAttribute("aria-selected", String(b.dataset.edition === edition));
  const bots = $("show-bots").checked;
  let data;
  try {
    data = await api("GET", `/api/leaderboard?edition=${edition}${bots ? "&bots=true" : ""}`);
  } catch (e) {
    $("board").replaceChildren(h("p", { class: "error" }, e.message));
    return;
  }
  if (!data.players.length) {
    $("board").replaceChildren(h("p", { class: "muted" }, _("No rated game of this edition yet:"), " ", h("a", { href: "/play" }, _("play one")), "."));
    return;
  }
  $("board").replaceChildren(h("table", { class: "people-table leaderboard" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, _("Player")), h("th", {}, _("Rating")), h("th", {}, _("Games")), h("th", {}, _("Won")))),
    h("tbody", {}, data.players.map((p) => h("tr", { class: p.bot ? "bot" : "", "data-player": p.name },
      h("td", {}, String(p.rank)),
      h("td", {}, p.bot ? `${p.name} (bot)` : h("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
      h("td", { title: `mu ${p.mu}, sigma ${p.sigma}` }, String(p.rating)),
      h("td", {}, String(p.games)), h("td", {}, String(p.wins)))))));
}

for (const b of document.querySelectorAll("[data-edition]")) {
  b.addEventListener("click", () => {
    edition = b.dataset.edition;
    history.replaceState(null, "", `/leaderboard?edition=${edition}`);
    load();
  });
}
$("show-bots").addEventListener("change", load);
load();
