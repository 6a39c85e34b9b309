// The "this wasn't me" page (src/security-mails/page.ts): signs everything out with the mailed token.
import { call, say, showView, words } from "./api.js";

const token = window.authsvcToken;
const button = document.getElementById("not-me");

button.addEventListener("click", async () => {
  if (!token) return showView("view-refused");
  button.disabled = true;
  say("status", words("notMe.js.busy"));
  const r = await call("POST", "/security/not-me", { token }, "session");
  button.disabled = false;
  if (r.status === 200 && r.json.status === "OK") {
    document.getElementById("reset-link").href = r.json.resetPasswordUrl;
    return showView("view-done");
  }
  if (r.status === 200) return showView("view-refused");
  say("form-error", r.message);
});
