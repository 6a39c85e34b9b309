// An account-linking refusal on a hosted page: the page's own words (refusal-words.js) and, beside
// them, the one thing that gets the person further: the button that sends the mail proving the
// address, the way to sign in with a code, or the link to recover the account.
import { call, callWithSession, say, webBase } from "./api.js";
import { classifyRefusal, describeRefusal } from "./refusal-words.js";
import { requestCode } from "./passwordless.js";

/**
 * Says why `json` (a *_NOT_ALLOWED answer) was refused in live region `errorId` and offers what to
 * do next. `email`: the address the person typed (or the provider gave); `target`: where a
 * sign-in goes afterwards. Returns false when `json` is not an account-linking refusal.
 */
export async function sayRefusal(errorId, json, { email, target }) {
  const kind = classifyRefusal(json);
  if (!kind) return false;
  say(errorId, describeRefusal(json));
  const actions = [];
  if ((kind === "taken" || kind === "elsewhere") && email && (await offersCode())) {
    actions.push(button("Email me a sign-in code", async () => requestCode(email, target)));
  }
  if (kind === "taken") actions.push(link("Forgot your password?", `${webBase}/reset-password`));
  if (kind === "unverified") actions.push(button("Send me the link", () => sendResetLink(email)));
  if (kind === "verifyFirst") actions.push(button("Send the verification mail", sendVerificationMail));
  if (kind === "passkey") actions.push(link("Recover your account", `${webBase}/webauthn/recover`));
  if (actions.length) showActions(errorId, actions);
  return true;
}

async function offersCode() {
  const r = await call("GET", "/loginmethods");
  const factors = (r.status === 200 && r.json && r.json.firstFactors) || [];
  return factors.includes("otp-email") || factors.includes("link-email");
}

/** The reset link proves the address; the reset then joins the account that has it verified. */
async function sendResetLink(email) {
  const r = await call("POST", "/user/password/reset/token", { formFields: [{ id: "email", value: email }] }, "emailpassword");
  return r.status === 200 && r.json.status === "OK" ? `We sent the link to ${email}. Open it to continue.` : (r.message || "The mail could not be sent. Please try again.");
}

async function sendVerificationMail() {
  const r = await callWithSession("POST", "/user/email/verify/token", undefined, "emailverification");
  return r.status === 200 ? "We sent the mail. Open its link, then try again." : r.message;
}

/** A button whose work returns the sentence to announce (or "" when it moved on to another page). */
function button(text, work) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "secondary";
  b.textContent = text;
  b.addEventListener("click", async () => {
    b.disabled = true;
    const said = await work();
    b.disabled = false;
    if (said) {
      const status = b.parentElement.querySelector("[role=status]");
      status.textContent = said;
    }
  });
  return b;
}

function link(text, href) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

/** The actions right after the message (say() removes them with the message). */
function showActions(errorId, actions) {
  const box = document.createElement("div");
  box.id = `${errorId}-action`;
  box.className = "actions";
  box.append(...actions);
  const status = document.createElement("p");
  status.className = "status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  box.append(status);
  document.getElementById(errorId).after(box);
}
