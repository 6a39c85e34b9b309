import type { Config } from "./types.js";

/**
 * Rate-limit budgets of development mode on a loopback address: a local end-to-end test loop signs
 * up, signs in and requests mail far more often than a person, and production's budgets (20
 * sign-ups an hour per IP) would answer it 429. Only loopback: a development server anyone can reach
 * keeps production's budgets. Per-address sign-in failures keep theirs everywhere: a test of the
 * lockout must see the real one. An explicit setting always wins over these.
 */
export const localDevelopmentLimits: Readonly<Partial<Record<keyof Config, string>>> = {
  limitSigninIp: "1000/15m",
  limitSignupIp: "1000/1h",
  limitEmailExistsIp: "1000/15m",
  limitRefreshIp: "6000/15m",
  limitSigninupIp: "600/15m",
  limitMailIp: "1000/1h",
  limitMailCooldown: "10/1m",
  limitMailHourly: "100/1h",
  limitTokenIp: "500/15m",
  limitInvalidTokenIp: "200/1h",
};

/** Development mode bound to a loopback address only (127.0.0.0/8, ::1, localhost). */
export function isLocalDevelopment(c: Partial<Config>): boolean {
  const h = (c.host ?? "").replace(/^\[|\]$/g, "").toLowerCase();
  return c.mode === "development" && (h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h));
}
