import type { Config } from "../config/types.js";
import type { PageSources } from "../http/pages/headers.js";
import type { Route } from "../http/route.js";
import altchaJs from "altcha/external?raw";
import altchaCss from "altcha/altcha.css?raw";
import altchaWorkerJs from "altcha/workers/sha?raw";
import captchaJs from "./pages/captcha.js?raw";
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
 * The pages' files: the request hook (captcha.js) and, for the proof of work, ALTCHA's widget in its
 * strict-CSP build (no inline styles, no workers from blob: URLs), its stylesheet and its SHA-256
 * worker, all served from this origin.
 */
export const protectionAssets: Readonly<Record<string, string>> = {
  "captcha.js": captchaJs, "altcha.js": altchaJs, "altcha.css": altchaCss, "altcha-worker.js": altchaWorkerJs,
};

export const protectionStyles = `
.captcha { margin: 0 0 1rem; }
`;

/** What every hosted page's script is told when the bot check is on: the widget, the header, the guarded paths. */
export function captchaHook(config: Readonly<Config>, routes: readonly Route[]): { script: string; data: Record<string, string> } | undefined {
  if (config.captcha === "off" || config.captchaRequired === "never") return undefined;
  const hosted = config.captcha === "pow" ? undefined : HOSTED[config.captcha];
  const paths = routes.filter((r) => r.challenge && r.method === "POST").map((r) => r.path);
  return {
    script: "captcha.js",
    data: {
      captcha: JSON.stringify({
        provider: config.captcha, required: config.captchaRequired, header: captchaHeader(config), paths,
        challenge: `${config.apiBasePath}/captcha/challenge`, siteKey: config.captchaSiteKey, script: hosted?.script,
      }),
    },
  };
}

/** The CSP additions of the hosted widgets (none for the proof of work: everything is this origin's). */
export function captchaSources(config: Readonly<Config>): PageSources {
  return config.captcha === "turnstile" || config.captcha === "hcaptcha" ? HOSTED[config.captcha].sources : {};
}
