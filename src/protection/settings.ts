import type { SettingsBlock, SettingsCheck } from "../config/engine.js";
import { ConfigError } from "../config/types.js";
import { bool, duration, fail, int, kindOf, oneOf, optStr, str } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    captcha: "off" | "pow" | "turnstile" | "hcaptcha";
    captchaRequired: "always" | "never" | "when-limited";
    captchaDifficulty: number;
    captchaSiteKey: string | undefined;
    captchaSecret: string | undefined;
    captchaVerifyUrl: string | undefined;
    breachedPasswords: "online" | "offline";
    breachedPasswordsUrl: string;
    breachedPasswordsTimeoutMs: number;
    breachedPasswordsAtSignIn: boolean;
    dkimPrivateKey: string | undefined;
    dkimSelector: string;
  }
}

/** The siteverify endpoints of the hosted bot checks (their documented URLs; tests point --captcha-verify-url at a stand-in). */
export const SITEVERIFY: Readonly<Record<"turnstile" | "hcaptcha", string>> = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
};

const httpUrl = (v: unknown): string => {
  const s = str(v) as string;
  let u: URL;
  try { u = new URL(s); } catch { return fail("expected an absolute http(s) URL"); }
  return u.protocol === "https:" || u.protocol === "http:" ? s : fail("expected an http or https URL");
};

/** The protection room's settings (docs/security.md): after the rate limits, under a heading of their own. */
export const protectionSettings: SettingsBlock = { after: "limitAdminSigninEmail", helpGroup: "Protection", helpGroupAfter: "Limits", rows: [
  { key: "captcha", flag: "captcha", env: "AUTHSVC_CAPTCHA", parse: oneOf("off", "pow", "turnstile", "hcaptcha"), default: () => "off", doc: "bot check on sign-up, sign-in, sign-in codes and reset mails: off, pow (a proof of work the browser solves, self-hosted), turnstile (Cloudflare) or hcaptcha" },
  { key: "captchaRequired", flag: "captcha-required", env: "AUTHSVC_CAPTCHA_REQUIRED", parse: oneOf("always", "never", "when-limited"), default: () => "always", doc: "when the bot check is asked for: always, never (not asked nor read; the challenge route stays, so clients can be updated first), or when-limited (once the client IP or the address has spent half of a rate-limit budget)" },
  { key: "captchaDifficulty", flag: "captcha-difficulty", env: "AUTHSVC_CAPTCHA_DIFFICULTY", parse: int(100, 10_000_000), default: () => 50_000, doc: "pow: the most SHA-256 hashes a browser may need to solve a challenge (about half on average; 50000 is well under a second)" },
  { key: "captchaSiteKey", flag: "captcha-site-key", env: "AUTHSVC_CAPTCHA_SITE_KEY", parse: optStr, default: () => undefined, doc: "turnstile, hcaptcha: the site key the hosted pages' widget shows" },
  { key: "captchaSecret", env: "AUTHSVC_CAPTCHA_SECRET", parse: optStr, secret: "all", default: () => undefined, doc: "turnstile, hcaptcha: the secret key siteverify is called with; env or file only" },
  { key: "captchaVerifyUrl", flag: "captcha-verify-url", env: "AUTHSVC_CAPTCHA_VERIFY_URL", parse: kindOf("url", (v: unknown) => (v === undefined || v === "" ? undefined : httpUrl(v))), default: (c) => (c.captcha === "turnstile" || c.captcha === "hcaptcha" ? SITEVERIFY[c.captcha] : undefined), doc: "turnstile, hcaptcha: the siteverify URL (default: the provider's)" },
  { key: "breachedPasswords", flag: "breached-passwords", env: "AUTHSVC_BREACHED_PASSWORDS", parse: oneOf("online", "offline"), default: (c) => (c.mode === "production" ? "online" : "offline"), doc: "refuse new passwords found in breaches: online (Have I Been Pwned's range API, k-anonymity: 5 hex characters of the SHA-1 leave; the shipped list when it cannot answer) or offline (the shipped list only); online in production, offline in development" },
  { key: "breachedPasswordsUrl", flag: "breached-passwords-url", env: "AUTHSVC_BREACHED_PASSWORDS_URL", parse: kindOf("url", httpUrl), default: () => "https://api.pwnedpasswords.com/range/", doc: "the range API: the 5-character prefix is appended to this URL" },
  { key: "breachedPasswordsTimeoutMs", flag: "breached-passwords-timeout", env: "AUTHSVC_BREACHED_PASSWORDS_TIMEOUT", parse: duration(100, 30_000), default: () => 2000, doc: "how long a sign-up waits for the range API before deciding with the shipped list" },
  { key: "breachedPasswordsAtSignIn", flag: "breached-passwords-at-sign-in", env: "AUTHSVC_BREACHED_PASSWORDS_AT_SIGN_IN", parse: bool, default: () => false, doc: "also check the password at each password sign-in; a breached one signs in with the claim pwd_breached: true until it is changed" },
  { key: "dkimPrivateKey", flag: "dkim-private-key", env: "AUTHSVC_DKIM_PRIVATE_KEY", parse: optStr, default: () => undefined, doc: "a PEM file with the private key that DKIM-signs every mail (the domain of --mail-from; `authsvc mail dns` prints the record)" },
  { key: "dkimSelector", flag: "dkim-selector", env: "AUTHSVC_DKIM_SELECTOR", parse: kindOf("selector", (v: unknown) => { const s = str(v) as string; return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(s) ? s : fail("expected a DNS label such as authsvc or mail2026"); }), default: () => "authsvc", doc: "the DKIM selector: the record lives at <selector>._domainkey.<domain>" },
] };

/** Settings that only make sense together. */
export const protectionChecks: readonly SettingsCheck[] = [
  (c) => {
    if ((c.captcha === "turnstile" || c.captcha === "hcaptcha") && (!c.captchaSiteKey || !c.captchaSecret)) {
      throw new ConfigError(`--captcha ${c.captcha} needs its site key (--captcha-site-key) and secret (AUTHSVC_CAPTCHA_SECRET)`);
    }
    if (c.captcha !== "off" && c.captchaRequired === "when-limited" && !c.rateLimits) {
      throw new ConfigError("--captcha-required when-limited reads the rate-limit budgets: it needs --rate-limits on (or use always)");
    }
  },
];
