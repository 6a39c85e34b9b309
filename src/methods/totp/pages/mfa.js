// The second-factor page: after a sign-in whose st-mfa claim is not satisfied (api.js finishSignIn
// sends the browser here), or from the manage page (?setup=true). Set-up: POST /totp/device (QR
// code and key), then POST /totp/device/verify, then the recovery codes once. Otherwise a code:
// POST /totp/verify, or a recovery code: POST /totp/recovery-code/verify.
import { callWithSession, checkRequired, redirectTarget, say, setBusy, showFieldErrors, showView, webBase, words } from "./api.js";
import { showRecoveryCodes } from "./recovery-codes.js";

const params = new URLSearchParams(window.location.search);
const target = params.get("then") === "manage" ? `${webBase}/second-factor` : redirectTarget(params.get("redirectToPath"));
let deviceName = "";

/** The SDKs' statuses as sentences. */
function describe(json) {
  if (json.status === "INVALID_TOTP_ERROR" || json.status === "INVALID_RECOVERY_CODE_ERROR") {
    const left = json.maxNumberOfFailedAttempts - json.currentNumberOfFailedAttempts;
    return `${words("totp.js.wrong")} ${left > 0 ? words("totp.js.triesLeft", { left }) : words("totp.js.nextWait")}`;
  }
  if (json.status === "LIMIT_REACHED_ERROR") return words("totp.js.limit", { minutes: Math.ceil(json.retryAfterMs / 60000) });
  if (json.status === "UNKNOWN_DEVICE_ERROR") return words("totp.js.replaced");
  return json.message || words("js.tryAgainLater");
}

/** Sends one code form; `ok(json)` runs on success. */
function handle(formId, inputId, errorId, send, ok) {
  const form = document.getElementById(formId);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    say(errorId, "");
    if (showFieldErrors(form, checkRequired(form))) return;
    setBusy(form, true);
    const r = await send(document.getElementById(inputId).value.trim());
    setBusy(form, false);
    if (r.status !== 200) return say(errorId, r.status === 403 ? words("totp.js.signInAgain") : r.message);
    if (r.json.status !== "OK") {
      say(errorId, describe(r.json));
      document.getElementById(inputId).select();
      return;
    }
    ok(r.json);
  });
}

const showCodes = (codes) => showRecoveryCodes(codes, target);

handle("setup-form", "setup-code", "setup-error", (totp) => callWithSession("POST", "/totp/device/verify", { deviceName, totp }, "totp"), (json) => {
  if (json.recoveryCodes) showCodes(json.recoveryCodes);
  else window.location.assign(target);
});
handle("code-form", "code", "code-form-error", (totp) => callWithSession("POST", "/totp/verify", { totp }, "totp"), () => window.location.assign(target));
handle("recovery-form", "recovery-code", "recovery-error", (recoveryCode) => callWithSession("POST", "/totp/recovery-code/verify", { recoveryCode }, "totp"), () => window.location.assign(target));
document.getElementById("use-recovery").addEventListener("click", () => showView("view-recovery"));
document.getElementById("use-app").addEventListener("click", () => showView("view-code"));

async function start() {
  const info = await callWithSession("PUT", "/mfa/info", {}, "multifactorauth");
  if (info.status === 401) return window.location.assign(`${webBase}?redirectToPath=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  if (info.status !== 200) return say("form-error", info.message);
  const { next, alreadySetup } = info.json.factors;
  const setup = params.get("setup") === "true";
  if (!setup && next.length === 0) return window.location.replace(target);
  if (!setup && alreadySetup.includes("totp")) return showView("view-code");
  const dev = await callWithSession("POST", "/totp/device", {}, "totp");
  if (dev.status !== 200 || dev.json.status !== "OK") return say("form-error", dev.status === 403 ? words("totp.js.codeFirst") : dev.message || describe(dev.json));
  deviceName = dev.json.deviceName;
  document.getElementById("qr").src = dev.json.qrCodeImage;
  document.getElementById("secret").textContent = dev.json.secret.match(/.{1,4}/g).join(" ");
  showView("view-setup");
}

start();
