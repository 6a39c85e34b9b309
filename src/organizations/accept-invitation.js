// The invitation page (src/organizations/accept-page.ts): accepts the mailed token with the session.
import { callWithSession, say, showView } from "./api.js";

const token = window.authsvcToken;
const WHY = {
  INVITATION_INVALID_TOKEN_ERROR: "The link was already used, revoked, or has expired. Ask for a new invitation.",
  INVITATION_EMAIL_NOT_VERIFIED_ERROR: "Sign in with the address the invitation was sent to, and confirm that address first. Then open the link in the mail again.",
};

async function accept() {
  if (!token) {
    document.getElementById("refused-why").textContent = "The link has no invitation in it. Open the link in the mail again.";
    return showView("view-refused");
  }
  say("status", "Joining…");
  const r = await callWithSession("POST", "/organizations/invitations/accept", { token }, "session");
  if (r.status === 401) return showView("view-signed-out");
  if (r.status === 200 && r.json.status === "OK") {
    document.getElementById("joined-name").textContent = r.json.organization.name;
    document.getElementById("joined-role").textContent = r.json.role;
    return showView("view-joined");
  }
  document.getElementById("refused-why").textContent = (r.json && WHY[r.json.status]) || r.message;
  showView("view-refused");
}

void accept();
