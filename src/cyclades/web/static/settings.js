// Account settings (/account): change the password, log out everywhere, delete the account.
import { ngettext, _, api, h } from "./common.js";
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
    say("password-message", r.other_logins_ended ? _("The password is changed.") + " " + ngettext("{n} other login ended.", "{n} other logins ended.", r.other_logins_ended) : _("The password is changed."));
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
    $("settings-login").replaceChildren(me.problem ? `${me.problem}. ` : "", loginLink(_("Log in")), " ", _("to change your account."));
    $("settings-login").hidden = false;
    return;
  }
  for (const id of ["password-panel", "logins-panel", "delete-panel"]) $(id).hidden = false;
  $("settings").prepend(h("p", { class: "muted" }, _("Logged in as {name}.", { name: me.account.name })));
  $("password-form").addEventListener("submit", changePassword);
  $("logout-everywhere").addEventListener("click", logoutEverywhere);
  $("delete-form").addEventListener("submit", deleteAccount);
}

main();
