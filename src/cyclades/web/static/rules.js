// The rules page: /rules?ruleset=legendary|classic&maelstrom=0|1 (and #section).
// Everything on it comes from GET /api/content, the same texts as the game screen's tooltips.
import { _, GODS, BUILDINGS, api, h } from "./common.js";

const q = new URLSearchParams(location.search);
const ruleset = q.get("ruleset") === "classic" ? "classic" : "legendary";
const maelstrom = ruleset === "legendary" && q.get("maelstrom") !== "0" && q.get("maelstrom") !== "false";
const WHERE = { land: _("Miniature: stands on a Land Area"), sea: _("Miniature: stands on a Sea Area"), any: _("Miniature: stands on a Land or Sea Area") };

function editions() {
  const link = (label, rs, m) => {
    const here = rs === ruleset && (rs === "classic" || m === maelstrom);
    const href = `/rules?ruleset=${rs}${rs === "legendary" ? `&maelstrom=${m ? 1 : 0}` : ""}`;
    return h("a", { href, class: here ? "current" : "", "aria-current": here ? "page" : null }, label);
  };
  document.getElementById("editions").replaceChildren(
    link(_("Legendary + Maelström"), "legendary", true),
    link(_("Legendary"), "legendary", false),
    link(_("Classic (2009)"), "classic", false));
}

const mark = (x) => (x.maelstrom ? h("span", { class: "mael", title: _("Maelström module") }, _("✦ Maelström")) : null);
const cost = (c) => (c ? h("span", { class: "cost-tag" }, c) : null);

function section(id, title, ...body) {
  return h("section", { id, class: "panel rules-section" }, h("h2", {}, title), ...body);
}

function render(c) {
  document.title = ruleset === "classic" ? _("Cyclades — how to play (classic)") : _("Cyclades — how to play (Legendary)");
  const out = [];
  const toc = [];
  const add = (id, title, ...body) => {
    toc.push([id, title]);
    out.push(section(id, title, ...body));
  };
  out.push(h("h1", {}, c.title));
  for (const s of c.sections.filter((x) => x.id !== "modes")) {
    add(s.id, s.title, ...s.paragraphs.map((p) => h("p", {}, p)));
    if (s.id === "cycle") {
      add("gods", _("The gods and their actions"), h("div", { class: "rule-cards gods-list" }, c.gods.map((g) => h("div", {
        class: "rule-card god-rule", id: `god-${g.id}`, "data-kind": "god", "data-card": g.id, style: { "--gc": (GODS[g.id] || {}).colour || "#777" },
      }, h("h3", {}, g.name), h("p", { class: "summary" }, g.summary),
      h("table", { class: "acts" }, h("tbody", {}, g.actions.map((a) => h("tr", {}, h("td", {}, a.text), h("td", { class: "price" }, a.cost)))))))));
    }
  }
  add("buildings", _("Buildings"), h("div", { class: "rule-cards" }, c.buildings.map((b) => h("div", {
    class: "rule-card", id: `building-${b.id}`, "data-kind": "building", "data-card": b.id, style: { "--gc": (BUILDINGS[b.id] || {}).colour || "#777" },
  }, h("h3", {}, b.name, " ", cost(b.cost)), h("p", {}, b.text)))));
  add("pieces", _("Units and tokens"), h("div", { class: "rule-cards" }, c.units.map((u) => h("div", {
    class: "rule-card", id: `unit-${u.id}`, "data-kind": "unit", "data-card": u.id,
  }, h("h3", {}, u.name, " ", cost(u.cost)), h("p", {}, u.text)))));
  add("creatures", _("Mythological Creatures ({n})", { n: c.creatures.length }),
    h("p", {}, _("Bought on a god's turn (not Apollo's) for the price of their slot on the track: {costs} GP, minus 1 GP per Temple you own. Their power is used at once; those with a miniature stay on the board.", { costs: c.creature_costs.join(", ") })),
    h("div", { class: "rule-cards" }, c.creatures.map((x) => h("div", { class: "rule-card creature-rule", id: `creature-${x.id}`, "data-kind": "creature", "data-card": x.id },
      h("h3", {}, x.name, x.copies > 1 ? h("small", {}, ` ×${x.copies}`) : null, " ", mark(x)),
      x.miniature ? h("p", { class: "where" }, WHERE[x.miniature] || x.miniature) : null,
      h("p", {}, x.text)))));
  if (c.heroes.length) {
    add("heroes", _("Heroes ({n})", { n: c.heroes.length }),
      h("p", {}, _("Recruited with Hera for 4 GP onto one of your Land Areas. A Hero fights with a Strength of 1, uses its military power when it takes part, and may be sacrificed on your turn (not the cycle it came, not with Apollo) for its sacrificial power.")),
      h("div", { class: "rule-cards" }, c.heroes.map((x) => h("div", { class: "rule-card hero-rule", id: `hero-${x.id}`, "data-kind": "hero", "data-card": x.id },
        h("h3", {}, "★ ", x.name, " ", mark(x)),
        h("p", {}, h("b", {}, _("In battle:")), " ", x.military),
        h("p", {}, h("b", {}, _("Sacrifice:")), " ", x.sacrifice)))));
  }
  if (c.bonuses.length) {
    add("bonuses", _("Metropolis bonuses"), h("p", {}, _("Three of each in a face-down stack; a new Metropolis takes the top one.")),
      h("div", { class: "rule-cards" }, c.bonuses.map((x) => h("div", { class: "rule-card", id: `bonus-${x.id}`, "data-kind": "bonus", "data-card": x.id },
        h("h3", {}, x.name, " ", mark(x)), h("p", {}, x.text)))));
  }
  const modes = c.sections.find((x) => x.id === "modes");
  if (modes) add(modes.id, modes.title, ...modes.paragraphs.map((p) => h("p", {}, p)));
  document.getElementById("rules").replaceChildren(...out);
  document.getElementById("toc").replaceChildren(h("h2", {}, _("Contents")),
    h("ol", {}, toc.map(([id, title]) => h("li", {}, h("a", { href: `#${id}` }, title)))));
  if (location.hash) {
    const el = document.getElementById(location.hash.slice(1));
    if (el) el.scrollIntoView();
  }
}

async function start() {
  editions();
  try {
    render(await api("GET", `/api/content?ruleset=${ruleset}&maelstrom=${maelstrom}`));
  } catch (e) {
    document.getElementById("rules").replaceChildren(h("p", { class: "error" }, _("The rules cannot be loaded: {reason}", { reason: e.message })));
  }
}

start();
