// Code page: type the code from the mail (or open the link in it). Reads the attempt the sign-in
// page kept; resend asks for a new code on the same device.
import { call, checkRequired, describeStatus, finishSignIn, say, setBusy, showFieldErrors, showView, webBase, words } from "./api.js";
import { clearAttempt, loadAttempt } from "./passwordless.js";

const attempt = loadAttempt();
const form = document.getElementById("code-form");

function restart(text) {
  clearAttempt();
  document.getElementById("restart-text").textContent = text;
  showView("view-restart");
}

if (!attempt) {
  restart(words("code.js.noAttempt"));
} else {
  document.getElementById("code-address").textContent = attempt.email;
  const linkOnly = attempt.flowType === "MAGIC_LINK";
  document.getElementById("code-text").textContent = linkOnly
    ? words("code.js.openLink")
    : words(attempt.flowType === "USER_INPUT_CODE" ? "code.js.typeCode" : "code.js.typeOrOpen");
  form.hidden = linkOnly;
  showView("view-code");
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  say("form-error", "");
  if (showFieldErrors(form, checkRequired(form))) return;
  setBusy(form, true);
  say("status", words("code.js.signingIn"));
  const userInputCode = document.getElementById("code").value.replace(/\s+/g, "");
  const r = await call("POST", "/signinup/code/consume", { preAuthSessionId: attempt.preAuthSessionId, deviceId: attempt.deviceId, userInputCode, shouldTryLinkingWithSessionUser: false }, "passwordless");
  setBusy(form, false);
  say("status", "");
  if (r.status !== 200) return say("form-error", r.message);
  const s = r.json.status;
  if (s === "OK") {
    clearAttempt();
    return finishSignIn(attempt.email, attempt.target);
  }
  if (s === "INCORRECT_USER_INPUT_CODE_ERROR" || s === "EXPIRED_USER_INPUT_CODE_ERROR") {
    const left = r.json.maximumCodeInputAttempts - r.json.failedCodeInputAttemptCount;
    const what = words(s === "EXPIRED_USER_INPUT_CODE_ERROR" ? "code.js.expired" : "code.js.wrong");
    showFieldErrors(form, [{ id: "code", error: `${what} ${words("code.js.triesLeft", { left })}` }]);
    return;
  }
  if (s === "RESTART_FLOW_ERROR") return restart(words("code.js.ended"));
  say("form-error", describeStatus(r.json));
});

document.getElementById("send-again").addEventListener("click", async (e) => {
  const b = e.currentTarget;
  b.disabled = true;
  const r = await call("POST", "/signinup/code/resend", { preAuthSessionId: attempt.preAuthSessionId, deviceId: attempt.deviceId, shouldTryLinkingWithSessionUser: false }, "passwordless");
  b.disabled = false;
  if (r.status !== 200) return say("send-again-status", r.message);
  if (r.json.status === "RESTART_FLOW_ERROR") return restart(words("code.js.endedShort"));
  say("send-again-status", words("code.js.sentAgain"));
});

for (const a of document.querySelectorAll("a.restart")) a.href = webBase;
