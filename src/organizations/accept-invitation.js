// The invitation page (src/organizations/accept-page.ts): accepts the mailed token with the session;
// signed out, a new person signs up here with the invited address (verified by the link itself)
// and joins in the same step; an address that has an account signs in first.
import { call, callWithSession, checkRequired, describeStatus, say, setBusy, showFieldErrors, showView, words } from "./api.js";

const token = window.authsvcToken;
// What a refusal says, by its status: the ids of the page's words.
const WHY = {
  INVITATION_INVALID_TOKEN_ERROR: "org.js.invalidToken",
  INVITATION_EMAIL_NOT_VERIFIED_ERROR: "org.js.notVerified",
};
const why = (status) => (WHY[status] ? words(WHY[status]) : undefined);

function refuse(text) {
  document.getElementById("refused-why").textContent = text;
  showView("view-refused");
}

function joined(json) {
  document.getElementById("joined-name").textContent = json.organization.name;
  document.getElementById("joined-role").textContent = json.role;
  showView("view-joined");
}

function fill(cls, text) {
  for (const el of document.getElementsByClassName(cls)) el.textContent = text;
}

/** Signed out: what the link invites to; a new address signs up here, a known one signs in first. */
async function offerSignUp() {
  const d = await call("POST", "/organizations/invitations/describe", { token });
  if (d.status !== 200) return refuse(d.message);
  if (d.json.status !== "OK") return refuse(why(d.json.status) || describeStatus(d.json));
  fill("invited-org", d.json.organization.name);
  fill("invited-role", d.json.role);
  fill("invited-email", d.json.email);
  if (d.json.hasAccount) return showView("view-signed-out");
  showView("view-sign-up");
  const form = document.getElementById("sign-up-form");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say("sign-up-error", "");
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await call("POST", "/organizations/invitations/signup", { token, password: document.getElementById("password").value });
    setBusy(form, false);
    if (r.status !== 200) return say("sign-up-error", r.message);
    if (r.json.status === "OK") return joined(r.json);
    if (r.json.status === "FIELD_ERROR") return showFieldErrors(form, r.json.formFields);
    if (r.json.status === "INVITATION_ACCOUNT_EXISTS_ERROR") return showView("view-signed-out");
    refuse(why(r.json.status) || describeStatus(r.json));
  });
}

async function accept() {
  if (!token) return refuse(words("org.js.noToken"));
  say("status", words("org.js.joining"));
  const r = await callWithSession("POST", "/organizations/invitations/accept", { token }, "session");
  if (r.status === 401) return offerSignUp();
  if (r.status === 200 && r.json.status === "OK") return joined(r.json);
  refuse((r.json && why(r.json.status)) || r.message);
}

void accept();
