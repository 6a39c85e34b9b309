import { defineEventHandler, getRequestHeader, setResponseHeader, type EventHandler, type H3Event } from "h3";
import type { Config } from "../../config/types.js";
import type { HttpDeps } from "../deps.js";
import { setPageHeaders } from "./headers.js";
import { devInboxHint, escapeHtml, liveRegions, renderPage, type PageSpec } from "./layout.js";
import { signInScripts, signInSlot } from "./sign-in-parts.js";

/**
 * What every hosted page's script is told: where the API is, where to go afterwards, the policy,
 * and the rooms' sign-in modules (the sign-in page mounts them; refusal.js asks them what to offer).
 */
export function pageData(config: Readonly<Config>, returnPaths: readonly string[] = config.pagesRedirectPaths, signInParts = ""): Record<string, string> {
  return {
    "api-base": config.apiBasePath,
    "web-base": config.websiteBasePath,
    "website-url": config.websiteUrl,
    "redirect-paths": returnPaths.join(","),
    "password-min": String(config.passwordMinLength),
    ...(signInParts ? { "sign-in-parts": signInParts } : {}),
  };
}

/**
 * A hosted page handler: same headers and layout for all; `main` is built once per config. The
 * page's own `data` (what its script needs beyond pageData) is added to the body's.
 */
export function hostedPage(build: (config: Readonly<Config>, deps: HttpDeps) => Omit<PageSpec, "assets">) {
  return (deps: HttpDeps): EventHandler => {
    const config = deps.ctx.config;
    const spec = build(config, deps);
    const data = { ...pageData(config, deps.tables.returnPaths(config), signInScripts(deps.tables.signIn)), ...deps.tables.requestHookData(config), ...spec.data };
    const html = renderPage(config, { ...spec, assets: `${config.websiteBasePath}/_assets`, data }, deps.tables.assets);
    const sources = deps.tables.pageSources(config);
    return defineEventHandler((event) => {
      setPageHeaders(event, config, { sources });
      return html;
    });
  };
}

/** The hint under a new password's field (the sign-up form, the reset page). */
export const passwordHint = (c: Readonly<Config>) => `At least ${c.passwordMinLength} characters.`;

/** Signed in but not verified yet: the view the sign-in page and a provider's callback page end in. */
export const checkMailView = (c: Readonly<Config>) => `<section id="view-check-mail" hidden aria-labelledby="check-mail-title">
  <h1 id="check-mail-title" tabindex="-1">Check your email</h1>
  <p>We sent a link to <strong id="check-mail-address">your address</strong>. Open it to verify your email address.</p>
  <p id="resend-status" class="status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">Send the mail again</button>
  ${devInboxHint(c)}
</section>`;

/**
 * GET {websiteBasePath}: sign in or sign up (?show=signup). The kernel's page holds the title, the
 * switch and the live regions; each room puts its way in where it belongs (Room.signIn: the
 * address form, provider buttons, passkeys, a code by mail) and sign-in.js mounts its module.
 */
export const signInPage = hostedPage((c, deps) => {
  const slot = (name: Parameters<typeof signInSlot>[1]) => signInSlot(deps.tables.signIn, name, c);
  return {
    title: "Sign in",
    script: "sign-in.js",
    // Hidden until the script knows there is no live session to resume (see sign-in.js).
    main: `<section id="view-form" aria-labelledby="form-title" hidden>
  <h1 id="form-title" tabindex="-1">Sign in</h1>
  <p class="switch"><span id="switch-text">No account yet?</span> <button type="button" class="link" id="switch">Sign up</button></p>
  ${slot("top")}
  ${liveRegions}
  ${slot("form")}
  ${slot("choices")}
  ${slot("links")}
</section>
${checkMailView(c)}`,
  };
});

/**
 * GET {websiteBasePath}/sign-out[?redirectToPath=…]. Opened from a page of this origin (a "Sign
 * out" link on the website when it is the hosted pages, or the account page), it signs out at
 * once: its script sends POST /signout (with `rid`, like the SDKs) and goes to the allowed
 * redirect. Opened from anywhere else (another site, a mail, the address bar) it asks first: a
 * link or an image on another site must not sign anyone out. The browser says where a navigation
 * came from in Sec-Fetch-Site, which a page cannot forge; a browser that does not send it is
 * judged by the Referer's origin.
 */
export const signOutPage = (deps: HttpDeps): EventHandler => {
  const ask = signOutVariant(false)(deps);
  const atOnce = signOutVariant(true)(deps);
  const origin = new URL(deps.ctx.config.publicUrl).origin;
  return defineEventHandler((event) => {
    setResponseHeader(event, "vary", "Sec-Fetch-Site, Referer");
    return isSameOriginNavigation(event, origin) ? atOnce(event) : ask(event);
  });
};

/** Whether the request came from a page of `origin` (Sec-Fetch-Site; without it, the Referer). */
export function isSameOriginNavigation(event: H3Event, origin: string): boolean {
  const site = getRequestHeader(event, "sec-fetch-site");
  if (site !== undefined) return site === "same-origin";
  const referer = getRequestHeader(event, "referer");
  if (!referer) return false;
  try { return new URL(referer).origin === origin; } catch { return false; }
}

const signOutVariant = (atOnce: boolean) => hostedPage((c) => ({
  title: "Sign out",
  script: "sign-out.js",
  data: atOnce ? { "sign-out-at-once": "1" } : ({} as Record<string, string>),
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">${atOnce ? "Signing out…" : "Sign out?"}</h1>
  ${liveRegions}
  <form id="sign-out-form" method="post" novalidate${atOnce ? " hidden" : ""}>
    <button type="submit" id="sign-out">Sign out</button>
  </form>
  <p class="aside"${atOnce ? " hidden" : ""}><a id="stay" href="${escapeHtml(c.websiteBasePath)}">Stay signed in</a></p>
  <p id="retry" hidden><a href="${escapeHtml(c.websiteBasePath)}">Back to sign in</a></p>
</section>`,
}));

/**
 * GET {websiteBasePath}/verify-email?token=…: consumes the token by POST from script, never on the
 * GET itself. Without a session it asks the person to sign in right there, with the rooms' forms
 * that sign in in place (SignInPart.inPlace).
 */
export const verifyEmailPage = hostedPage((c, deps) => ({
  title: "Verify your email",
  script: "verify-email.js",
  takesToken: true,
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">Verify your email</h1>
  ${liveRegions}
  <button type="button" id="verify" hidden>Verify my email</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">Email verified</h1>
  <p>Thank you: your email address is verified.</p>
  <p><a class="button" id="continue" href="/">Continue</a></p>
</section>
<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">This link no longer works</h1>
  <p id="invalid-text">The link has expired, has already been used, or was replaced by a newer one.</p>
  <p id="resend-status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">Send me a new link</button>
</section>
<section id="view-sign-in" hidden aria-labelledby="sign-in-title">
  <h1 id="sign-in-title" tabindex="-1">Sign in to finish</h1>
  <p>To verify your email, sign in with the account the mail was sent to.</p>
  <p id="sign-in-error" class="error" role="alert"></p>
  ${deps.tables.signIn.flatMap((p) => p.inPlace?.(c) ?? []).join("\n  ")}
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">Sign in another way</a></p>
</section>`,
}));

