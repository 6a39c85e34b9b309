import type { SettingsBlock, SettingsCheck } from "../../config/engine.js";
import { duration, fail, kindOf, str } from "../../config/parsers.js";
import { ConfigError } from "../../config/types.js";

declare module "../../config/types.js" {
  interface Config {
    /** Lazy migration (docs/moving-in.md "Lazy migration"): the old system's password-check endpoint. */
    lazyMigrationUrl: string | undefined;
    lazyMigrationSecret: string | undefined;
    lazyMigrationTimeoutMs: number;
  }
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The endpoint: an absolute https URL, or plain http on this machine's loopback (a local copy of
 * the old system, the tests); never with credentials in it (the shared secret travels in a header).
 * Production refuses the loopback exception (lazyMigrationChecks).
 */
function parseEndpoint(v: unknown): string {
  let u: URL;
  try { u = new URL(str(v) as string); } catch { return fail("expected an absolute https URL such as https://old.example.com/authsvc/check-password"); }
  if (u.username || u.password) fail("expected no credentials in the URL: the shared secret (AUTHSVC_LAZY_MIGRATION_SECRET) is sent as a bearer token");
  if (u.protocol === "https:") return u.toString();
  if (u.protocol === "http:" && LOOPBACK.has(u.hostname)) return u.toString();
  return fail("expected an https URL (plain http only to 127.0.0.1, [::1] or localhost, and only in development mode): the request carries a password");
}

/** Lazy migration's settings, documented after the password rules. */
export const lazyMigrationSettings: SettingsBlock = { after: "passwordMinLength", rows: [
  { key: "lazyMigrationUrl", flag: "lazy-migration-url", env: "AUTHSVC_LAZY_MIGRATION_URL", parse: kindOf("url", parseEndpoint), default: () => undefined, doc: "lazy migration: the old system's endpoint that checks a password once for an address not here yet (https; http://127.0.0.1 or localhost in development only; docs/moving-in.md)" },
  { key: "lazyMigrationSecret", env: "AUTHSVC_LAZY_MIGRATION_SECRET", parse: (v) => { const s = str(v) as string; return s.length >= 32 ? s : fail("expected at least 32 characters"); }, secret: "all", default: () => undefined, doc: "lazy migration: the shared secret sent to the old system as `Authorization: Bearer …` (≥ 32 chars); env or file only" },
  { key: "lazyMigrationTimeoutMs", flag: "lazy-migration-timeout", env: "AUTHSVC_LAZY_MIGRATION_TIMEOUT", parse: duration(100, 30_000), default: () => 5000, doc: "lazy migration: how long the old system may take to answer; past it the sign-in is answered as a wrong password" },
] };

export const lazyMigrationChecks: readonly SettingsCheck[] = [
  (c) => {
    if (!c.lazyMigrationUrl) return;
    if (!c.lazyMigrationSecret) throw new ConfigError("--lazy-migration-url needs AUTHSVC_LAZY_MIGRATION_SECRET: the old system must be able to tell authsvc from anyone else asking it to check passwords");
    if (c.mode === "production" && !c.lazyMigrationUrl.startsWith("https:")) {
      throw new ConfigError(`invalid value for --lazy-migration-url: ${c.lazyMigrationUrl}: production mode needs https (passwords cross the network in that request)`);
    }
  },
];
