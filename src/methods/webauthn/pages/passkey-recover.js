// "Lost my passkey" ({websiteBasePath}/webauthn/recover): without a token, ask for the mail; with
// the mailed token (taken out of the address bar by token.js), create a new passkey for the account.
import { call, checkRequired, say, setBusy, showFieldErrors, showView } from "./api.js";
import { registerPasskey } from "./passkeys.js";

const token = window.authsvcToken;
const requestForm = document.getElementById("request-form");

requestForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  if (showFieldErrors(requestForm, checkRequired(requestForm))) return;
  const email = document.getElementById("email").value.trim();
  setBusy(requestForm, true);
  const r = await call("POST", "/user/webauthn/reset/token", { email }, "webauthn");
  setBusy(requestForm, false);
  if (r.status !== 200) return say("request-error", r.message);
  document.getElementById("sent-address").textContent = email;
  showView("view-sent");
});

document.getElementById("create").addEventListener("click", async (e) => {
  const button = e.currentTarget;
  say("new-error", "");
  button.disabled = true;
  const r = await registerPasskey({ recoverAccountToken: token }, (body) => call("POST", "/user/webauthn/reset", { ...body, token }, "webauthn"));
  button.disabled = false;
  if (r.json && r.json.status === "OK") return showView("view-done");
  if (r.json && r.json.status === "RECOVER_ACCOUNT_TOKEN_INVALID_ERROR") return showView("view-invalid");
  say("new-error", r.message);
});

showView(token ? "view-new" : "view-request");
