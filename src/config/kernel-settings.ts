import { availableParallelism } from "node:os";
import { parseLimitSpec } from "../util/limit-spec.js";
import { detectMemoryLimit } from "../util/memory-limit.js";
import type { Setting, SettingsCheck } from "./engine.js";
import { describeProductionRefusal } from "./guards.js";
import { limitSetting as limit } from "./limit-defaults.js";
import { adminKey, basePath, bool, cidrList, database, duration, fail, int, kindOf, megabytes, oneOf, optStr, origin, originList, parseLogoUrl, parsePathList, smtpUrl, str } from "./parsers.js";
import { ConfigError, type Config } from "./types.js";
import { fitWorkers } from "./worker-fit.js";
import { isLocale, shippedLocales } from "../words/locales.js";

/** A comma-separated list of shipped locales, each once. */
const localeList = kindOf("locales", (v: unknown): unknown => {
  const list = (Array.isArray(v) ? v.map(String) : String(v).split(",")).map((s) => s.trim()).filter(Boolean);
  const bad = list.filter((l) => !isLocale(l));
  if (bad.length || !list.length) fail(`expected shipped locales (${shippedLocales.join(", ")}), comma-separated`);
  return [...new Set(list)];
});
/** One shipped locale. */
const localeList1 = kindOf("locale", (v: unknown): unknown => (isLocale(String(v).trim()) ? String(v).trim() : fail(`expected one of ${shippedLocales.join(", ")}`)));


/**
 * The words the rooms declare for a kernel setting's description (Room.settingWords), in the rooms'
 * order: the second factors `--mfa` names, what a mail or token limit counts.
 */
export type SettingWords = (key: keyof Config) => readonly string[];

/** " (a, b)", or nothing when no room declares words. */
const listed = (words: readonly string[]): string => (words.length ? ` (${words.join(", ")})` : "");
/** "a, b and c". */
const joined = (words: readonly string[]): string => (words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join(""));

/** The kernel's settings, in resolution order (later defaults may read earlier values); `words` fills what their descriptions name of the rooms. */
export const kernelSettings = (words: SettingWords): readonly Setting[] => [
  { key: "mode", flag: "mode", env: "AUTHSVC_MODE", parse: oneOf("development", "production"), default: () => "development", doc: "development (local defaults, mail catcher, tokens in responses) or production (strict)" },
  { key: "port", flag: "port", env: "AUTHSVC_PORT", parse: int(0, 65535), default: () => 3567, doc: "HTTP port (0 picks a free one)" },
  { key: "host", flag: "host", env: "AUTHSVC_HOST", parse: str, default: (c) => (c.mode === "production" ? "0.0.0.0" : "127.0.0.1"), doc: "address to bind; 127.0.0.1 in development, 0.0.0.0 in production" },
  { key: "database", flag: "database", env: "AUTHSVC_DATABASE", parse: database, secret: "url-password", default: () => "./authsvc.db", doc: "SQLite file path, or a postgres:// URL" },
  { key: "publicUrl", flag: "public-url", env: "AUTHSVC_PUBLIC_URL", parse: origin, default: (c) => `http://localhost:${c.port || 3567}`, doc: "the API's own origin (issuer, cookie Secure); required in production" },
  // In development with no website of its own, the server's own hosted pages are the website: the
  // quick start then has a sign-in page and its first verification mail links to a page that exists.
  { key: "websiteUrl", flag: "website-url", env: "AUTHSVC_WEBSITE_URL", parse: origin, default: (c) => (c.mode === "development" ? c.publicUrl : "http://localhost:3000"), doc: "the frontend origin, used in mail links and for CORS (default: the public URL in development, so the hosted pages are the website; http://localhost:3000 in production, which production mode refuses: give it)" },
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
  { key: "mfa", flag: "mfa", env: "AUTHSVC_MFA", parse: oneOf("optional", "required"), default: () => "optional", doc: `second factor${listed(words("mfa"))}: optional = users turn it on themselves; required = every user sets it up at the next sign-in` },
  { key: "accountLinking", flag: "account-linking", env: "AUTHSVC_ACCOUNT_LINKING", parse: bool, default: () => true, doc: "link login methods with the same verified address into one user; false = each method its own user" },
  { key: "cookieSameSite", flag: "cookie-same-site", env: "AUTHSVC_COOKIE_SAME_SITE", parse: oneOf("auto", "lax", "strict", "none"), default: () => "auto", doc: "SameSite of session cookies; auto = lax when website and API share a site, else none" },
  { key: "cookieSecure", flag: "cookie-secure", env: "AUTHSVC_COOKIE_SECURE", parse: oneOf("auto", "true", "false"), default: () => "auto", doc: "Secure cookie attribute; auto = on when the public URL is https" },
  { key: "cookieDomain", flag: "cookie-domain", env: "AUTHSVC_COOKIE_DOMAIN", parse: optStr, default: () => undefined, doc: "Domain attribute of session cookies (default: host-only)" },
  { key: "brandPrefix", flag: "brand-prefix", env: "AUTHSVC_BRAND_PREFIX", parse: kindOf("prefix", (v: unknown) => (/^[a-z0-9][a-z0-9-]*$/.test(String(v)) ? String(v) : fail("expected lowercase letters, digits and dashes"))), default: () => "authsvc", doc: "prefix of the body-mode header <prefix>-auth-mode" },
  { key: "bodyLimit", flag: "body-limit", env: "AUTHSVC_BODY_LIMIT", parse: int(1024, 1_048_576), default: () => 16_384, doc: "largest accepted request body in bytes" },
  { key: "smtpUrl", flag: "smtp-url", env: "AUTHSVC_SMTP_URL", parse: smtpUrl, secret: "url-password", default: () => undefined, doc: "SMTP relay, smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; required in production" },
  { key: "mailFrom", flag: "mail-from", env: "AUTHSVC_MAIL_FROM", parse: str, default: () => "authsvc <no-reply@localhost>", doc: "From header of every mail" },
  { key: "mailCatcher", flag: "mail-catcher", env: "AUTHSVC_MAIL_CATCHER", parse: bool, default: (c) => c.mode === "development", doc: "run the built-in SMTP catcher (development default)" },
  { key: "mailCatcherHost", flag: "mail-catcher-host", env: "AUTHSVC_MAIL_CATCHER_HOST", parse: str, default: () => "127.0.0.1", doc: "address of the built-in mail catcher" },
  { key: "mailCatcherPort", flag: "mail-catcher-port", env: "AUTHSVC_MAIL_CATCHER_PORT", parse: int(0, 65535), default: () => 1025, doc: "port of the built-in mail catcher" },
  { key: "mailCatcherRetention", flag: "mail-catcher-retention", env: "AUTHSVC_MAIL_CATCHER_RETENTION", parse: int(1, 1_000_000), default: () => 500, doc: "caught messages kept (newest first)" },
  { key: "mailCatcherMaxAgeMs", flag: "mail-catcher-max-age", env: "AUTHSVC_MAIL_CATCHER_MAX_AGE", parse: duration(60_000, 365 * 86_400_000), default: () => 7 * 86_400_000, doc: "caught messages older than this are deleted" },
  { key: "mailTemplatesDir", flag: "mail-templates-dir", env: "AUTHSVC_MAIL_TEMPLATES_DIR", parse: optStr, default: () => undefined, doc: "folder with template overrides (see \"Mail\" in docs/api.md)" },
  { key: "shutdownTimeoutMs", flag: "shutdown-timeout", env: "AUTHSVC_SHUTDOWN_TIMEOUT", parse: duration(0, 600_000), default: () => 20_000, doc: "how long in-flight requests may finish on SIGTERM" },
  // Every core (issue 25)
  // Small machines (issue 51): the default workers fit in the memory the server may use.
  { key: "memoryLimit", flag: "memory-limit", env: "AUTHSVC_MEMORY_LIMIT", parse: megabytes(16, 16 * 1024 * 1024), default: () => detectMemoryLimit().mb, doc: "memory the server may use, such as 256MB or 1G; the default --workers fit in it (each process's expected footprint under load, docs/workers.md)" },
  { key: "workers", flag: "workers", env: "AUTHSVC_WORKERS", parse: int(1, 1024), default: (c) => fitWorkers(availableParallelism(), c.memoryLimit as number), doc: "HTTP worker processes serve runs on one port (1 = a single process); what must run once (migrations, mail catcher, outbox, purge, backups) runs in the primary; by default one per core, as many as fit in --memory-limit" },
  { key: "hashThreads", flag: "hash-threads", env: "AUTHSVC_HASH_THREADS", parse: int(1, 1024), default: () => availableParallelism(), doc: "threads that hash passwords (bcrypt) for the whole server (with --workers, in the primary process, for every worker); at lower CPU priority than requests" },
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
  { key: "pagesProductName", flag: "pages-product-name", env: "AUTHSVC_PAGES_PRODUCT_NAME", parse: kindOf("text", (v: unknown) => { const s = str(v) as string; return s.length <= 60 ? s : fail("expected at most 60 characters"); }), default: () => "authsvc", doc: "product name shown on the hosted pages" },
  { key: "pagesLogoUrl", flag: "pages-logo-url", env: "AUTHSVC_PAGES_LOGO_URL", parse: kindOf("url|path", parseLogoUrl), default: () => undefined, doc: "logo on the hosted pages: an https URL, or a path on this server (its origin is added to the pages' img-src)" },
  { key: "pagesRedirectPaths", flag: "pages-redirect-paths", env: "AUTHSVC_PAGES_REDIRECT_PATHS", parse: kindOf("paths", parsePathList), default: () => ["/"], doc: "comma-separated paths on the website URL a hosted sign-in may return to (?redirectToPath=); the first is the default; a trailing * allows a prefix" },
  // Words (issue 48)
  { key: "locales", flag: "locales", env: "AUTHSVC_LOCALES", parse: localeList, default: () => [...shippedLocales], doc: `comma-separated locales the hosted pages and mails are offered in (default: all shipped: ${shippedLocales.join(", ")})` },
  { key: "defaultLocale", flag: "default-locale", env: "AUTHSVC_DEFAULT_LOCALE", parse: localeList1, default: (c) => (!c.locales || c.locales.includes("en") ? "en" : c.locales[0]), doc: "the locale of a page when neither ?lang=, the cookie nor Accept-Language names an offered one, and of mail to a person with none stored (default: en)" },
  { key: "wordsDir", flag: "words-dir", env: "AUTHSVC_WORDS_DIR", parse: optStr, default: () => undefined, doc: "folder of word overrides, one <locale>.json of message ids and ICU messages per locale (see docs/words.md)" },
  // Rate limits: one block, docs/security.md "Rate limits" explains each bucket.
  { key: "rateLimits", flag: "rate-limits", env: "AUTHSVC_RATE_LIMITS", parse: bool, default: () => true, doc: "rate limits on (false switches every bucket off)" },
  { key: "trustedProxies", flag: "trusted-proxies", env: "AUTHSVC_TRUSTED_PROXIES", parse: cidrList, default: () => [], doc: "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is believed (default: none, the socket's address counts)" },
  limit("limitSigninFailures", "signin-failures", "20/1h", "consecutive failed sign-ins per address before it is locked / how long the lock lasts (failures are forgotten that long after the last)"),
  { key: "limitSigninFreeFailures", flag: "limit-signin-free-failures", env: "AUTHSVC_LIMIT_SIGNIN_FREE_FAILURES", parse: int(1, 1000), default: () => 5, doc: "failed sign-ins per address answered without delay; each further one doubles the wait, from 1 s" },
  { key: "limitSigninMaxDelayMs", flag: "limit-signin-max-delay", env: "AUTHSVC_LIMIT_SIGNIN_MAX_DELAY", parse: duration(1000, 86_400_000), default: () => 60_000, doc: "longest wait between failed sign-ins before the lock" },
  limit("limitSigninIp", "signin-ip", "100/15m", "sign-in attempts per client IP", { dev: "1000/15m" }),
  limit("limitSignupIp", "signup-ip", "20/1h", "sign-ups per client IP", { dev: "1000/1h" }),
  limit("limitEmailExistsIp", "email-exists-ip", "100/15m", "email-exists checks per client IP", { dev: "1000/15m" }),
  limit("limitRefreshIp", "refresh-ip", "600/15m", "session refreshes per client IP", { dev: "6000/15m" }),
  limit("limitMailIp", "mail-ip", "20/1h", `mail requests${listed(words("limitMailIp"))} per client IP`, { dev: "1000/1h" }),
  limit("limitMailCooldown", "mail-cooldown", "1/1m", "mail requests per address and kind: the cooldown", { dev: "10/1m", buckets: "buckets reset-cooldown, verify-cooldown" }),
  limit("limitMailHourly", "mail-hourly", "5/1h", `mail requests per address (${joined([...words("limitMailHourly"), "resends"])} included): the longer cap`, { dev: "100/1h" }),
  limit("limitTokenIp", "token-ip", "50/15m", `token submissions${listed(words("limitTokenIp"))} per client IP`, { dev: "500/15m" }),
  limit("limitInvalidTokenIp", "invalid-token-ip", "20/1h", "invalid token submissions per client IP (guessing); over it, every token submission is refused", { dev: "200/1h" }),
  limit("limitAdminKeyIp", "admin-key-ip", "20/1h", "wrong admin API keys per client IP (guessing); over it, every admin request from that client is refused"),
  // Admin dashboard (docs/admin-dashboard.md): its accounts have sessions and budgets of their own.
  { key: "adminSessionIdleMs", flag: "admin-session-idle", env: "AUTHSVC_ADMIN_SESSION_IDLE", parse: duration(60_000, 86_400_000), default: () => 30 * 60_000, doc: "admin dashboard: a session unused this long ends" },
  { key: "adminSessionMaxLifetimeMs", flag: "admin-session-max-lifetime", env: "AUTHSVC_ADMIN_SESSION_MAX_LIFETIME", parse: duration(300_000, 7 * 86_400_000), default: () => 12 * 3_600_000, doc: "admin dashboard: a session ends this long after sign-in, however busy" },
  limit("limitAdminSigninIp", "admin-signin-ip", "30/15m", "admin dashboard sign-in attempts per client IP"),
  limit("limitAdminSigninEmail", "admin-signin-email", "10/1h", "failed admin dashboard sign-ins (wrong password or code) per submitted address; over it, that address is refused, the right password and code included"),
];

/** The kernel's checks that span settings; each room adds its own (Room.settingsCheck). */
export const kernelChecks: readonly SettingsCheck[] = [
  (c) => {
    if (!c.locales.includes(c.defaultLocale)) throw new ConfigError(`invalid value for defaultLocale (--default-locale): ${c.defaultLocale} is not among the offered locales (--locales ${c.locales.join(",")})`);
  },
  (c, sources) => {
    if (c.mode !== "production") return;
    const refusal = describeProductionRefusal(c, sources);
    if (refusal) throw new ConfigError(refusal);
  },
];

/** Checks of the kernel's rows that run after the rooms' (the order errors were always reported in). */
export const kernelLateChecks: readonly SettingsCheck[] = [
  (c) => {
    const failures = parseLimitSpec(c.limitSigninFailures);
    if (failures && c.limitSigninFreeFailures >= failures.limit) {
      throw new ConfigError(`invalid value for --limit-signin-free-failures: ${c.limitSigninFreeFailures}: must be below the lock's count in --limit-signin-failures (${failures.limit})`);
    }
    if (c.cookieSameSite === "none" && c.cookieSecure === "false") {
      throw new ConfigError("invalid value for --cookie-same-site: \"none\": browsers drop SameSite=None cookies that are not Secure");
    }
  },
];
