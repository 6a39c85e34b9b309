import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { formatDuration, parseDuration } from "./util/duration.js";
import { normaliseProviders } from "./methods/third-party/provider-config.js";
import { describeWeakKey } from "./util/key-strength.js";
import { maskUrlPassword } from "./util/mask-url.js";
import { suggestName } from "./util/suggest.js";
import { PROTOCOL_KEYS } from "./core/claims.js";
import { describeFsError } from "./util/fs-error.js";
import { findProductionProblems } from "./config/guards.js";
import { isLocalDevelopment, localDevelopmentLimits } from "./config/limit-defaults.js";
import type { Config, ProviderConfig, ResolvedConfig, Source } from "./config/types.js";
import { normaliseCidr, normaliseLimitSpec, parseLimitSpec, type LimitSpec } from "./util/limit-spec.js";
import { parseWebhooksSetting } from "./webhooks/settings.js";

export { parseLimitSpec, type LimitSpec };
export { localDevelopmentLimits };

export type { Config, Mode, ProviderConfig, ResolvedConfig, SameSite, Source } from "./config/types.js";

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Parser = (raw: unknown) => unknown; // returns the value or throws a message string
interface Setting {
  key: keyof Config;
  flag?: string; // without the leading dashes; undefined = not settable by flag (secrets)
  env: string;
  parse: Parser;
  secret?: "all" | "url-password";
  doc: string;
  /** Default, possibly depending on settings resolved before it (order matters). */
  default: (c: Partial<Config>) => unknown;
}

const fail = (why: string): never => { throw why; };
const str: Parser = (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : fail("expected a non-empty string"));
const optStr: Parser = (v) => (v === undefined || v === null || v === "" ? undefined : str(v));
const int = (min: number, max: number): Parser => (v) => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : fail(`expected a whole number from ${min} to ${max}`);
};
const bool: Parser = (v) => {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|1|yes|on)$/i.test(v.trim())) return true;
  if (typeof v === "string" && /^(false|0|no|off)$/i.test(v.trim())) return false;
  return fail("expected true or false");
};
const oneOf = <T extends string>(...values: T[]): Parser => (v) => {
  const s = typeof v === "string" ? v.trim() : v;
  const hit = values.find((x) => typeof s === "string" && x.toLowerCase() === s.toLowerCase());
  return hit ?? fail(`expected one of ${values.join(", ")}`);
};
const duration = (minMs: number, maxMs: number): Parser => (v) => {
  const ms = parseDuration(v);
  if (ms === undefined) return fail("expected a duration such as 900, 15m, 1h or 30d");
  return ms >= minMs && ms <= maxMs ? ms : fail(`expected a duration from ${formatDuration(minMs)} to ${formatDuration(maxMs)}`);
};
const origin: Parser = (v) => {
  let u: URL;
  try { u = new URL(str(v) as string); } catch { return fail("expected an absolute http(s) URL such as https://auth.example.com"); }
  if (u.protocol !== "http:" && u.protocol !== "https:") fail("expected an http or https URL");
  if (u.pathname !== "/" || u.search || u.hash || u.username) fail("expected an origin only (scheme, host and port; no path, query or credentials)");
  return u.origin;
};
/** A WebAuthn relying party ID: a bare host name (no scheme, port or path), lowercased. */
const rpId: Parser = (v) => {
  const s = (str(v) as string).trim().toLowerCase();
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(s) ? s : fail("expected a host name such as example.com (no scheme, port or path)");
};
const originList: Parser = (v) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of origins");
  const out = (items as unknown[]).map((x) => origin(x) as string);
  return out.length > 0 ? out : fail("expected at least one origin");
};
const basePath: Parser = (v) => {
  const s = str(v) as string;
  const p = ("/" + s.replace(/^\/+|\/+$/g, "")).replace(/\/+/g, "/");
  return /^\/[A-Za-z0-9._~\-/]*$/.test(p) && p !== "/" ? p : fail("expected a path such as /auth");
};
const smtpUrl: Parser = (v) => {
  if (v === undefined || v === "") return undefined;
  let u: URL;
  try { u = new URL(str(v) as string); } catch { return fail("expected a URL such as smtp://user:pass@smtp.example.com:587"); }
  return u.protocol === "smtp:" || u.protocol === "smtps:" ? (v as string).trim() : fail("expected an smtp:// or smtps:// URL");
};
const database: Parser = (v) => {
  const s = str(v) as string;
  if (/^postgres(ql)?:\/\//i.test(s)) {
    try { new URL(s); } catch { fail("expected a file path or a postgres:// URL"); }
  }
  // Any other scheme (postgress://, mysql://) would otherwise be taken as a SQLite file name and
  // quietly create an empty database in a folder named after it.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s)?.[1];
  if (scheme && !/^(postgres(ql)?|sqlite)$/i.test(scheme)) {
    const guess = suggestName(scheme, ["postgres", "postgresql"]);
    fail(`${scheme}:// is not a supported database; authsvc uses a SQLite file (a path such as ./authsvc.db) or PostgreSQL (postgres://user:password@host:5432/db)${guess ? `; did you mean ${guess}://?` : ""}`);
  }
  return s;
};
const providers: Parser = (v) => {
  let arr = v;
  if (typeof v === "string") {
    try { arr = JSON.parse(v); } catch { return fail("expected a JSON array of provider objects"); }
  }
  if (!Array.isArray(arr)) return fail("expected a JSON array of provider objects");
  for (const p of arr) {
    if (!p || typeof p !== "object" || typeof (p as ProviderConfig).thirdPartyId !== "string" || !/^[a-z0-9-]+$/i.test((p as ProviderConfig).thirdPartyId)) {
      fail("every provider needs a thirdPartyId made of letters, digits and dashes");
    }
  }
  const ids = arr.map((p: ProviderConfig) => p.thirdPartyId);
  if (new Set(ids).size !== ids.length) fail("thirdPartyId values must be unique");
  return arr;
};

const limitSpec: Parser = (v) => normaliseLimitSpec(typeof v === "number" ? String(v) : (str(v) as string));
const cidrList: Parser = (v) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of CIDRs such as 10.0.0.0/8,::1/128");
  return (items as unknown[]).map((x) => String(x).trim()).filter((x) => x !== "").map(normaliseCidr);
};
const limit = (key: keyof Config, name: string, def: string, doc: string, buckets = `bucket ${name}`): Setting => ({
  key, flag: `limit-${name}`, env: `AUTHSVC_LIMIT_${name.toUpperCase().replace(/-/g, "_")}`, parse: limitSpec,
  default: (c) => (isLocalDevelopment(c) ? localDevelopmentLimits[key] ?? def : def),
  doc: `${doc} (${buckets}; N/window or off)`,
});

/** The table of settings, in resolution order (later defaults may read earlier values). */
export const settings: readonly Setting[] = [
  { key: "mode", flag: "mode", env: "AUTHSVC_MODE", parse: oneOf("development", "production"), default: () => "development", doc: "development (local defaults, mail catcher, tokens in responses) or production (strict)" },
  { key: "port", flag: "port", env: "AUTHSVC_PORT", parse: int(0, 65535), default: () => 3567, doc: "HTTP port (0 picks a free one)" },
  { key: "host", flag: "host", env: "AUTHSVC_HOST", parse: str, default: (c) => (c.mode === "production" ? "0.0.0.0" : "127.0.0.1"), doc: "address to bind; 127.0.0.1 in development, 0.0.0.0 in production" },
  { key: "database", flag: "database", env: "AUTHSVC_DATABASE", parse: database, secret: "url-password", default: () => "./authsvc.db", doc: "SQLite file path, or a postgres:// URL" },
  { key: "publicUrl", flag: "public-url", env: "AUTHSVC_PUBLIC_URL", parse: origin, default: (c) => `http://localhost:${c.port || 3567}`, doc: "the API's own origin (issuer, cookie Secure); required in production" },
  // In development with no website of its own, the server's own hosted pages are the website: the
  // quick start then has a sign-in page and its first verification mail links to a page that exists.
  { key: "websiteUrl", flag: "website-url", env: "AUTHSVC_WEBSITE_URL", parse: origin, default: (c) => (c.mode === "development" ? c.publicUrl : "http://localhost:3000"), doc: "the frontend origin, used in mail links and for CORS (default: the public URL in development, so the hosted pages are the website; http://localhost:3000 in production)" },
  { key: "allowHttpPublicUrl", flag: "allow-http-public-url", env: "AUTHSVC_ALLOW_HTTP_PUBLIC_URL", parse: bool, default: () => false, doc: "production: accept an http:// public URL (refused by default: cookies lose Secure; behind a TLS-terminating proxy the public URL is its https:// address)" },
  { key: "corsOrigins", flag: "cors-origins", env: "AUTHSVC_CORS_ORIGINS", parse: originList, default: (c) => [c.websiteUrl], doc: "comma-separated origins allowed by CORS (default: the website URL)" },
  { key: "apiBasePath", flag: "api-base-path", env: "AUTHSVC_API_BASE_PATH", parse: basePath, default: () => "/auth", doc: "path prefix of every API route" },
  { key: "websiteBasePath", flag: "website-base-path", env: "AUTHSVC_WEBSITE_BASE_PATH", parse: basePath, default: () => "/auth", doc: "path prefix of the frontend's auth pages (mail links)" },
  { key: "secret", env: "AUTHSVC_SECRET", parse: (v) => { const s = str(v) as string; return s.length >= 32 ? s : fail("expected at least 32 characters"); }, secret: "all", default: () => undefined, doc: "server secret (≥ 32 chars; encrypts signing keys at rest); required in production; env or file only" },
  { key: "bcryptCost", flag: "bcrypt-cost", env: "AUTHSVC_BCRYPT_COST", parse: int(4, 16), default: () => 11, doc: "bcrypt cost factor (10 or more in production)" },
  { key: "passwordMinLength", flag: "password-min-length", env: "AUTHSVC_PASSWORD_MIN_LENGTH", parse: int(8, 256), default: () => 8, doc: "minimum password length in Unicode code points (never below 8)" },
  { key: "accessTokenLifetimeMs", flag: "access-token-lifetime", env: "AUTHSVC_ACCESS_TOKEN_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 15 * 60_000, doc: "access token (JWT) lifetime" },
  { key: "refreshTokenLifetimeMs", flag: "refresh-token-lifetime", env: "AUTHSVC_REFRESH_TOKEN_LIFETIME", parse: duration(60_000, 400 * 86_400_000), default: () => 30 * 86_400_000, doc: "refresh token lifetime, sliding (each refresh starts it again)" },
  { key: "refreshGraceWindowMs", flag: "refresh-grace-window", env: "AUTHSVC_REFRESH_GRACE_WINDOW", parse: duration(0, 60_000), default: () => 10_000, doc: "how long a rotated refresh token still works (concurrent tabs)" },
  { key: "emailVerificationTokenLifetimeMs", flag: "email-verification-token-lifetime", env: "AUTHSVC_EMAIL_VERIFICATION_TOKEN_LIFETIME", parse: duration(60_000, 7 * 86_400_000), default: () => 86_400_000, doc: "email verification token validity" },
  { key: "passwordResetTokenLifetimeMs", flag: "password-reset-token-lifetime", env: "AUTHSVC_PASSWORD_RESET_TOKEN_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 3_600_000, doc: "password reset token validity" },
  { key: "emailVerificationRequiresSession", flag: "email-verification-requires-session", env: "AUTHSVC_EMAIL_VERIFICATION_REQUIRES_SESSION", parse: bool, default: () => true, doc: "false allows token-only verification (cross-device links)" },
  { key: "mfa", flag: "mfa", env: "AUTHSVC_MFA", parse: oneOf("optional", "required"), default: () => "optional", doc: "second factor (TOTP): optional = users turn it on themselves; required = every user sets it up at the next sign-in" },
  { key: "accountLinking", flag: "account-linking", env: "AUTHSVC_ACCOUNT_LINKING", parse: bool, default: () => true, doc: "link login methods with the same verified address into one user; false = each method its own user" },
  { key: "passwordlessFlowType", flag: "passwordless-flow-type", env: "AUTHSVC_PASSWORDLESS_FLOW_TYPE", parse: oneOf("both", "code", "link", "off"), default: () => "both", doc: "passwordless sign-in by email: a one-time code, a magic link, both, or off (docs/passwordless.md)" },
  { key: "passwordlessCodeLifetimeMs", flag: "passwordless-code-lifetime", env: "AUTHSVC_PASSWORDLESS_CODE_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 15 * 60_000, doc: "how long a mailed sign-in code and link work" },
  // Roles, metadata and the self-service account (issue 23; src/roles, src/metadata, src/account)
  { key: "metadataMaxBytes", flag: "metadata-max-bytes", env: "AUTHSVC_METADATA_MAX_BYTES", parse: int(64, 65_536), default: () => 4096, doc: "largest user metadata object, in bytes of JSON (an update past it is refused)" },
  { key: "metadataClaim", flag: "metadata-claim", env: "AUTHSVC_METADATA_CLAIM", parse: (v) => { const s = optStr(v) as string | undefined; if (s !== undefined && (PROTOCOL_KEYS.has(s) || s.startsWith("st-"))) fail("that claim is the access token's own (or the SDKs'): choose another name"); return s === undefined || /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(s) ? s : fail("expected a claim name: a letter, then letters, digits, '_', '.', ':' or '-'"); }, default: () => undefined, doc: "copy each user's metadata into access tokens under this claim (unset: not copied)" },
  { key: "accountDeletionGraceMs", flag: "account-deletion-grace", env: "AUTHSVC_ACCOUNT_DELETION_GRACE", parse: duration(0, 90 * 86_400_000), default: () => 7 * 86_400_000, doc: "how long a self-service account deletion waits (the mail's link cancels it); 0 deletes at once" },
  { key: "cookieSameSite", flag: "cookie-same-site", env: "AUTHSVC_COOKIE_SAME_SITE", parse: oneOf("auto", "lax", "strict", "none"), default: () => "auto", doc: "SameSite of session cookies; auto = lax when website and API share a site, else none" },
  { key: "cookieSecure", flag: "cookie-secure", env: "AUTHSVC_COOKIE_SECURE", parse: oneOf("auto", "true", "false"), default: () => "auto", doc: "Secure cookie attribute; auto = on when the public URL is https" },
  { key: "cookieDomain", flag: "cookie-domain", env: "AUTHSVC_COOKIE_DOMAIN", parse: optStr, default: () => undefined, doc: "Domain attribute of session cookies (default: host-only)" },
  { key: "brandPrefix", flag: "brand-prefix", env: "AUTHSVC_BRAND_PREFIX", parse: (v) => (/^[a-z0-9][a-z0-9-]*$/.test(String(v)) ? String(v) : fail("expected lowercase letters, digits and dashes")), default: () => "authsvc", doc: "prefix of the body-mode header <prefix>-auth-mode" },
  { key: "bodyLimit", flag: "body-limit", env: "AUTHSVC_BODY_LIMIT", parse: int(1024, 1_048_576), default: () => 16_384, doc: "largest accepted request body in bytes" },
  { key: "smtpUrl", flag: "smtp-url", env: "AUTHSVC_SMTP_URL", parse: smtpUrl, secret: "url-password", default: () => undefined, doc: "SMTP relay, smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; required in production" },
  { key: "mailFrom", flag: "mail-from", env: "AUTHSVC_MAIL_FROM", parse: str, default: () => "authsvc <no-reply@localhost>", doc: "From header of every mail" },
  { key: "mailCatcher", flag: "mail-catcher", env: "AUTHSVC_MAIL_CATCHER", parse: bool, default: (c) => c.mode === "development", doc: "run the built-in SMTP catcher (development default)" },
  { key: "mailCatcherHost", flag: "mail-catcher-host", env: "AUTHSVC_MAIL_CATCHER_HOST", parse: str, default: () => "127.0.0.1", doc: "address of the built-in mail catcher" },
  { key: "mailCatcherPort", flag: "mail-catcher-port", env: "AUTHSVC_MAIL_CATCHER_PORT", parse: int(0, 65535), default: () => 1025, doc: "port of the built-in mail catcher" },
  { key: "mailCatcherRetention", flag: "mail-catcher-retention", env: "AUTHSVC_MAIL_CATCHER_RETENTION", parse: int(1, 1_000_000), default: () => 500, doc: "caught messages kept (newest first)" },
  { key: "mailCatcherMaxAgeMs", flag: "mail-catcher-max-age", env: "AUTHSVC_MAIL_CATCHER_MAX_AGE", parse: duration(60_000, 365 * 86_400_000), default: () => 7 * 86_400_000, doc: "caught messages older than this are deleted" },
  { key: "mailTemplatesDir", flag: "mail-templates-dir", env: "AUTHSVC_MAIL_TEMPLATES_DIR", parse: optStr, default: () => undefined, doc: "folder with template overrides (see \"Mail\" in docs/api.md)" },
  { key: "providers", env: "AUTHSVC_PROVIDERS", parse: providers, secret: "all", default: () => [], doc: "third-party providers (JSON array; config file or env)" },
  { key: "shutdownTimeoutMs", flag: "shutdown-timeout", env: "AUTHSVC_SHUTDOWN_TIMEOUT", parse: duration(0, 600_000), default: () => 20_000, doc: "how long in-flight requests may finish on SIGTERM" },
  // Every core (issue 25)
  { key: "workers", flag: "workers", env: "AUTHSVC_WORKERS", parse: int(1, 1024), default: () => availableParallelism(), doc: "HTTP worker processes serve runs on one port (1 = a single process); what must run once (migrations, mail catcher, outbox, purge, backups) runs in the primary" },
  { key: "hashThreads", flag: "hash-threads", env: "AUTHSVC_HASH_THREADS", parse: int(1, 1024), default: () => availableParallelism(), doc: "threads that hash passwords (bcrypt) for the whole server, shared out among the workers; at lower CPU priority than requests" },
  { key: "sqliteSynchronous", flag: "sqlite-synchronous", env: "AUTHSVC_SQLITE_SYNCHRONOUS", parse: oneOf("FULL", "NORMAL"), default: () => "FULL", doc: "FULL survives power loss; NORMAL may lose the last commits on power loss" },
  { key: "logLevel", flag: "log-level", env: "AUTHSVC_LOG_LEVEL", parse: oneOf("debug", "info", "warn", "error", "silent"), default: () => "info", doc: "log verbosity" },
  // #8C session and token hardening
  { key: "sessionMaxLifetimeMs", flag: "session-max-lifetime", env: "AUTHSVC_SESSION_MAX_LIFETIME", parse: duration(3_600_000, 400 * 86_400_000), default: () => 30 * 86_400_000, doc: "absolute session lifetime from sign-in, however often it is refreshed; then the user signs in again" },
  { key: "sessionsPerUser", flag: "sessions-per-user", env: "AUTHSVC_SESSIONS_PER_USER", parse: int(1, 10_000), default: () => 100, doc: "live sessions one user may hold; a sign-in past it revokes the oldest" },
  // Admin API (#12b)
  { key: "adminApiKey", env: "AUTHSVC_ADMIN_API_KEY", parse: adminKey, secret: "all", default: () => undefined, doc: "bearer key of the admin API under /admin/v1 (≥ 32 chars, hard to guess: `authsvc admin-key` makes one; unset = admin API off); env or file only" },
  // Operations (#12a)
  { key: "backupDir", flag: "backup-dir", env: "AUTHSVC_BACKUP_DIR", parse: optStr, default: () => undefined, doc: "serve writes scheduled backups of the SQLite database here (off when unset)" },
  { key: "backupEveryMs", flag: "backup-every", env: "AUTHSVC_BACKUP_EVERY", parse: duration(1000, 365 * 86_400_000), default: () => 86_400_000, doc: "time between scheduled backups" },
  { key: "backupKeep", flag: "backup-keep", env: "AUTHSVC_BACKUP_KEEP", parse: int(1, 100_000), default: () => 7, doc: "scheduled backups kept (the oldest are deleted)" },
  { key: "metrics", flag: "metrics", env: "AUTHSVC_METRICS", parse: bool, default: () => false, doc: "serve Prometheus metrics at /metrics (on the API port unless --metrics-port)" },
  { key: "metricsPort", flag: "metrics-port", env: "AUTHSVC_METRICS_PORT", parse: int(0, 65535), default: () => undefined, doc: "serve /metrics on this port of its own instead of the API port (turns metrics on)" },
  { key: "metricsHost", flag: "metrics-host", env: "AUTHSVC_METRICS_HOST", parse: str, default: () => "127.0.0.1", doc: "address the --metrics-port listener binds to" },
  // Hosted pages and development inbox (issue 11)
  { key: "hostedPages", flag: "hosted-pages", env: "AUTHSVC_HOSTED_PAGES", parse: bool, default: (c) => c.websiteUrl === c.publicUrl, doc: "serve the sign-in, verify-email and reset-password pages under the website base path and point mail links at them (default: on when the website URL is the public URL)" },
  { key: "pagesProductName", flag: "pages-product-name", env: "AUTHSVC_PAGES_PRODUCT_NAME", parse: (v) => { const s = str(v) as string; return s.length <= 60 ? s : fail("expected at most 60 characters"); }, default: () => "authsvc", doc: "product name shown on the hosted pages" },
  { key: "pagesLogoUrl", flag: "pages-logo-url", env: "AUTHSVC_PAGES_LOGO_URL", parse: parseLogoUrl, default: () => undefined, doc: "logo on the hosted pages: an https URL, or a path on this server (its origin is added to the pages' img-src)" },
  { key: "pagesRedirectPaths", flag: "pages-redirect-paths", env: "AUTHSVC_PAGES_REDIRECT_PATHS", parse: parsePathList, default: () => ["/"], doc: "comma-separated paths on the website URL a hosted sign-in may return to (?redirectToPath=); the first is the default; a trailing * allows a prefix" },
  // Passkeys (issue 22, docs/passkeys.md): after the hosted pages, whose settings the defaults read.
  { key: "webauthnRpId", flag: "webauthn-rp-id", env: "AUTHSVC_WEBAUTHN_RP_ID", parse: rpId, default: (c) => new URL(c.websiteUrl!).hostname, doc: "passkeys: the relying party ID, a domain that every passkey origin is on (default: the website URL's host); passkeys stay bound to it, so choose it once" },
  { key: "webauthnRpName", flag: "webauthn-rp-name", env: "AUTHSVC_WEBAUTHN_RP_NAME", parse: str, default: (c) => c.pagesProductName ?? "authsvc", doc: "passkeys: the name the browser shows when a passkey is made (default: the hosted pages' product name)" },
  { key: "webauthnOrigins", flag: "webauthn-origins", env: "AUTHSVC_WEBAUTHN_ORIGINS", parse: originList, default: (c) => [...new Set([c.websiteUrl!, ...(c.hostedPages ? [c.publicUrl!] : [])])], doc: "passkeys: comma-separated origins whose pages may make and use passkeys (default: the website URL, and the public URL when the hosted pages are on)" },
  { key: "webauthnRecoveryTokenLifetimeMs", flag: "webauthn-recovery-token-lifetime", env: "AUTHSVC_WEBAUTHN_RECOVERY_TOKEN_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 3_600_000, doc: "passkeys: validity of the \"lost my passkey\" recovery link" },
  // Rate limits: one block, docs/security.md "Rate limits" explains each bucket.
  { key: "rateLimits", flag: "rate-limits", env: "AUTHSVC_RATE_LIMITS", parse: bool, default: () => true, doc: "rate limits on (false switches every bucket off)" },
  { key: "trustedProxies", flag: "trusted-proxies", env: "AUTHSVC_TRUSTED_PROXIES", parse: cidrList, default: () => [], doc: "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is believed (default: none, the socket's address counts)" },
  limit("limitSigninFailures", "signin-failures", "20/1h", "consecutive failed sign-ins per address before it is locked / how long the lock lasts (failures are forgotten that long after the last)"),
  { key: "limitSigninFreeFailures", flag: "limit-signin-free-failures", env: "AUTHSVC_LIMIT_SIGNIN_FREE_FAILURES", parse: int(1, 1000), default: () => 5, doc: "failed sign-ins per address answered without delay; each further one doubles the wait, from 1 s" },
  { key: "limitSigninMaxDelayMs", flag: "limit-signin-max-delay", env: "AUTHSVC_LIMIT_SIGNIN_MAX_DELAY", parse: duration(1000, 86_400_000), default: () => 60_000, doc: "longest wait between failed sign-ins before the lock" },
  limit("limitSigninIp", "signin-ip", "100/15m", "sign-in attempts per client IP"),
  limit("limitSignupIp", "signup-ip", "20/1h", "sign-ups per client IP"),
  limit("limitEmailExistsIp", "email-exists-ip", "100/15m", "email-exists checks per client IP"),
  limit("limitRefreshIp", "refresh-ip", "600/15m", "session refreshes per client IP"),
  limit("limitSigninupIp", "signinup-ip", "60/15m", "third-party sign-ins (POST /signinup) per client IP"),
  limit("limitMailIp", "mail-ip", "20/1h", "mail requests (password reset, email verification, passwordless codes) per client IP"),
  limit("limitMailCooldown", "mail-cooldown", "1/1m", "mail requests per address and kind: the cooldown", "buckets reset-cooldown, verify-cooldown"),
  limit("limitMailHourly", "mail-hourly", "5/1h", "mail requests per address (passwordless codes and resends included): the longer cap"),
  limit("limitTokenIp", "token-ip", "50/15m", "token submissions (password reset, email verification) per client IP"),
  limit("limitInvalidTokenIp", "invalid-token-ip", "20/1h", "invalid token submissions per client IP (guessing); over it, every token submission is refused"),
  limit("limitAdminKeyIp", "admin-key-ip", "20/1h", "wrong admin API keys per client IP (guessing); over it, every admin request from that client is refused"),
  // Admin dashboard (docs/admin-dashboard.md): its accounts have sessions and budgets of their own.
  { key: "adminSessionIdleMs", flag: "admin-session-idle", env: "AUTHSVC_ADMIN_SESSION_IDLE", parse: duration(60_000, 86_400_000), default: () => 30 * 60_000, doc: "admin dashboard: a session unused this long ends" },
  { key: "adminSessionMaxLifetimeMs", flag: "admin-session-max-lifetime", env: "AUTHSVC_ADMIN_SESSION_MAX_LIFETIME", parse: duration(300_000, 7 * 86_400_000), default: () => 12 * 3_600_000, doc: "admin dashboard: a session ends this long after sign-in, however busy" },
  limit("limitAdminSigninIp", "admin-signin-ip", "30/15m", "admin dashboard sign-in attempts per client IP"),
  limit("limitAdminSigninEmail", "admin-signin-email", "10/1h", "failed admin dashboard sign-ins (wrong password or code) per submitted address; over it, that address is refused, the right password and code included"),
  // Webhooks (docs/webhooks.md); endpoints may also be added with `authsvc webhooks add` or the admin API.
  { key: "webhooks", env: "AUTHSVC_WEBHOOKS", parse: (v) => parseWebhooksSetting(v), secret: "all", default: () => [], doc: "webhook endpoints (JSON array of {url, secret, events}; config file or env; see docs/webhooks.md)" },
  { key: "webhookTimeoutMs", flag: "webhook-timeout", env: "AUTHSVC_WEBHOOK_TIMEOUT", parse: duration(1000, 60_000), default: () => 10_000, doc: "how long a webhook endpoint may take to answer before the attempt counts as failed" },
  { key: "webhookFailureLimit", flag: "webhook-failure-limit", env: "AUTHSVC_WEBHOOK_FAILURE_LIMIT", parse: int(1, 1_000_000), default: () => 200, doc: "failed webhook attempts in a row after which an endpoint is disabled (with a webhook.endpoint_disabled event)" },
];

export interface ConfigInput {
  /** Flags as commander parsed them (camelCase keys of the flag names); undefined = not given. */
  flags?: Record<string, unknown>;
  /** Environment; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Path of a JSON config file; falls back to AUTHSVC_CONFIG. */
  configFile?: string;
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
/** A setting's key in the config file: its flag in camelCase, or its name when it has no flag. */
export const fileKey = (s: Setting): string => (s.flag ? camel(s.flag) : s.key);

/** Resolves, validates and freezes the configuration. Throws ConfigError naming the bad setting. */
export function resolveConfig(input: ConfigInput = {}): ResolvedConfig {
  const env = input.env ?? process.env;
  const flags = { ...(input.flags ?? {}) };
  if (flags.production === true) {
    if (flags.mode !== undefined && flags.mode !== "production") throw new ConfigError("--production conflicts with --mode " + String(flags.mode));
    flags.mode = "production";
  }
  const configFile = input.configFile ?? (typeof flags.config === "string" ? flags.config : undefined) ?? env.AUTHSVC_CONFIG;
  let file: Record<string, unknown> = {};
  if (configFile) {
    let text: string;
    try { text = readFileSync(configFile, "utf8"); } catch (e) {
      throw new ConfigError(`cannot read config file ${configFile}: ${describeFsError(e)}; check --config (AUTHSVC_CONFIG)`);
    }
    try { file = JSON.parse(text); } catch (e) {
      throw new ConfigError(`config file ${configFile} is not valid JSON: ${(e as Error).message}`);
    }
    if (!file || typeof file !== "object" || Array.isArray(file)) throw new ConfigError(`config file ${configFile} must hold a JSON object`);
    // File keys are the camelCase flag names ("accessTokenLifetime": "15m"), not the internal
    // field names: "accessTokenLifetimeMs": 900000 would silently mean 900000 seconds.
    const known = settings.map(fileKey);
    for (const k of Object.keys(file)) if (!known.includes(k)) throw new ConfigError(describeUnknownKey(configFile, k, known));
  }

  const config: Partial<Config> = {};
  const sources = {} as Record<keyof Config, Source>;
  for (const s of settings) {
    const flagKey = s.flag ? camel(s.flag) : undefined;
    let raw: unknown;
    let source: Source;
    let where: string;
    if (flagKey && flags[flagKey] !== undefined) { raw = flags[flagKey]; source = "flag"; where = `--${s.flag}`; }
    else if (env[s.env] !== undefined && env[s.env] !== "") { raw = env[s.env]; source = "env"; where = `${s.env} (environment)`; }
    else if (file[fileKey(s)] !== undefined) { raw = file[fileKey(s)]; source = "file"; where = `"${fileKey(s)}" in ${configFile}`; }
    else { (config as Record<string, unknown>)[s.key] = s.default(config); sources[s.key] = "default"; continue; }
    try {
      (config as Record<string, unknown>)[s.key] = s.parse(raw);
    } catch (why) {
      if (typeof why !== "string") throw why;
      const shown = s.secret === "all" ? "(hidden)" : JSON.stringify(typeof raw === "string" && s.secret ? maskUrl(raw) : raw);
      throw new ConfigError(`invalid value for ${where}: ${shown}: ${why}`);
    }
    sources[s.key] = source;
  }
  const c = config as Config;
  if (c.mode === "production") {
    const missing: string[] = [];
    if (sources.publicUrl === "default") missing.push("--public-url (AUTHSVC_PUBLIC_URL)");
    if (!c.smtpUrl) missing.push("--smtp-url (AUTHSVC_SMTP_URL)");
    if (!c.secret) missing.push("AUTHSVC_SECRET");
    if (missing.length) throw new ConfigError(`production mode needs ${missing.join(", ")}`);
    const problems = findProductionProblems(c, sources);
    if (problems.length) throw new ConfigError(`production mode: ${problems.join("; and ")}`);
    if (c.bcryptCost < 10) throw new ConfigError(`invalid value for --bcrypt-cost (AUTHSVC_BCRYPT_COST): ${c.bcryptCost}: production mode needs a cost of 10 or more`);
  }
  try { normaliseProviders(c.providers, c.mode); } catch (err) {
    throw new ConfigError(`invalid value for providers (${sources.providers}): ${(err as Error).message}`);
  }
  const failures = parseLimitSpec(c.limitSigninFailures);
  if (failures && c.limitSigninFreeFailures >= failures.limit) {
    throw new ConfigError(`invalid value for --limit-signin-free-failures: ${c.limitSigninFreeFailures}: must be below the lock's count in --limit-signin-failures (${failures.limit})`);
  }
  if (c.cookieSameSite === "none" && c.cookieSecure === "false") {
    throw new ConfigError("invalid value for --cookie-same-site: \"none\": browsers drop SameSite=None cookies that are not Secure");
  }
  // A browser refuses a passkey whose RP ID is not the page's host or a parent domain of it.
  const offRp = c.webauthnOrigins.filter((o) => { const h = new URL(o).hostname; return h !== c.webauthnRpId && !h.endsWith(`.${c.webauthnRpId}`); });
  if (offRp.length) throw new ConfigError(`invalid value for --webauthn-rp-id: "${c.webauthnRpId}": the passkey origins ${offRp.join(", ")} are not on that domain (set --webauthn-rp-id to a domain they share, or --webauthn-origins)`);
  deepFreeze(c);
  return Object.freeze({ config: c, sources: Object.freeze(sources), configFile });
}

/** An unknown config-file key, with the setting it most likely meant (internal names included: "accessTokenLifetimeMs"). */
function describeUnknownKey(configFile: string, key: string, known: readonly string[]): string {
  const byInternalName = settings.find((s) => s.key === key || `${s.key}Ms` === key);
  const guess = byInternalName ? fileKey(byInternalName) : suggestName(key, known);
  const hint = guess ? `; did you mean "${guess}"?` : "; `authsvc config` lists the keys the file accepts";
  return `config file ${configFile}: unknown setting "${key}"${hint}`;
}

/** One setting as `authsvc config` and the dashboard show it (value already masked when secret). */
export interface ConfigRow { key: string; flag?: string; env: string; value: unknown; source: Source | undefined; doc: string; secret: boolean }

/**
 * Settings as `authsvc config` prints them: the key and value as the config file accepts them (so
 * the output can be pasted into the file: "accessTokenLifetime": "15m", never the internal
 * accessTokenLifetimeMs in milliseconds the file would refuse), secrets masked, and the source.
 */
export function describeConfig(resolved: ResolvedConfig): ConfigRow[] {
  return settings.map((s) => {
    const v = resolved.config[s.key];
    // Every duration setting is named …Ms inside and read from the file as "15m" or seconds.
    let value: unknown = s.key.endsWith("Ms") && typeof v === "number" ? formatDuration(v) : v;
    if (s.secret === "all" && v !== undefined && !(Array.isArray(v) && v.length === 0)) value = s.key === "providers" || s.key === "webhooks" ? maskProviders(v) : "********";
    else if (s.secret === "url-password" && typeof v === "string") value = maskUrl(v);
    return { key: fileKey(s), flag: s.flag ? `--${s.flag}` : undefined, env: s.env, value, source: resolved.sources[s.key] as Source | undefined, doc: s.doc, secret: s.secret !== undefined };
  });
}

/** Replaces the password of a URL (smtp://user:pass@…, postgres://…) with ****. */
export const maskUrl = maskUrlPassword;

function maskProviders(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskProviders);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, /secret|privatekey/i.test(k) ? "********" : maskProviders(v)]));
  }
  return value;
}

function deepFreeze(o: unknown): void {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
}

/**
 * The configuration tests use: development defaults with a fast hash and a silent log, and
 * production's rate-limit budgets (the limits tests check those, not the loopback development ones).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests start from an app with a frontend of its own (hosted pages off, mail links to :3000);
  // those about the hosted pages turn them on, and the quick start's defaults have tests of their own.
  const { config } = resolveConfig({ env: { AUTHSVC_WEBSITE_URL: "http://localhost:3000" } });
  const productionBudgets = Object.fromEntries(settings.filter((s) => s.key in localDevelopmentLimits).map((s) => [s.key, s.default({ ...config, mode: "production" })]));
  return { ...config, ...productionBudgets, bcryptCost: 4, logLevel: "silent", mailCatcher: false, ...overrides };
}

/** The admin API key: long, no spaces, and not guessable (32 × "a" is 32 characters too). */
function adminKey(v: unknown): unknown {
  const s = str(v) as string;
  if (/\s/.test(s)) return fail("expected no spaces");
  if (s.length < 32) return fail("expected at least 32 characters; generate one with `authsvc admin-key`");
  const weak = describeWeakKey(s);
  return weak ? fail(weak) : s;
}

/** Hosted pages: a logo is an https URL (or http on loopback) or a path on this server. */
function parseLogoUrl(v: unknown): unknown {
  const s = optStr(v) as string | undefined;
  if (s === undefined) return undefined;
  if (/^\/(?!\/)[^\s"'<>\\]*$/.test(s)) return s;
  let u: URL;
  try { u = new URL(s); } catch { return fail("expected an https URL or a path starting with /"); }
  return u.protocol === "https:" || (u.protocol === "http:" && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(u.host.replace(/:\d+$/, ""))) ? u.toString() : fail("expected an https URL or a path starting with /");
}

/** Hosted pages: where a sign-in may return, as paths on the website (never another site). */
function parsePathList(v: unknown): unknown {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of paths");
  const out = (items as unknown[]).map((x) => {
    const p = typeof x === "string" ? x.trim() : "";
    // A path on the website, never a scheme-relative or absolute URL (open redirect).
    return /^\/(?![/\\])[A-Za-z0-9._~!$&'()+,;=:@%/-]*\*?$/.test(p) ? p : fail(`expected paths starting with a single / such as /dashboard; got ${JSON.stringify(x)}`);
  });
  return out.length > 0 ? out : fail("expected at least one path");
}
