// Passwordless sign-in on the hosted pages (docs/passwordless.md): the sign-in page's "email me a
// code" button, and the attempt kept in localStorage (like the SDK), so the code page can send
// the code with its deviceId and the link page knows whether it was opened in this browser.
import { call, checkRequired, describeStatus, say, showFieldErrors, webBase, words } from "./api.js";

const KEY = "authsvc.passwordless";

/** The attempt this browser started: {deviceId, preAuthSessionId, flowType, email, target}, or null. */
export function loadAttempt() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

export function saveAttempt(attempt) {
  localStorage.setItem(KEY, JSON.stringify(attempt));
}

export function clearAttempt() {
  localStorage.removeItem(KEY);
}

/** Asks for a code for `email`; on OK keeps the attempt and opens the code page. Returns an error sentence, or "". */
export async function requestCode(email, target) {
  const r = await call("POST", "/signinup/code", { email, shouldTryLinkingWithSessionUser: false }, "passwordless");
  if (r.status !== 200) return r.message;
  if (r.json.status !== "OK") return r.json.message === "Email is invalid" ? words("js.emailInvalid") : describeStatus(r.json);
  saveAttempt({ deviceId: r.json.deviceId, preAuthSessionId: r.json.preAuthSessionId, flowType: r.json.flowType, email, target });
  window.location.assign(`${webBase}/sign-in-code`);
  return "";
}

/** Whether the server offers a code or a link by mail now (GET /loginmethods). */
async function offered() {
  const r = await call("GET", "/loginmethods");
  const factors = (r.status === 200 && r.json && r.json.firstFactors) || [];
  return { code: factors.includes("otp-email"), link: factors.includes("link-email") };
}

/** The sign-in page's part (Room.signIn): its button shows when the server offers a code or a link. */
export function mountSignIn({ target }) {
  return { start: () => offerPasswordless(target) };
}

/** Beside a refusal for an address someone already has: sign in to it with a code instead. */
export async function refusalActions(kind, { email, target }) {
  if ((kind !== "taken" && kind !== "elsewhere") || !email) return [];
  const { code, link } = await offered();
  return code || link ? [{ button: words("code.js.emailCode"), work: async () => requestCode(email, target) }] : [];
}

async function offerPasswordless(target) {
  const box = document.getElementById("passwordless");
  const button = document.getElementById("passwordless-start");
  if (!box || !button) return;
  const { code, link } = await offered();
  if (!code && !link) return;
  button.textContent = words(link && !code ? "code.js.emailLink" : "code.js.emailCode");
  box.hidden = false;
  button.addEventListener("click", async () => {
    const form = document.getElementById("form");
    say("form-error", "");
    if (showFieldErrors(form, checkRequired(form).filter((e) => e.id === "email"))) return;
    button.disabled = true;
    say("status", words("code.js.sending"));
    const error = await requestCode(document.getElementById("email").value.trim(), target);
    button.disabled = false;
    say("status", "");
    if (error) say("form-error", error);
  });
}
