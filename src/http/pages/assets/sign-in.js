// Sign-in / sign-up page: email and password through POST /signin or /signup, third-party buttons
// through GET /authorisationurl (the provider sends the browser back to the callback page).
import { call, callWithSession, checkRequired, describeStatus, finishSignIn, redirectTarget, say, setBusy, showFieldErrors, webBase } from "./api.js";
import { offerPasswordless } from "./passwordless.js";
import { sayRefusal } from "./refusal.js";
import { mountPasskeys } from "./passkeys.js";

const params = new URLSearchParams(window.location.search);
const target = redirectTarget(params.get("redirectToPath"));
const form = document.getElementById("form");
const password = document.getElementById("password");
let signUp = params.get("show") === "signup";
const passkeys = mountPasskeys(target);

function render() {
  const title = signUp ? "Sign up" : "Sign in";
  document.getElementById("form-title").textContent = title;
  document.getElementById("submit").textContent = title;
  document.getElementById("switch-text").textContent = signUp ? "Already have an account?" : "No account yet?";
  document.getElementById("switch").textContent = signUp ? "Sign in" : "Sign up";
  document.title = document.title.replace(/^[^·]*/, title + " ");
  password.autocomplete = signUp ? "new-password" : "current-password";
  document.getElementById("password-hint").hidden = !signUp;
  document.getElementById("forgot").hidden = signUp;
  passkeys.show(signUp);
  showFieldErrors(form, []);
  say("form-error", "");
}

document.getElementById("switch").addEventListener("click", () => {
  signUp = !signUp;
  const url = new URL(window.location.href);
  if (signUp) url.searchParams.set("show", "signup"); else url.searchParams.delete("show");
  window.history.replaceState(null, "", url);
  render();
  document.getElementById("form-title").focus();
});

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("form-error", "");
  if (showFieldErrors(form, checkRequired(form))) return;
  const email = document.getElementById("email").value.trim();
  setBusy(form, true);
  say("status", signUp ? "Creating your account…" : "Signing in…");
  const r = await call("POST", signUp ? "/signup" : "/signin", { formFields: [{ id: "email", value: email }, { id: "password", value: password.value }] }, "emailpassword");
  setBusy(form, false);
  say("status", "");
  if (r.status !== 200) return say("form-error", r.message);
  if (r.json.status === "FIELD_ERROR") return void showFieldErrors(form, r.json.formFields);
  if (r.json.status !== "OK") {
    if (!(await sayRefusal("form-error", r.json, { email, target }))) say("form-error", describeStatus(r.json));
    password.focus();
    return;
  }
  await finishSignIn(email, target);
});

/** One button per configured provider, from the public GET /loginmethods. */
async function showProviders() {
  const r = await call("GET", "/loginmethods");
  const providers = r.status === 200 && r.json.thirdParty && r.json.thirdParty.enabled ? r.json.thirdParty.providers : [];
  if (!providers.length) return;
  const box = document.getElementById("providers");
  for (const p of providers) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "provider";
    b.textContent = `Continue with ${p.name}`;
    b.addEventListener("click", () => startProvider(p.id, b));
    box.appendChild(b);
  }
  const or = document.createElement("p");
  or.className = "or";
  or.textContent = "or with your email";
  box.appendChild(or);
  box.hidden = false;
}

/**
 * Asks the API for the provider's URL and goes there. Like the SDK, the page adds its own `state`
 * and keeps it (with the PKCE verifier and where to return) in sessionStorage for the callback.
 */
async function startProvider(id, button) {
  button.disabled = true;
  const redirectURI = `${window.location.origin}${webBase}/callback/${encodeURIComponent(id)}`;
  const r = await call("GET", `/authorisationurl?thirdPartyId=${encodeURIComponent(id)}&redirectURIOnProviderDashboard=${encodeURIComponent(redirectURI)}`);
  if (r.status !== 200 || r.json.status !== "OK") {
    button.disabled = false;
    return say("form-error", r.status !== 200 ? r.message : describeStatus(r.json));
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const state = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  sessionStorage.setItem("authsvc.oauth", JSON.stringify({ id, state, redirectURI, pkceCodeVerifier: r.json.pkceCodeVerifier, target }));
  const url = new URL(r.json.urlWithQueryParams);
  url.searchParams.set("state", state);
  window.location.assign(url.toString());
}

/**
 * Opened with a live session (a server-rendered app sends the browser here when its access token
 * has expired): renew it through the refresh token and go back, without asking for the password.
 * Only a verified session goes straight back; any other answer shows the form.
 */
async function resumeSession() {
  const r = await callWithSession("GET", "/user/email/verify", undefined, "emailverification");
  if (r.status === 200 && r.json && r.json.status === "OK" && r.json.isVerified) {
    say("status", "You are signed in. Taking you back…");
    // replace(): the back button must not return to a page that sends the browser away again.
    window.location.replace(target);
    return true;
  }
  return false;
}

render();
if (!(await resumeSession())) {
  document.getElementById("view-form").hidden = false;
  showProviders();
  offerPasswordless(target);
}
