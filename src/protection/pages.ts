import type { Config } from "../config/types.js";
import type { PageSources } from "../http/pages/headers.js";
import type { Route } from "../http/route.js";
import altchaJs from "altcha/external?raw";
import altchaCss from "altcha/altcha.css?raw";
import altchaWorkerJs from "altcha/workers/sha?raw";
import protectionJs from "./pages/protection.js?raw";
import breachedNoticeJs from "./pages/breached-notice.js?raw";
import { escapeHtml } from "../http/pages/layout.js";
import type { AccountPagePart } from "../http/pages/account-parts.js";
import { words } from "./words.js";
import { captchaHeader } from "./captcha/guard.js";

/** The hosted bot checks' scripts and the origins their widgets load from (their documented CSP needs). */
const HOSTED: Readonly<Record<"turnstile" | "hcaptcha", { script: string; sources: PageSources }>> = {
  turnstile: { script: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit", sources: { script: ["https://challenges.cloudflare.com"], frame: ["https://challenges.cloudflare.com"] } },
  hcaptcha: {
    script: "https://js.hcaptcha.com/1/api.js?render=explicit",
    sources: { script: ["https://hcaptcha.com", "https://*.hcaptcha.com"], frame: ["https://hcaptcha.com", "https://*.hcaptcha.com"], style: ["https://hcaptcha.com", "https://*.hcaptcha.com"], connect: ["https://hcaptcha.com", "https://*.hcaptcha.com"] },
  },
};

/**
 * The pages' files: the request hook (protection.js), the account page's notice and, for the proof of work, ALTCHA's widget in its
 * strict-CSP build (no inline styles, no workers from blob: URLs), its stylesheet and its SHA-256
 * worker, all served from this origin.
 */
export const protectionAssets: Readonly<Record<string, string>> = {
  "protection.js": protectionJs, "breached-notice.js": breachedNoticeJs, "altcha.js": altchaJs, "altcha.css": altchaCss, "altcha-worker.js": altchaWorkerJs,
};

export const protectionStyles = `
.captcha { margin: 0 0 1rem; }
.notice { border: 2px solid #b45309; border-radius: 6px; padding: 0 1rem; margin: 1rem 0; }
`;

/**
 * What every hosted page's script is told, when the room has something to do there: the bot check
 * (the widget, the header, the guarded paths) and, with --breached-passwords-at-sign-in, where a
 * person signed in with a breached password is sent (My account, to change it).
 */
export function protectionHook(config: Readonly<Config>, routes: readonly Route[]): { script: string; data: Record<string, string> } | undefined {
  const captcha = config.captcha !== "off" && config.captchaRequired !== "never";
  if (!captcha && !config.breachedPasswordsAtSignIn) return undefined;
  const data: Record<string, string> = {};
  if (config.breachedPasswordsAtSignIn) data["breached-account"] = `${config.websiteBasePath}/account`;
  if (captcha) {
    const hosted = config.captcha === "pow" ? undefined : HOSTED[config.captcha as "turnstile" | "hcaptcha"];
    const paths = routes.filter((r) => r.challenge && r.method === "POST").map((r) => r.path);
    data.captcha = JSON.stringify({
      provider: config.captcha, required: config.captchaRequired, header: captchaHeader(config), paths,
      challenge: `${config.apiBasePath}/captcha/challenge`, siteKey: config.captchaSiteKey, script: hosted?.script,
    });
  }
  return { script: "protection.js", data };
}

/** "My account"'s notice for a person signed in with a breached password (shown by breached-notice.js while the claim says so). */
export const breachedAccountPart: AccountPagePart = {
  markup: {
    "after-logins": (config) => (config.breachedPasswordsAtSignIn ? `<section id="breached-notice" class="notice" role="alert" hidden aria-labelledby="breached-title">
    <h2 id="breached-title">${escapeHtml(words.breachedAtSignInTitle)}</h2>
    <p>${escapeHtml(words.breachedAtSignIn)}</p>
  </section>` : ""),
  },
  script: "breached-notice.js",
};

/** The CSP additions of the hosted widgets (none for the proof of work: everything is this origin's). */
export function captchaSources(config: Readonly<Config>): PageSources {
  return config.captcha === "turnstile" || config.captcha === "hcaptcha" ? HOSTED[config.captcha].sources : {};
}
