// Passkeys on the hosted pages (docs/passkeys.md): the browser's WebAuthn calls with the options
// the API hands out, turned into the JSON shape @simplewebauthn/browser sends (what the API reads),
// and the sign-in page's two buttons: "Sign in with a passkey" and "Create a passkey".
import { call, describeStatus, finishSignIn, say, webBase, words } from "./api.js";
import { sayRefusal } from "./refusal.js";

const toBuffer = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0)).buffer;
const toText = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const passkeysSupported = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

/** navigator.credentials.create() with registration options from the API; the credential as JSON. */
export async function createPasskey(o) {
  const publicKey = {
    rp: o.rp, user: { ...o.user, id: toBuffer(o.user.id) }, challenge: toBuffer(o.challenge), pubKeyCredParams: o.pubKeyCredParams,
    timeout: o.timeout, attestation: o.attestation, authenticatorSelection: o.authenticatorSelection,
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBuffer(c.id) })),
  };
  const c = await navigator.credentials.create({ publicKey });
  return {
    id: c.id, rawId: toText(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment || undefined, clientExtensionResults: c.getClientExtensionResults(),
    response: { clientDataJSON: toText(c.response.clientDataJSON), attestationObject: toText(c.response.attestationObject), transports: c.response.getTransports ? c.response.getTransports() : undefined },
  };
}

/** navigator.credentials.get() with sign-in options from the API (any passkey of this site); the credential as JSON. */
export async function getPasskey(o) {
  const c = await navigator.credentials.get({ publicKey: { challenge: toBuffer(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials: [] } });
  return {
    id: c.id, rawId: toText(c.rawId), type: c.type, authenticatorAttachment: c.authenticatorAttachment || undefined, clientExtensionResults: c.getClientExtensionResults(),
    response: {
      clientDataJSON: toText(c.response.clientDataJSON), authenticatorData: toText(c.response.authenticatorData), signature: toText(c.response.signature),
      userHandle: c.response.userHandle ? toText(c.response.userHandle) : undefined,
    },
  };
}

/** What the browser's refusal means to a person. */
export function describeBrowserError(e) {
  if (e && e.name === "InvalidStateError") return words("passkey.js.alreadyHere");
  if (e && e.name === "NotAllowedError") return words("passkey.js.cancelled");
  return words("passkey.js.unusable");
}

/** The passkey outcomes as sentences. */
export function describePasskeyStatus(json) {
  const s = json && json.status;
  if (s === "INVALID_CREDENTIALS_ERROR") return words("passkey.js.notAccepted");
  if (s === "EMAIL_ALREADY_EXISTS_ERROR") return words("passkey.js.exists");
  if (s === "OPTIONS_NOT_FOUND_ERROR" || s === "INVALID_OPTIONS_ERROR") return words("passkey.js.tooLong");
  if (s === "INVALID_AUTHENTICATOR_ERROR") return json.reason || words("passkey.js.unsupported");
  if (s === "INVALID_EMAIL_ERROR") return words("js.emailInvalid");
  return describeStatus(json);
}

/** Registration options, the browser's new passkey, then `path` with it; returns the API's answer or a message. */
export async function registerPasskey(optionsBody, send) {
  const options = await call("POST", "/webauthn/options/register", optionsBody, "webauthn");
  if (options.status !== 200) return { message: options.message };
  if (options.json.status !== "OK") return { message: describePasskeyStatus(options.json), json: options.json };
  let credential;
  try { credential = await createPasskey(options.json); } catch (e) { return { message: describeBrowserError(e) }; }
  const r = await send({ webauthnGeneratedOptionsId: options.json.webauthnGeneratedOptionsId, credential });
  if (r.status !== 200) return { message: r.message };
  return r.json.status === "OK" ? { json: r.json } : { message: describePasskeyStatus(r.json), json: r.json };
}

/** Beside a refusal of a passkey whose address another account holds: recover the account by mail. */
export function refusalActions(kind) {
  return kind === "passkey" ? [{ link: words("passkey.js.recover"), href: `${webBase}/webauthn/recover` }] : [];
}

/**
 * The sign-in page's passkey buttons (Room.signIn): sign in with any passkey of this site, or (on
 * sign-up) create one for the address in the email field. Returns show(signUp) for the page's render().
 */
export function mountSignIn({ target }) {
  const box = document.getElementById("passkey");
  const signInButton = document.getElementById("passkey-sign-in");
  const signUpButton = document.getElementById("passkey-sign-up");
  if (!passkeysSupported || !box) return { show() {} };
  box.hidden = false;
  const busy = (b) => { signInButton.disabled = b; signUpButton.disabled = b; };
  signInButton.addEventListener("click", async () => {
    say("form-error", "");
    busy(true);
    const options = await call("POST", "/webauthn/options/signin", {}, "webauthn");
    if (options.status !== 200) { busy(false); return say("form-error", options.message); }
    let credential;
    try { credential = await getPasskey(options.json); } catch (e) { busy(false); return say("form-error", describeBrowserError(e)); }
    say("status", words("passkey.js.signingIn"));
    const r = await call("POST", "/webauthn/signin", { webauthnGeneratedOptionsId: options.json.webauthnGeneratedOptionsId, credential }, "webauthn");
    busy(false);
    say("status", "");
    if (r.status !== 200) return say("form-error", r.message);
    if (r.json.status !== "OK") {
      if (!(await sayRefusal("form-error", r.json, { target }))) say("form-error", describePasskeyStatus(r.json));
      return;
    }
    await finishSignIn(r.json.user.email, target);
  });
  signUpButton.addEventListener("click", async () => {
    say("form-error", "");
    const email = document.getElementById("email").value.trim();
    if (!email) { document.getElementById("email").focus(); return say("form-error", words("passkey.js.emailFirst")); }
    busy(true);
    say("status", words("passkey.js.creating"));
    const r = await registerPasskey({ email }, (body) => call("POST", "/webauthn/signup", body, "webauthn"));
    busy(false);
    say("status", "");
    if (r.json && (await sayRefusal("form-error", r.json, { email, target }))) return;
    if (!r.json || r.json.status !== "OK") return say("form-error", r.message);
    await finishSignIn(email, target);
  });
  const lost = document.getElementById("lost-passkey");
  // On sign-up "Create a passkey" needs the email field, so the block moves below the form (and
  // says what it is an alternative to); on sign-in it stands above, as the first way in.
  const anchor = box.previousElementSibling;
  const or = box.querySelector(".or");
  const form = document.getElementById("form");
  return {
    show(signUp) {
      signInButton.hidden = signUp;
      signUpButton.hidden = !signUp;
      if (lost) lost.hidden = signUp;
      if (signUp) {
        or.textContent = words("passkey.js.orInstead");
        box.prepend(or);
        form.after(box);
      } else {
        or.textContent = words("passkey.js.orPassword");
        box.append(or);
        anchor.after(box);
      }
    },
  };
}
