// Notification settings (/account): e-mail (each time, or a daily digest) and Web Push in this
// browser (server/notify.py). Push: the service worker /sw.js shows the messages; the
// subscription, made with the server's VAPID key, is sent to the server.
import { _, api } from "./common.js";
import { whoAmI } from "./account.js";

const $ = (id) => document.getElementById(id);

function say(text, ok = true) {
  const el = $("notify-message");
  el.textContent = text;
  el.className = ok ? "ok" : "error";
  el.hidden = false;
}

function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// Subscribe this browser; throws with a sentence a person reads when it cannot.
async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    throw new Error(_("This browser cannot show notifications from a site."));
  }
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error(_("Notifications are blocked for this site in this browser: allow them in its settings."));
  }
  const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const { key } = await api("GET", "/api/push/key");
  let sub;
  try {
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  } catch (e) {
    throw new Error(_("This browser could not reach its push service, so it cannot be told of your turn."));
  }
  await api("POST", "/api/push/subscriptions", sub.toJSON());
}

async function save(ev) {
  ev.preventDefault();
  $("notify-submit").disabled = true;
  const byPush = $("notify-by-push").checked;
  try {
    if (byPush) await subscribePush();
    await api("POST", "/api/account/notifications", {
      email: $("notify-email").value.trim() || null,
      by_email: $("notify-by-email").checked || $("notify-digest").checked,
      digest: $("notify-digest").checked,
      by_push: byPush,
    });
    say(_("Saved."));
  } catch (e) {
    say(e.message, false);
  } finally {
    $("notify-submit").disabled = false;
  }
}

async function main() {
  const me = await whoAmI();
  if (!me.account) return;
  const c = await api("GET", "/api/account/notifications");
  $("notify-email").value = c.email || "";
  $("notify-by-email").checked = c.by_email && !c.digest;
  $("notify-digest").checked = c.digest;
  $("notify-by-push").checked = c.by_push;
  $("notify-email-off").hidden = c.email_available;
  $("notify-panel").hidden = false;
  $("notify-form").addEventListener("submit", save);
}

main();
