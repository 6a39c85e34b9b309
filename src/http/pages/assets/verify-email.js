// Verify-email page. The link's GET only loads this page (mail scanners prefetch links and must
// not use the token up); the token is sent by POST from here. Needs the user's session: when there
// is none, the page asks to sign in and then finishes.
import { call, callWithSession, checkRequired, describeStatus, redirectTarget, say, setBusy, showFieldErrors, showView } from "./api.js";

const token = window.authsvcToken;
const button = document.getElementById("verify");
document.getElementById("continue").href = redirectTarget(null);

async function verify() {
  button.hidden = true;
  say("form-error", "");
  say("status", "Verifying your email…");
  const r = await callWithSession("POST", "/user/email/verify", { method: "token", token }, "emailverification");
  say("status", "");
  if (r.status === 200 && r.json.status === "OK") return showView("view-done");
  if (r.status === 200 || r.status === 400) return showInvalid();
  if (r.status === 401) return showView("view-sign-in");
  say("form-error", r.message);
  button.textContent = "Try again";
  button.hidden = false;
  button.focus();
}

/** The token did not work: already verified (nothing to do), or ask for a new link. */
async function showInvalid() {
  const state = await callWithSession("GET", "/user/email/verify", undefined, "emailverification");
  if (state.status === 200 && state.json.isVerified) {
    document.getElementById("invalid-title").textContent = "Your email is already verified";
    document.getElementById("invalid-text").textContent = "This link was already used or replaced, but there is nothing left to do.";
    document.getElementById("resend").hidden = true;
  }
  showView("view-invalid");
}

document.getElementById("resend").addEventListener("click", async (e) => {
  const b = e.currentTarget;
  b.disabled = true;
  const r = await callWithSession("POST", "/user/email/verify/token", undefined, "emailverification");
  b.disabled = false;
  if (r.status === 401) return showView("view-sign-in");
  if (r.status !== 200) return say("resend-status", r.message);
  say("resend-status", r.json.status === "EMAIL_ALREADY_VERIFIED_ERROR" ? "Your email is already verified." : "We sent you a new link. Check your email.");
});

const form = document.getElementById("sign-in-form");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("sign-in-error", "");
  if (showFieldErrors(form, checkRequired(form))) return;
  setBusy(form, true);
  const r = await call("POST", "/signin", { formFields: [{ id: "email", value: document.getElementById("email").value.trim() }, { id: "password", value: document.getElementById("password").value }] }, "emailpassword");
  setBusy(form, false);
  if (r.status !== 200) return say("sign-in-error", r.message);
  if (r.json.status === "FIELD_ERROR") return void showFieldErrors(form, r.json.formFields);
  if (r.json.status !== "OK") {
    say("sign-in-error", describeStatus(r.json));
    document.getElementById("password").focus();
    return;
  }
  showView("view-progress");
  if (token) return verify();
  // Came here to ask for a new link: now signed in, send it.
  document.getElementById("resend").click();
  showView("view-invalid");
});

button.addEventListener("click", verify);
if (token) verify();
else {
  document.getElementById("invalid-title").textContent = "This link is incomplete";
  document.getElementById("invalid-text").textContent = "The address has no verification token. Open the link from the mail again, or ask for a new one.";
  showView("view-invalid");
}
