// Talk at the table (server/chat.py): the players' line and the spectators' line, plain text.
// On the game page (installChat): read, write, mute; the WebSocket says when a message is new
// (chatNotice) and the panel asks for what it may read. In the replay (replayChat): the
// messages said up to the step shown.
import { ngettext, _, api, colour, h, ink } from "./common.js";

const FALLBACK_POLL_MS = 20000;
const LINES = { players: _("Players"), spectators: _("Spectators") };

function time(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function nameChip(m, seats) {
  if (m.line !== "players") return h("b", { class: "chat-name spectator" }, m.name);
  const seat = (seats || []).find((s) => s.seat === m.seat);
  const f = seat && seat.factions ? seat.factions[0] : m.seat;
  return h("b", { class: "chat-name chip", style: { background: colour(f), color: ink(f) } }, m.name);
}

// The panel of a game page. `st`: the game page's state (gid, token, seats, status).
class ChatPanel {
  constructor(box, st) {
    this.box = box;
    this.st = st;
    this.messages = [];
    this.after = 0;
    this.me = null;
    this.line = "players";
    this.lines = ["players"];
    this.muted = [];
    this.shown = "players";
    this.loading = null;
    this.unread = 0;
    this.build();
  }

  query(after) {
    const q = new URLSearchParams({ after: String(after) });
    if (this.st.token) q.set("token", this.st.token);
    return `/api/games/${encodeURIComponent(this.st.gid)}/chat?${q}`;
  }

  build() {
    this.title = h("h2", { tabindex: "0", role: "button", "aria-expanded": "true" }, _("Table talk"), " ", h("span", { class: "chat-unread", hidden: true }));
    this.title.addEventListener("click", () => this.toggle());
    this.title.addEventListener("keydown", (ev) => (ev.key === "Enter" || ev.key === " ") && (ev.preventDefault(), this.toggle()));
    this.tabs = h("div", { class: "chat-tabs", role: "tablist", hidden: true });
    this.list = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": _("Messages") });
    this.input = h("input", { type: "text", maxlength: 300, "aria-label": _("Your message"), placeholder: _("Say something to the table"), autocomplete: "off" });
    this.send = h("button", { type: "submit", class: "small primary" }, _("Send"));
    this.form = h("form", { class: "chat-form" }, this.input, this.send);
    this.form.addEventListener("submit", (ev) => this.say(ev));
    this.note = h("p", { class: "chat-note muted", hidden: true });
    this.mutedBox = h("p", { class: "chat-muted muted", hidden: true });
    this.box.replaceChildren(this.title, this.tabs, this.list, this.form, this.note, this.mutedBox);
    if (window.matchMedia("(max-width: 820px)").matches) this.toggle(true);
    // A message that comes while the panel is out of sight: a note that brings it into view.
    this.pill = h("button", { type: "button", class: "chat-new", hidden: true, onclick: () => this.reveal() });
    document.body.append(this.pill);
    this.inView = true;
    if ("IntersectionObserver" in window) {
      new IntersectionObserver((seen) => {
        this.inView = seen.some((e) => e.isIntersecting);
        if (this.inView) this.pill.hidden = true;
      }).observe(this.box);
    }
  }

  reveal() {
    this.pill.hidden = true;
    this.toggle(false);
    this.box.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  toggle(force) {
    const folded = force ?? !this.box.classList.contains("collapsed");
    this.box.classList.toggle("collapsed", folded);
    this.title.setAttribute("aria-expanded", String(!folded));
    if (!folded) this.setUnread(0);
  }

  setUnread(n) {
    this.unread = n;
    const el = this.title.querySelector(".chat-unread");
    el.textContent = n ? String(n) : "";
    el.hidden = !n;
  }

  // Ask for the new messages (all again when what I may read changed: the game ended).
  async load() {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const data = await api("GET", this.query(this.after));
        this.box.hidden = data.lesson; // a lesson's other players are bots
        if (data.lines.join() !== this.lines.join() && this.after) {
          this.lines = data.lines;
          this.messages = [];
          this.after = 0;
          this.loading = null;
          return this.load();
        }
        const before = this.messages.length;
        Object.assign(this, { me: data.me, line: data.line, lines: data.lines, muted: data.muted });
        this.input.maxLength = data.max_length || 300;
        for (const m of data.messages) this.messages.push(m);
        if (data.messages.length) this.after = data.messages[data.messages.length - 1].id;
        const fresh = this.messages.slice(before).filter((m) => m.author !== this.me);
        if (fresh.length && this.box.classList.contains("collapsed")) this.setUnread(this.unread + fresh.length);
        if (fresh.length && before && (!this.inView || this.box.classList.contains("collapsed"))) {
          const last = fresh[fresh.length - 1];
          this.pill.textContent = `${last.name}: ${last.text}`;
          this.pill.hidden = false;
        }
        this.render();
      } catch (e) {
        this.showNote(_("The table talk cannot be loaded: {reason}", { reason: e.message }));
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  showNote(text) {
    this.note.textContent = text;
    this.note.hidden = !text;
  }

  render() {
    const both = this.lines.length > 1;
    if (!this.lines.includes(this.shown)) this.shown = this.lines[0];
    if (both && !this.tabsShown) this.shown = this.line;
    this.tabsShown = both;
    this.tabs.hidden = !both;
    this.tabs.replaceChildren(...(both ? this.lines.map((l) => h("button", {
      type: "button", role: "tab", "aria-selected": String(l === this.shown), "data-line": l,
      onclick: () => { this.shown = l; this.render(); },
    }, LINES[l])) : []));
    const shown = this.messages.filter((m) => m.line === this.shown);
    this.list.replaceChildren(...(shown.length ? shown.map((m) => this.item(m))
      : [h("li", { class: "chat-empty muted" }, this.shown === "players" ? _("Nothing said at the table yet.") : _("The spectators have said nothing yet."))]));
    this.list.scrollTop = this.list.scrollHeight;
    const writes = this.me !== null && this.shown === this.line;
    this.form.hidden = !writes;
    if (this.me === null) this.showNote(_("Log in to talk with the other spectators."));
    else if (!writes) this.showNote(this.line === "players" ? _("Only spectators write here.") : _("Only the players write here."));
    else this.showNote("");
    this.mutedBox.hidden = !this.muted.length;
    this.mutedBox.replaceChildren(...(this.muted.length ? [ngettext("You muted {n} person here.", "You muted {n} people here.", this.muted.length) + " ",
      h("button", { type: "button", class: "linklike", onclick: () => this.unmuteAll() }, _("Unmute"))] : []));
  }

  item(m) {
    const mine = m.author === this.me;
    return h("li", { class: `chat-msg ${mine ? "mine" : ""}`, "data-author": m.author },
      nameChip(m, this.st.seats), h("span", { class: "chat-text" }, m.text),
      h("span", { class: "chat-meta" }, h("time", {}, time(m.at)),
        !mine && this.me !== null ? h("button", {
          type: "button", class: "linklike chat-mute", title: _("Mute {name}: hide their messages from you", { name: m.name }),
          onclick: () => this.mute(m.author, true),
        }, _("mute")) : null));
  }

  async say(ev) {
    ev.preventDefault();
    const text = this.input.value.trim();
    if (!text) return;
    this.send.disabled = true;
    try {
      await api("POST", `/api/games/${encodeURIComponent(this.st.gid)}/chat`, { token: this.st.token || null, text });
      this.input.value = "";
      this.showNote("");
      await this.load();
    } catch (e) {
      this.showNote(e.message);
    } finally {
      this.send.disabled = false;
    }
  }

  async mute(author, muted) {
    try {
      await api("POST", `/api/games/${encodeURIComponent(this.st.gid)}/chat/mute`, { token: this.st.token || null, author, muted });
      if (muted) {
        this.messages = this.messages.filter((m) => m.author !== author);
      } else { // their messages come back: read everything again
        this.messages = [];
        this.after = 0;
      }
      await this.load();
    } catch (e) {
      this.showNote(e.message);
    }
  }

  async unmuteAll() {
    for (const author of this.muted) {
      await api("POST", `/api/games/${encodeURIComponent(this.st.gid)}/chat/mute`, { token: this.st.token || null, author, muted: false }).catch(() => null);
    }
    this.messages = [];
    this.after = 0;
    await this.load();
  }
}

let panel = null;

// The game page: a panel in #chat, fed by the WebSocket's notices and a slow poll besides.
export function installChat(st) {
  const box = document.getElementById("chat");
  if (!box || panel) return;
  panel = new ChatPanel(box, st);
  panel.load();
  setInterval(() => document.visibilityState === "visible" && panel.load(), FALLBACK_POLL_MS);
}

// A WebSocket message {"type": "chat", "id", "line"}: something new was said.
export function chatNotice(msg) {
  if (panel && msg.id > panel.after) panel.load();
}

// What the game's state changes for the talk: at the end, the spectators' line opens to all.
export function chatState(status) {
  if (panel && status === "over" && panel.lines.length < 2) panel.load();
}

// The replay: every message said up to the step shown (a finished game shows both lines).
export function replayChat(box, gid) {
  let messages = [];
  const list = h("ol", { class: "chat-log", "aria-label": _("Table talk") });
  box.replaceChildren(h("h2", {}, _("Table talk")), list);
  const loaded = api("GET", `/api/games/${encodeURIComponent(gid)}/chat`).then((d) => (messages = d.messages)).catch(() => (messages = []));
  return {
    async step(n) {
      await loaded;
      const said = messages.filter((m) => m.step <= n);
      box.hidden = !messages.length;
      list.replaceChildren(...said.map((m) => h("li", { class: "chat-msg", "data-step": m.step },
        h("span", { class: "chat-line" }, m.line === "players" ? "" : "(spectator) "), nameChip(m, null), " ",
        h("span", { class: "chat-text" }, m.text))));
      list.scrollTop = list.scrollHeight;
    },
  };
}
