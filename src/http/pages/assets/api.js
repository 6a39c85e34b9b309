// The hosted pages' one way to the API: the public endpoints, exactly as a SuperTokens frontend
// SDK calls them (cookie mode at this origin, a `rid` header on every call), plus the small UI
// helpers every page shares (views, field errors, live-region messages).
import { resolveRedirectTarget } from "./redirect-target.js";
import { refusalWordId } from "./refusal-words.js";

const data = document.body.dataset;

/**
 * The page's words (the server writes them, in the page's locale, into a JSON block: layout.ts),
 * so no script holds a sentence of its own. `words(id, values)` formats an ICU message's subset
 * the scripts use: `{name}` and `{n, plural, one {…} other {…}}` (`#` is the number), with the
 * plural category from the browser's Intl.PluralRules for the page's language.
 */
const pageWords = JSON.parse(document.getElementById("page-words")?.textContent || "{}");
const plurals = new Intl.PluralRules(pageWords.lang || "en");
export function words(id, values = {}) {
  const text = (pageWords.words || {})[id];
  return text === undefined ? id : formatWords(text, values);
}
function formatWords(text, values) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "{") { out += text[i]; continue; }
    let depth = 1, j = i + 1;
    while (j < text.length && depth) { if (text[j] === "{") depth++; else if (text[j] === "}") depth--; j++; }
    const inner = text.slice(i + 1, j - 1);
    const [name, kind] = inner.split(",").map((x) => x.trim());
    if (kind === "plural") {
      const n = Number(values[name]);
      const forms = {};
      for (const m of inner.slice(inner.indexOf("plural") + 7).matchAll(/(=?\w+)\s*\{([^{}]*)\}/g)) forms[m[1]] = m[2];
      const form = forms[`=${n}`] ?? forms[plurals.select(n)] ?? forms.other ?? "";
      out += form.replace(/#/g, new Intl.NumberFormat(pageWords.lang || "en").format(n));
    } else out += String(values[name] ?? "");
    i = j - 1;
  }
  return out;
}
export const apiBase = data.apiBase;
export const webBase = data.webBase;

/**
 * The rooms' request hooks (data-request-hooks: their modules, e.g. the bot check's): each may add
 * headers to a call (`headers({ method, path, again })`), ask for one more try of a refusal
 * (`retry({ status, json })`), which it then answers with `again` set, and name another place to go
 * after a sign-in (`afterSignIn(target)`). Loaded once, only when a room declares one.
 */
const requestHooks = data.requestHooks
  ? Promise.all(data.requestHooks.split(",").map((m) => import(`./${m}`))).then((ms) => ms.map((m) => m.requestHook).filter(Boolean), () => [])
  : Promise.resolve([]);

/** POST/GET an API path; never throws: a network failure comes back as status 0 with a message. */
export async function call(method, path, body, rid, again = false) {
  const headers = { "st-auth-mode": "cookie", "fdi-version": "4.0" };
  if (rid) headers.rid = rid;
  if (body !== undefined) headers["content-type"] = "application/json";
  const hooks = await requestHooks;
  for (const hook of hooks) Object.assign(headers, (await hook.headers?.({ method, path, again })) ?? {});
  let res;
  try {
    res = await fetch(apiBase + path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { status: 0, json: null, message: words("js.offline") };
  }
  rememberFrontToken(res);
  let json = null;
  try { json = await res.json(); } catch { /* not JSON */ }
  if (!again && hooks.some((hook) => hook.retry?.({ status: res.status, json }))) return call(method, path, body, rid, true);
  return { status: res.status, json, message: messageFor(res, json) };
}

/**
 * The SDKs' own sign that a session may exist: the front token every session answer carries, kept
 * in the `sFrontToken` cookie (the frontend SDKs keep the same cookie, so a session an app's SDK
 * started at this origin counts too). Only a hint, never trusted: the server decides.
 */
const FRONT_TOKEN = "sFrontToken";
function rememberFrontToken(res) {
  const token = res.headers.get("front-token");
  if (token === null) return;
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = token === "remove"
    ? `${FRONT_TOKEN}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax${secure}`
    : `${FRONT_TOKEN}=${token}; path=/; expires=Fri, 31 Dec 9999 23:59:59 GMT; samesite=lax${secure}`;
}
function mayHaveSession() {
  return document.cookie.split(";").some((c) => c.trim().startsWith(`${FRONT_TOKEN}=`));
}
const SIGNED_OUT = { status: 401, json: null, message: words("js.signedOut") };

/**
 * Like call(), but a session call: on a 401 the session is refreshed once and the call repeated.
 * Any 401, not only "try refresh token": a browser may hold the refresh cookie without the access
 * cookie (deleted by the app, or by the user), and that session is still alive.
 * Without a front token nobody signed in here, so the answer is the 401 without asking: a page
 * opened signed out sends no request bound to fail (the browser logs each as a red error).
 */
export async function callWithSession(method, path, body, rid) {
  if (!mayHaveSession()) return { ...SIGNED_OUT };
  let r = await call(method, path, body, rid);
  if (r.status === 401) {
    const refreshed = await call("POST", "/session/refresh", undefined, "session");
    if (refreshed.status === 200) r = await call(method, path, body, rid);
  }
  return r;
}

/** A sentence a person can act on, for any answer that is not a 200. */
function messageFor(res, json) {
  if (res.status === 200) return "";
  if (res.status === 429) {
    const wait = Number(res.headers.get("retry-after"));
    return wait > 0 ? words("js.tooManyWait", { seconds: wait }) : words("js.tooMany");
  }
  if (res.status >= 500) return words("js.serverError");
  if (res.status === 401) return words("js.signedOut");
  return (json && typeof json.message === "string" && json.message) || words("js.httpError", { status: res.status });
}

/** The FDI's business outcomes as sentences (everything else shows the server's own message). */
export function describeStatus(json) {
  const s = json && json.status;
  if (s === "WRONG_CREDENTIALS_ERROR") return words("js.wrongCredentials");
  const refusal = refusalWordId(json);
  if (refusal) return words(refusal);
  if (s === "NO_EMAIL_GIVEN_BY_PROVIDER") return words("js.noEmailFromProvider");
  if (s === "GENERAL_ERROR") return json.message || words("js.somethingWrong");
  return (json && (json.reason || json.message)) || words("js.tryAgainLater");
}

/** Shows one <section> of the page, hides the others, and moves focus to its heading. */
export function showView(id) {
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== id;
  const heading = document.querySelector(`#${id} h1`);
  if (heading) heading.focus();
}

/** Puts a message in a live region (role=status or role=alert), so screen readers announce it. */
export function say(id, text) {
  const el = document.getElementById(id);
  if (!el) return;
  // A message still waiting to appear is dropped: a fast answer must not be followed by a stale
  // "Signing in…" that the earlier call had scheduled.
  window.clearTimeout(pendingSay.get(id));
  // Clear first: the same message twice in a row is announced again.
  el.textContent = "";
  // What refusal.js offered beside an earlier message (a button, a link) goes with it.
  document.getElementById(`${id}-action`)?.remove();
  if (text) pendingSay.set(id, window.setTimeout(() => { el.textContent = text; }, 30));
}
const pendingSay = new Map();

/**
 * Marks fields invalid with their messages ([{id, error}]) and focuses the first; clears the others.
 * The API's terse wire messages (kept for SDK compatibility) become the page's own sentences.
 */
export function showFieldErrors(form, errors) {
  for (const input of form.querySelectorAll("input[required]")) {
    const e = errors.find((x) => x.id === input.id);
    input.setAttribute("aria-invalid", e ? "true" : "false");
    const line = document.getElementById(`${input.id}-error`);
    if (line) line.textContent = e ? humanFieldError(input, e.error) : "";
  }
  const first = errors.length ? document.getElementById(errors[0].id) : null;
  if (first) first.focus();
  return errors.length > 0;
}

function humanFieldError(input, error) {
  if (error === "Field is not optional") return input.dataset.empty || words("js.fillIn");
  if (error === "Email is invalid") return words("js.emailInvalid");
  return error;
}

/** Required and shape checks before sending (the API's wording; showFieldErrors says it in the page's). */
export function checkRequired(form) {
  const errors = [];
  for (const input of form.querySelectorAll("input[required]")) {
    if (input.value === "") errors.push({ id: input.id, error: "Field is not optional" });
    else if (input.type === "email" && !/^[^\s@]+@[^\s@]+$/.test(input.value.trim())) errors.push({ id: input.id, error: "Email is invalid" });
  }
  return errors;
}

/**
 * Show/Hide on every password field: the button's name is "Show password" or "Hide password" (the
 * visible word plus hidden text), so a screen reader hears what a press will do.
 */
for (const button of document.querySelectorAll("button.reveal")) {
  button.addEventListener("click", () => {
    const input = document.getElementById(button.getAttribute("aria-controls"));
    const show = input.type === "password";
    input.type = show ? "text" : "password";
    button.firstChild.textContent = words(show ? "js.reveal.hide" : "js.reveal.show");
    input.focus();
  });
}

/** Where to go after signing in: ?redirectToPath= when the settings allow it, else the first allowed path. */
export function redirectTarget(requested) {
  return resolveRedirectTarget(requested, data.redirectPaths.split(","), data.websiteUrl);
}

/** Disables a form's controls while a request is in flight (and marks it busy for assistive tech). */
export function setBusy(form, busy) {
  form.setAttribute("aria-busy", busy ? "true" : "false");
  for (const el of form.querySelectorAll("button, input")) el.disabled = busy;
}

/**
 * After any sign-in: the second factor first when one is due (mfa.js), then continue to the app
 * when the address is verified, otherwise send the verification mail (as the SDK does in REQUIRED mode) and show "check your email".
 */
export async function finishSignIn(email, target) {
  // A room may send the person elsewhere first (a breached password: to "My account" to change it).
  for (const hook of await requestHooks) target = (await hook.afterSignIn?.(target)) || target;
  // A second factor due (st-mfa.v false): the MFA page completes it, then goes on to the target.
  const mfa = await callWithSession("PUT", "/mfa/info", {}, "multifactorauth");
  if (mfa.status === 200 && mfa.json.factors.next.length > 0) {
    const to = new URL(target, window.location.href);
    window.location.assign(`${webBase}/mfa?redirectToPath=${encodeURIComponent(to.pathname + to.search)}`);
    return;
  }
  const state = await callWithSession("GET", "/user/email/verify", undefined, "emailverification");
  if (state.status === 200 && state.json && state.json.isVerified) {
    window.location.assign(target);
    return;
  }
  const sent = await callWithSession("POST", "/user/email/verify/token", undefined, "emailverification");
  document.getElementById("check-mail-address").textContent = email || "your address";
  showView("view-check-mail");
  if (sent.status !== 200) say("resend-status", sent.message);
  const resend = document.getElementById("resend");
  resend.onclick = async () => {
    resend.disabled = true;
    const again = await callWithSession("POST", "/user/email/verify/token", undefined, "emailverification");
    resend.disabled = false;
    if (again.status === 200 && again.json && again.json.status === "EMAIL_ALREADY_VERIFIED_ERROR") window.location.assign(target);
    else say("resend-status", again.status === 200 ? words("js.mailSentAgain") : again.message);
  };
}
