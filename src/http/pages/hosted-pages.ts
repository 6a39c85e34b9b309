import { defineEventHandler, getRequestHeader, setResponseHeader, type EventHandler, type H3Event } from "h3";
import type { Config } from "../../config/types.js";
import type { HttpDeps } from "../deps.js";
import type { Words } from "../../words/words.js";
import { setPageHeaders } from "./headers.js";
import { pageLocale } from "./locale.js";
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
 * A hosted page handler: same headers and layout for all; the page is built once per config and
 * locale (on its first request in that locale, then kept), in the locale pageLocale picks. The
 * page's own `data` (what its script needs beyond pageData) is added to the body's.
 */
export function hostedPage(build: (config: Readonly<Config>, deps: HttpDeps, w: Words) => Omit<PageSpec, "assets">) {
  return (deps: HttpDeps): EventHandler => {
    const config = deps.ctx.config;
    const base = { ...pageData(config, deps.tables.returnPaths(config), signInScripts(deps.tables.signIn)), ...deps.tables.requestHookData(config) };
    const pages = new Map<string, string>();
    const pageIn = (w: Words): string => {
      let html = pages.get(w.locale);
      if (html === undefined) {
        const spec = build(config, deps, w);
        html = renderPage(config, { ...spec, assets: `${config.websiteBasePath}/_assets`, data: { ...base, ...spec.data } }, deps.tables.assets, w);
        pages.set(w.locale, html);
      }
      return html;
    };
    const sources = deps.tables.pageSources(config);
    return defineEventHandler((event) => {
      const w = deps.ctx.words.of(pageLocale(event, config, deps.ctx.words));
      setPageHeaders(event, config, { sources, lang: w.lang });
      return pageIn(w);
    });
  };
}

/** The hint under a new password's field (the sign-up form, the reset page). */
export const passwordHint = (c: Readonly<Config>, w: Words) => w.t("page.password.hint", { min: c.passwordMinLength });

/** Signed in but not verified yet: the view the sign-in page and a provider's callback page end in. */
export const checkMailView = (c: Readonly<Config>, w: Words) => `<section id="view-check-mail" hidden aria-labelledby="check-mail-title">
  <h1 id="check-mail-title" tabindex="-1">${w.html("checkMail.title")}</h1>
  <p>${w.html("checkMail.text", { address: `<strong id="check-mail-address">${w.html("checkMail.yourAddress")}</strong>` })}</p>
  <p id="resend-status" class="status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">${w.html("checkMail.resend")}</button>
  ${devInboxHint(c, w)}
</section>`;

/**
 * GET {websiteBasePath}: sign in or sign up (?show=signup). The kernel's page holds the title, the
 * switch and the live regions; each room puts its way in where it belongs (Room.signIn: the
 * address form, provider buttons, passkeys, a code by mail) and sign-in.js mounts its module.
 */
export const signInPage = hostedPage((c, deps, w) => {
  const slot = (name: Parameters<typeof signInSlot>[1]) => signInSlot(deps.tables.signIn, name, c, w);
  return {
    title: w.t("signIn.title"),
    script: "sign-in.js",
    // Hidden until the script knows there is no live session to resume (see sign-in.js).
    main: `<section id="view-form" aria-labelledby="form-title" hidden>
  <h1 id="form-title" tabindex="-1">${w.html("signIn.title")}</h1>
  <p class="switch"><span id="switch-text">${w.html("signIn.noAccount")}</span> <button type="button" class="link" id="switch">${w.html("signIn.signUp")}</button></p>
  ${slot("top")}
  ${liveRegions}
  ${slot("form")}
  ${slot("choices")}
  ${slot("links")}
</section>
${checkMailView(c, w)}`,
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

const signOutVariant = (atOnce: boolean) => hostedPage((c, _deps, w) => ({
  title: w.t("signOut.title"),
  script: "sign-out.js",
  data: atOnce ? { "sign-out-at-once": "1" } : ({} as Record<string, string>),
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">${w.html(atOnce ? "signOut.progress" : "signOut.question")}</h1>
  ${liveRegions}
  <form id="sign-out-form" method="post" novalidate${atOnce ? " hidden" : ""}>
    <button type="submit" id="sign-out">${w.html("signOut.button")}</button>
  </form>
  <p class="aside"${atOnce ? " hidden" : ""}><a id="stay" href="${escapeHtml(c.websiteBasePath)}">${w.html("signOut.stay")}</a></p>
  <p id="retry" hidden><a href="${escapeHtml(c.websiteBasePath)}">${w.html("page.backToSignIn")}</a></p>
</section>`,
}));

/**
 * GET {websiteBasePath}/verify-email?token=…: consumes the token by POST from script, never on the
 * GET itself. Without a session it asks the person to sign in right there, with the rooms' forms
 * that sign in in place (SignInPart.inPlace).
 */
export const verifyEmailPage = hostedPage((c, deps, w) => ({
  title: w.t("verify.title"),
  script: "verify-email.js",
  takesToken: true,
  main: `<section id="view-progress" aria-labelledby="progress-title">
  <h1 id="progress-title" tabindex="-1">${w.html("verify.title")}</h1>
  ${liveRegions}
  <button type="button" id="verify" hidden>${w.html("verify.button")}</button>
</section>
<section id="view-done" hidden aria-labelledby="done-title">
  <h1 id="done-title" tabindex="-1">${w.html("verify.done.title")}</h1>
  <p>${w.html("verify.done.text")}</p>
  <p><a class="button" id="continue" href="/">${w.html("verify.continue")}</a></p>
</section>
<section id="view-invalid" hidden aria-labelledby="invalid-title">
  <h1 id="invalid-title" tabindex="-1">${w.html("page.invalid.title")}</h1>
  <p id="invalid-text">${w.html("page.invalid.text")}</p>
  <p id="resend-status" role="status" aria-live="polite"></p>
  <button type="button" id="resend">${w.html("verify.resend")}</button>
</section>
<section id="view-sign-in" hidden aria-labelledby="sign-in-title">
  <h1 id="sign-in-title" tabindex="-1">${w.html("verify.signIn.title")}</h1>
  <p>${w.html("verify.signIn.text")}</p>
  <p id="sign-in-error" class="error" role="alert"></p>
  ${deps.tables.signIn.flatMap((p) => p.inPlace?.(c, w) ?? []).join("\n  ")}
  <p class="aside"><a href="${escapeHtml(c.websiteBasePath)}">${w.html("verify.signIn.other")}</a></p>
</section>`,
}));

