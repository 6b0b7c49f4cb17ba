// Account settings (/account): change the password, log out everywhere, delete the account.
import { _, api, h } from "./common.js";
import { loginLink, whoAmI } from "./account.js";

const $ = (id) => document.getElementById(id);

function say(id, text, ok = true) {
  const el = $(id);
  el.textContent = text;
  el.className = ok ? "ok" : "error";
  el.hidden = false;
}

async function changePassword(ev) {
  ev.preventDefault();
  $("password-submit").disabled = true;
  try {
    const r = await api("POST", "/api/account/password", { old: $("old-password").value, new: $("new-password").value });
    say("password-message", `The password is changed.${r.other_logins_ended ? ` ${r.other_logins_ended} other login${r.other_logins_ended > 1 ? "s" : ""} ended.` : ""}`);
    $("password-form").reset();
  } catch (e) {
    say("password-message", e.message, false);
  } finally {
    $("password-submit").disabled = false;
  }
}

async function logoutEverywhere() {
  try {
    await api("POST", "/api/account/logout-everywhere");
  } catch (e) { /* gone already */ }
  location.href = "/";
}

async function deleteAccount(ev) {
  ev.preventDefault();
  $("delete-submit").disabled = true;
  try {
    await api("DELETE", "/api/account", { password: $("delete-password").value });
    location.href = "/";
  } catch (e) {
    say("delete-message", e.message, false);
    $("delete-submit").disabled = false;
  }
}

async function main() {
  const me = await whoAmI();
  if (!me.account) {
    $("settings-login").replaceChildren(me.problem ? `${me.problem}. ` : "", loginLink("Log in"), _(" to change your account."));
    $("settings-login").hidden = false;
    return;
  }
  for (const id of ["password-panel", "logins-panel", "delete-panel"]) $(id).hidden = false;
  $("settings").prepend(h("p", { class: "muted" }, `Logged in as ${me.account.name}.`));
  $("password-form").addEventListener("submit", changePassword);
  $("logout-everywhere").addEventListener("click", logoutEverywhere);
  $("delete-form").addEventListener("submit", deleteAccount);
}

main();
