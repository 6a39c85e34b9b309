import type { Setting } from "./engine.js";
import { limitSpec } from "./parsers.js";
import type { Config } from "./types.js";

/**
 * A rate-limit budget's row (the kernel's and the rooms'): flag limit-<name>, AUTHSVC_LIMIT_<NAME>,
 * "N/window or off". `dev`: the budget of development mode on a loopback address. A local
 * end-to-end test loop signs up, signs in and requests mail far more often than a person, and
 * production's budgets (20 sign-ups an hour per IP) would answer it 429. Only loopback: a
 * development server anyone can reach keeps production's budgets. Per-address sign-in failures
 * keep theirs everywhere: a test of the lockout must see the real one. An explicit setting always
 * wins over these.
 */
export function limitSetting(key: keyof Config, name: string, def: string, doc: string, opts: { dev?: string; buckets?: string } = {}): Setting {
  const { dev } = opts;
  return {
    key, flag: `limit-${name}`, env: `AUTHSVC_LIMIT_${name.toUpperCase().replace(/-/g, "_")}`, parse: limitSpec,
    default: (c) => (dev !== undefined && isLocalDevelopment(c) ? dev : def),
    doc: `${doc} (${opts.buckets ?? `bucket ${name}`}; N/window or off)`,
    ...(dev !== undefined ? { localDevelopment: dev } : {}),
  };
}

/** Development mode bound to a loopback address only (127.0.0.0/8, ::1, localhost). */
export function isLocalDevelopment(c: Partial<Config>): boolean {
  const h = (c.host ?? "").replace(/^\[|\]$/g, "").toLowerCase();
  return c.mode === "development" && (h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h));
}
