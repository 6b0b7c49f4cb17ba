// The language switch on every page (templates/_language.html): the choice goes to the server
// (a cookie, and the account's setting when logged in: server/i18n.py), then the page comes back in it.
import { api } from "./common.js";

const select = document.getElementById("language");
if (select) {
  select.addEventListener("change", async () => {
    try {
      await api("POST", "/api/language", { lang: select.value });
    } catch (e) {
      document.cookie = `cyclades_lang=${encodeURIComponent(select.value)}; path=/; max-age=31536000; samesite=lax`;
    }
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    location.replace(url.toString());
  });
}
