// Log in or create an account (POST /api/account/login, /signup); a guest's seat may come
// along (account.js keeps it in sessionStorage while the guest is here).
import { _, api } from "./common.js";
import { forgetKeepRequest, keepRequest, nextPage } from "./account.js";

const $ = (id) => document.getElementById(id);

function keep() {
  return new URLSearchParams(location.search).get("keep") ? keepRequest() : null;
}

function showKeepNote() {
  const k = keep();
  if (!k) return;
  const note = $("keep-note");
  note.textContent = _("Log in or create an account, and the seat you were playing as a guest becomes yours: the game goes into My games.");
  note.hidden = false;
}

async function submit(ev, path, body, errorId, button) {
  ev.preventDefault();
  const err = $(errorId);
  err.hidden = true;
  const k = keep();
  if (k) body.keep = { game_id: k.game_id, token: k.token };
  $(button).disabled = true;
  try {
    const data = await api("POST", path, body);
    forgetKeepRequest();
    location.href = k && data.kept && data.kept.url ? data.kept.url : nextPage();
  } catch (e) {
    err.textContent = e.message;
    err.hidden = false;
    $(button).disabled = false;
  }
}

$("login-form").addEventListener("submit", (ev) => submit(ev, "/api/account/login", {
  name: $("login-name").value.trim(), password: $("login-password").value,
}, "login-error", "login-submit"));

$("signup-form").addEventListener("submit", (ev) => {
  if ($("signup-password").value !== $("signup-again").value) {
    ev.preventDefault();
    $("signup-error").textContent = _("The two passwords differ.");
    $("signup-error").hidden = false;
    return;
  }
  submit(ev, "/api/account/signup", {
    name: $("signup-name").value.trim(), password: $("signup-password").value,
  }, "signup-error", "signup-submit");
});

showKeepNote();
if (location.hash === "#signup") $("signup-name").focus();
else $("login-name").focus();
