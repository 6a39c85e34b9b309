// "My account" (src/account/page.ts). Signed in: sessions, logins, email, deletion, each a POST
// to /account/... with the session (refreshed once on a 401), and the rooms' parts. Opened from a
// mail (a token taken out of the address bar by token.js): confirms an email change, or keeps an
// account (?action=cancel-deletion).
import { call, callWithSession, checkRequired, say, setBusy, showFieldErrors, showView, words } from "./api.js";

const token = window.authsvcToken;
const action = new URLSearchParams(window.location.search).get("action");
// Each room's part of the page is its module (data-account-parts, Room.accountPage): mountAccount(kit)
// submits its forms, emailChangeProof() gives what an address change is proven by (a password).
const names = (document.body.dataset.accountParts || "").split(",").filter(Boolean);
const parts = await Promise.all(names.map((name) => import(`./${name}`)));

function describe(s) {
  const when = new Date(s.lastUsedAt).toLocaleString();
  const where = [s.userAgent || "Unknown device", s.ip ? `from ${s.ip}` : ""].filter(Boolean).join(" ");
  const support = s.supportBy ? `${words("account.js.supportSession", { admin: s.supportBy })}: ` : "";
  return `${support}${where}, last used ${when}${s.current ? " (this device)" : ""}`;
}

async function loadSessions() {
  const r = await callWithSession("GET", "/account/sessions", undefined, "session");
  if (r.status === 401) return false;
  if (r.status !== 200) { say("form-error", r.message); return true; }
  const list = document.getElementById("sessions");
  list.replaceChildren(...r.json.sessions.map((s) => {
    const li = document.createElement("li");
    li.dataset.sessionHandle = s.sessionHandle;
    const text = document.createElement("span");
    text.textContent = describe(s);
    li.append(text);
    if (!s.current) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary revoke";
      b.textContent = "Sign out";
      b.addEventListener("click", () => revoke({ sessionHandle: s.sessionHandle }));
      li.append(" ", b);
    }
    return li;
  }));
  return true;
}

async function revoke(what) {
  const r = await callWithSession("POST", "/account/sessions/revoke", what, "session");
  if (r.status !== 200) return say("sessions-status", r.message);
  say("sessions-status", r.json.revoked === 1 ? "Signed out 1 session." : `Signed out ${r.json.revoked} sessions.`);
  await loadSessions();
}

// Each kind of login's name, from its method (LoginKind.accountLabel): a {field} is the login's own ({provider}, {passkeys}).
const LABELS = JSON.parse(document.body.dataset.loginLabels || "{}");
const label = (l) => (LABELS[l.method] ?? l.method).replace(/\{(\w+)\}/g, (slot, field) => (field in l ? String(l[field]) : slot));
const REMOVE_REFUSED = {
  WRONG_CREDENTIALS_ERROR: "The password is not correct.",
  REAUTHENTICATION_REQUIRED: "Please sign out, sign in again, and then remove it within 10 minutes.",
  LAST_LOGIN_METHOD: "This is your only way to sign in: it cannot be removed.",
  PRIMARY_LOGIN_METHOD: "This is the first way you signed up with: your account is known by it, so it stays.",
  CURRENT_LOGIN_METHOD: "You signed in with this one: sign in another way to remove it.",
  UNKNOWN_LOGIN: "This sign-in method is no longer part of your account.",
};

/** "How you sign in": each login method of mine, with a Remove button (re-authenticated by the password field). */
async function loadLogins() {
  const r = await callWithSession("GET", "/account/logins", undefined, "session");
  if (r.status !== 200) return;
  document.getElementById("logins").replaceChildren(...r.json.logins.map((l) => {
    const li = document.createElement("li");
    li.append(`${label(l)}: ${l.email}, added ${new Date(l.addedAt).toLocaleDateString()}${l.current ? " (this session)" : ""}`);
    if (r.json.logins.length > 1 && !l.primary && !l.current) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary remove-login";
      b.textContent = "Remove";
      b.addEventListener("click", () => removeLogin(l.recipeUserId));
      li.append(" ", b);
    }
    return li;
  }));
}

async function removeLogin(recipeUserId) {
  say("logins-error", "");
  const password = value("logins-password");
  const r = await callWithSession("POST", "/account/logins/remove", password ? { recipeUserId, password } : { recipeUserId }, "session");
  if (r.status !== 200) return say("logins-error", r.message);
  if (r.json.status !== "OK") return say("logins-error", REMOVE_REFUSED[r.json.status] ?? r.json.status);
  say("logins-status", "The sign-in method was removed.");
  await loadLogins();
}

/** A form's submit: required fields, busy while in flight, then `done` with the answer. */
function onSubmit(id, errorId, send, done) {
  const form = document.getElementById(id);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say(errorId, "");
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await send();
    setBusy(form, false);
    if (r.status !== 200) return say(errorId, r.message);
    done(r.json, form);
  });
}

const value = (id) => document.getElementById(id).value;

for (const p of parts) if (p.mountAccount) p.mountAccount({ onSubmit, sessionsChanged: () => void loadSessions() });

/** What the rooms add to an address change to prove it is the person. */
const emailChangeProof = () => Object.assign({}, ...parts.map((p) => (p.emailChangeProof ? p.emailChangeProof() : {})));

onSubmit("email-form", "email-error", () => callWithSession("POST", "/account/email", { email: value("new-email").trim(), ...emailChangeProof() }, "session"), (json, form) => {
  if (json.status === "FIELD_ERROR") return void showFieldErrors(form, json.formFields.map((f) => ({ ...f, id: "new-email" })));
  if (json.status !== "OK") return say("email-error", json.status === "NO_PASSWORD_LOGIN" ? "Your address comes from the provider you sign in with." : "The password is not correct.");
  const to = value("new-email").trim();
  form.reset();
  say("email-status", `We sent a link to ${to}. Open it to confirm your new address.`);
});

onSubmit("locale-form", "locale-error", () => callWithSession("POST", "/account/locale", { locale: value("mail-locale") }, "session"), () => say("locale-status", words("account.js.localeSaved")));

document.getElementById("delete-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  say("delete-error", "");
  const password = value("delete-password");
  const r = await callWithSession("POST", "/account/delete", password ? { password } : {}, "session");
  if (r.status !== 200) return say("delete-error", r.message);
  if (r.json.status === "WRONG_CREDENTIALS_ERROR") return say("delete-error", "The password is not correct.");
  if (r.json.status === "REAUTHENTICATION_REQUIRED") return say("delete-error", "Please sign out, sign in again, and then delete your account within 10 minutes.");
  document.getElementById("delete-at").textContent = r.json.deleted ? "now" : new Date(r.json.deleteAt).toLocaleString();
  showView("view-deleted");
});

document.getElementById("revoke-others").addEventListener("click", () => revoke({ others: true }));

async function useToken() {
  const cancel = action === "cancel-deletion";
  const r = await call("POST", cancel ? "/account/delete/cancel" : "/account/email/confirm", { token }, "session");
  if (r.status === 200 && r.json.status === "OK") {
    document.getElementById("token-done-text").textContent = cancel ? "Your account is kept. Sign in again to use it." : `Your email address is now ${r.json.email}.`;
    return showView("view-token-done");
  }
  if (r.status === 200 && r.json.status === "EMAIL_ALREADY_USED_ERROR") document.getElementById("token-invalid-text").textContent = "Another account uses this address now, so it could not become yours.";
  else if (r.status !== 200) document.getElementById("token-invalid-text").textContent = r.message;
  showView("view-token-invalid");
}

/** Whose account this is (GET /account/me); false when nobody is signed in. */
async function showWho() {
  const r = await callWithSession("GET", "/account/me", undefined, "session");
  if (r.status === 200) {
    document.getElementById("account-email").textContent = r.json.user.email;
    document.getElementById("mail-locale").value = r.json.user.locale;
  }
  return r.status !== 401;
}

/** Other rooms' links that asked for a count (e.g. "My organizations (2)"): a GET each, the array's length. */
async function countLinks() {
  for (const a of document.querySelectorAll("#account-links a[data-count-path]")) {
    const r = await callWithSession("GET", a.dataset.countPath, undefined, "session");
    const list = r.status === 200 && r.json ? r.json[a.dataset.countField] : undefined;
    if (Array.isArray(list)) a.append(` (${list.length})`);
  }
}

if (token) await useToken();
else if ((await showWho()) && (await loadSessions())) { showView("view-account"); void loadLogins(); void countLinks(); }
else showView("view-signed-out");
