// The protection room's request hook on the hosted pages (api.js passes every API call through it).
// The bot check: a POST to a guarded path gets the solution header, solved in the form the
// person submitted. With --captcha-required always it is solved up front, from the moment the person
// starts on a form; otherwise only after the server asked for it (a 400 whose reason starts with
// captcha_), and the call is then sent once more. Each solution is used once.
const config = JSON.parse(document.body.dataset.captcha || '{"paths":[]}');
const solving = new Map();
let lastForm = null;

document.addEventListener("submit", (e) => { lastForm = e.target; }, true);
if (config.required === "always") {
  // Start on the first field a person fills in: the work is usually done before they submit.
  document.addEventListener("focusin", (e) => {
    const form = e.target instanceof HTMLInputElement && e.target.type === "email" ? e.target.form : null;
    if (form && !solving.has(form)) solving.set(form, solveIn(form));
  });
}

export const requestHook = {
  async headers({ method, path, again }) {
    if (method !== "POST" || !config.paths.includes(path)) return {};
    if (config.required !== "always" && !again) return {};
    const form = lastForm || document.querySelector("main section:not([hidden]) form");
    if (!form) return {};
    const pending = solving.get(form) || solveIn(form);
    solving.delete(form); // single use: the next submission solves anew
    const token = await pending;
    return token ? { [config.header]: token } : {};
  },
  retry({ status, json }) {
    return status === 400 && !!json && typeof json.reason === "string" && json.reason.startsWith("captcha_") && json.reason !== "captcha_unavailable";
  },
  // --breached-passwords-at-sign-in: signed in with a breached password (the pwd_breached claim the
  // front token shows), the person goes to "My account" to change it, where the notice says why.
  afterSignIn(target) {
    const account = document.body.dataset.breachedAccount;
    return account && frontTokenClaims().pwd_breached === true ? account : undefined;
  },
};

/** The access token's claims as the SDKs' front token shows them (a hint for the page; the server decides). */
export function frontTokenClaims() {
  const cookie = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("sFrontToken="));
  try {
    return JSON.parse(decodeURIComponent(escape(atob(cookie.slice("sFrontToken=".length))))).up || {};
  } catch {
    return {};
  }
}

/** The widget's place in a form: just above its submit button. */
function placeIn(form, element) {
  const existing = form.querySelector(".captcha");
  if (existing) return existing.firstElementChild;
  const box = document.createElement("div");
  box.className = "captcha";
  box.append(element);
  const submit = form.querySelector('button[type="submit"]');
  if (submit) submit.before(box);
  else form.append(box);
  return element;
}

async function solveIn(form) {
  try {
    return config.provider === "pow" ? await solvePow(form) : await solveHosted(form);
  } catch {
    return undefined; // the server refuses the call, and the page says why
  }
}

/** ALTCHA's widget, from this server's own assets (its worker too: nothing from another origin). */
async function solvePow(form) {
  await loadPow();
  const widget = placeIn(form, document.createElement("altcha-widget"));
  if (!widget.hasAttribute("challenge")) {
    widget.setAttribute("challenge", config.challenge);
    widget.setAttribute("auto", "off");
    widget.setAttribute("name", "captcha");
    widget.setAttribute("workers", "2");
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
  widget.reset();
  const result = await widget.verify();
  return result && result.payload;
}

let powLoaded;
function loadPow() {
  powLoaded ??= (async () => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("./altcha.css", import.meta.url).href;
    document.head.append(css);
    await import("./altcha.js");
    globalThis.$altcha.algorithms.set("SHA-256", () => new Worker(new URL("./altcha-worker.js", import.meta.url)));
  })();
  return powLoaded;
}

/** Turnstile's or hCaptcha's widget, from their script (the pages' CSP allows its origin then). */
async function solveHosted(form) {
  const api = await loadHosted();
  const box = placeIn(form, document.createElement("div"));
  if (box.dataset.widgetId !== undefined) api.reset(box.dataset.widgetId);
  return new Promise((resolve) => {
    const id = api.render(box, { sitekey: config.siteKey, callback: resolve, "error-callback": () => resolve(undefined), "expired-callback": () => resolve(undefined) });
    box.dataset.widgetId = id;
  });
}

let hostedLoaded;
function loadHosted() {
  hostedLoaded ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = config.script;
    script.async = true;
    script.onload = () => resolve(config.provider === "turnstile" ? window.turnstile : window.hcaptcha);
    script.onerror = reject;
    document.head.append(script);
  });
  return hostedLoaded;
}
