// Verify-email page. The link's GET only loads this page (mail scanners prefetch links and must
// not use the token up); the token is sent by POST from here. Needs the user's session: when there
// is none, the page asks to sign in (the rooms' in-place forms: their modules' mountInPlace) and then finishes.
import { callWithSession, redirectTarget, say, showView, words } from "./api.js";

const token = window.authsvcToken;
const button = document.getElementById("verify");
document.getElementById("continue").href = redirectTarget(null);

async function verify() {
  button.hidden = true;
  say("form-error", "");
  say("status", words("js.verifying"));
  const r = await callWithSession("POST", "/user/email/verify", { method: "token", token }, "emailverification");
  say("status", "");
  if (r.status === 200 && r.json.status === "OK") return showView("view-done");
  if (r.status === 200 || r.status === 400) return showInvalid();
  if (r.status === 401) return showView("view-sign-in");
  say("form-error", r.message);
  button.textContent = words("js.tryAgain");
  button.hidden = false;
  button.focus();
}

/** The token did not work: already verified (nothing to do), or ask for a new link. */
async function showInvalid() {
  const state = await callWithSession("GET", "/user/email/verify", undefined, "emailverification");
  if (state.status === 200 && state.json.isVerified) {
    document.getElementById("invalid-title").textContent = words("js.alreadyVerified.title");
    document.getElementById("invalid-text").textContent = words("js.alreadyVerified.text");
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
  say("resend-status", words(r.json.status === "EMAIL_ALREADY_VERIFIED_ERROR" ? "js.alreadyVerified" : "js.newLinkSent"));
});

/** Signed in on this page: verify now, or (came here to ask for a new link) send it. */
function signedIn() {
  showView("view-progress");
  if (token) return verify();
  document.getElementById("resend").click();
  showView("view-invalid");
}

const names = (document.body.dataset.signInParts || "").split(",").filter(Boolean);
for (const m of await Promise.all(names.map((name) => import(`./${name}`)))) if (m.mountInPlace) m.mountInPlace({ errorId: "sign-in-error", done: signedIn });

button.addEventListener("click", verify);
if (token) verify();
else {
  document.getElementById("invalid-title").textContent = words("js.incomplete.title");
  document.getElementById("invalid-text").textContent = words("js.incomplete.text");
  showView("view-invalid");
}
