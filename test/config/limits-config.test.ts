import { describe, expect, it } from "vitest";
import { parseLimitSpec, resolveConfig } from "../../src/config.js";

const resolve = (env: Record<string, string>) => resolveConfig({ env }).config;

describe("rate-limit settings", () => {
  it("are on by default with the documented budgets, and read N/window or off", () => {
    const c = resolve({ AUTHSVC_HOST: "0.0.0.0" });
    expect([c.rateLimits, c.trustedProxies, c.limitSigninFailures, c.limitSignupIp, c.limitMailCooldown]).toEqual([true, [], "20/1h", "20/1h", "1/1m"]);
    expect(resolve({ AUTHSVC_LIMIT_SIGNUP_IP: " 50 / 30m " }).limitSignupIp).toBe("50/30m");
    expect(resolve({ AUTHSVC_LIMIT_SIGNUP_IP: "OFF" }).limitSignupIp).toBe("off");
    expect(resolve({ AUTHSVC_RATE_LIMITS: "false" }).rateLimits).toBe(false);
    expect(parseLimitSpec("100/15m")).toEqual({ limit: 100, windowMs: 900_000 });
    expect(parseLimitSpec("off")).toBeUndefined();
  });

  it("development on loopback gets budgets a local test loop does not trip; production and a reachable development server keep the strict ones", () => {
    const prodEnv = { AUTHSVC_MODE: "production", AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_SMTP_URL: "smtps://relay.example.com", AUTHSVC_SECRET: "s".repeat(40), AUTHSVC_MAIL_FROM: "A <a@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com" };
    const budgets = (c: ReturnType<typeof resolve>) => [c.limitSignupIp, c.limitSigninIp, c.limitMailIp, c.limitMailCooldown, c.limitMailHourly, c.limitSigninFailures];
    const strict = ["20/1h", "100/15m", "20/1h", "1/1m", "5/1h", "20/1h"];
    for (const host of ["127.0.0.1", "::1", "localhost"]) expect(budgets(resolve({ AUTHSVC_HOST: host }))).toEqual(["1000/1h", "1000/15m", "1000/1h", "10/1m", "100/1h", "20/1h"]);
    expect(budgets(resolve({ AUTHSVC_HOST: "0.0.0.0" }))).toEqual(strict);
    expect(budgets(resolve(prodEnv))).toEqual(strict);
    expect(budgets(resolve({ ...prodEnv, AUTHSVC_HOST: "127.0.0.1" }))).toEqual(strict);
    // A budget given explicitly always wins.
    expect(resolve({ AUTHSVC_LIMIT_SIGNUP_IP: "3/1h" }).limitSignupIp).toBe("3/1h");
  });

  it("refuse malformed budgets naming the setting", () => {
    expect(() => resolve({ AUTHSVC_LIMIT_SIGNIN_IP: "lots" })).toThrow(/AUTHSVC_LIMIT_SIGNIN_IP .*"lots": expected a budget such as 20\/1h/);
    expect(() => resolve({ AUTHSVC_LIMIT_SIGNIN_IP: "0/1h" })).toThrow(/expected a count from 1/);
    expect(() => resolve({ AUTHSVC_LIMIT_SIGNIN_IP: "5/500ms" })).toThrow(/expected a window from 1s to 30d/);
    expect(() => resolve({ AUTHSVC_LIMIT_SIGNIN_FREE_FAILURES: "20" })).toThrow(/--limit-signin-free-failures: 20: must be below the lock's count/);
  });

  it("trusted proxies: addresses and CIDRs, normalised; anything else is refused", () => {
    expect(resolve({ AUTHSVC_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1,::1, ::ffff:192.168.0.0/112" }).trustedProxies).toEqual(["10.0.0.0/8", "127.0.0.1/32", "::1/128", "192.168.0.0/16"]);
    expect(() => resolve({ AUTHSVC_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/"10\.0\.0\.0\/33" is not an IP address or CIDR/);
    expect(() => resolve({ AUTHSVC_TRUSTED_PROXIES: "proxy.internal" })).toThrow(/AUTHSVC_TRUSTED_PROXIES/);
  });
});
