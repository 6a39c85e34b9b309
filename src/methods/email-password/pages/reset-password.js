// Reset-password page: without a token, ask for the link (POST /user/password/reset/token); with
// one (taken out of the address bar by token.js), choose the new password (POST /user/password/reset).
import { call, checkRequired, describeStatus, say, setBusy, showFieldErrors, showView, words } from "./api.js";

const token = window.authsvcToken;

// The address a link was asked for on this browser, so the "choose a new password" form can tell a
// password manager which account it is for (hidden username field). Removed once it has served.
const REMEMBERED = "authsvc.reset-email";

/** POST /user/password/reset/token; the same answer whether or not the account exists. */
async function requestLink(email) {
  const r = await call("POST", "/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, "emailpassword");
  if (r.status !== 200) return { error: r.message };
  if (r.json.status === "FIELD_ERROR") return { fieldErrors: r.json.formFields };
  if (r.json.status !== "OK") return { error: describeStatus(r.json) };
  try { localStorage.setItem(REMEMBERED, email); } catch { /* storage off: the field stays empty */ }
  return {};
}

const requestForm = document.getElementById("request-form");
requestForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("request-error", "");
  if (showFieldErrors(requestForm, checkRequired(requestForm))) return;
  const email = document.getElementById("email").value.trim();
  setBusy(requestForm, true);
  const r = await requestLink(email);
  setBusy(requestForm, false);
  if (r.fieldErrors) return void showFieldErrors(requestForm, r.fieldErrors);
  if (r.error) return say("request-error", r.error);
  document.getElementById("sent-address").textContent = email;
  say("sent-status", "");
  showView("view-sent");
});

document.getElementById("send-again").addEventListener("click", async (e) => {
  const b = e.currentTarget;
  say("sent-error", "");
  b.disabled = true;
  const r = await requestLink(document.getElementById("sent-address").textContent);
  b.disabled = false;
  if (r.error || r.fieldErrors) return say("sent-error", r.error || words("js.tryAgainLater"));
  say("sent-status", words("password.js.sentAgain"));
});

document.getElementById("other-address").addEventListener("click", () => {
  showView("view-request");
  document.getElementById("email").focus();
});

const newForm = document.getElementById("new-form");
newForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("new-error", "");
  const errors = checkRequired(newForm);
  const password = document.getElementById("password").value;
  if (!errors.length && password !== document.getElementById("confirm").value) errors.push({ id: "confirm", error: words("password.js.notSame") });
  if (showFieldErrors(newForm, errors)) return;
  setBusy(newForm, true);
  const r = await call("POST", "/user/password/reset", { method: "token", token, formFields: [{ id: "password", value: password }] }, "emailpassword");
  setBusy(newForm, false);
  if (r.status === 400) return showView("view-invalid");
  if (r.status !== 200) return say("new-error", r.message);
  // The server's policy message goes next to the field it is about.
  if (r.json.status === "FIELD_ERROR") return void showFieldErrors(newForm, r.json.formFields);
  if (r.json.status === "RESET_PASSWORD_INVALID_TOKEN_ERROR") return showView("view-invalid");
  if (r.json.status !== "OK") return say("new-error", describeStatus(r.json));
  try { localStorage.removeItem(REMEMBERED); } catch { /* nothing to remove */ }
  showView("view-changed");
});

if (token) {
  try { document.getElementById("username").value = localStorage.getItem(REMEMBERED) || ""; } catch { /* storage off */ }
}
showView(token ? "view-new" : "view-request");
