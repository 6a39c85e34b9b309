// Link page ({websiteBasePath}/verify?preAuthSessionId=…#linkCode). The link code is in the
// fragment, which browsers never send to a server; the GET only loads this page. Opened in the
// browser that asked for it, it signs in at once; anywhere else (another device, a mail scanner
// that runs scripts) it asks for a click first, as the SuperTokens prebuilt UI does.
import { call, describeStatus, finishSignIn, redirectTarget, say, showView, words } from "./api.js";
import { clearAttempt, loadAttempt } from "./passwordless.js";

const preAuthSessionId = new URLSearchParams(window.location.search).get("preAuthSessionId") || "";
const linkCode = window.location.hash.slice(1);
// The link code must not stay in the address bar, the history or a screenshot.
window.history.replaceState(null, "", window.location.pathname);
const attempt = loadAttempt();
const mine = attempt && attempt.preAuthSessionId === preAuthSessionId;

async function consume() {
  document.getElementById("continue").hidden = true;
  say("status", words("code.js.signingIn"));
  const r = await call("POST", "/signinup/code/consume", { preAuthSessionId, linkCode, shouldTryLinkingWithSessionUser: false }, "passwordless");
  say("status", "");
  if (r.status === 200 && r.json.status === "OK") {
    if (mine) clearAttempt();
    return finishSignIn(r.json.user.email, mine ? attempt.target : redirectTarget(null));
  }
  if (r.status === 200 && r.json.status === "RESTART_FLOW_ERROR") return showView("view-invalid");
  say("form-error", r.status === 200 ? describeStatus(r.json) : r.message);
  document.getElementById("continue").hidden = false;
}

document.getElementById("continue").addEventListener("click", consume);
if (!preAuthSessionId || !linkCode) showView("view-invalid");
else if (mine) consume();
else showView("view-confirm");
