import { describe, expect, it } from "vitest";
import { ConfigError, describeConfig, resolveConfig } from "../../src/config.js";

const SECRET = "lazy-migration-shared-secret-0123456789";
const production = {
  AUTHSVC_MODE: "production",
  AUTHSVC_PUBLIC_URL: "https://auth.example.com",
  AUTHSVC_SMTP_URL: "smtps://mailer:hunter2pass@smtp.example.com:465",
  AUTHSVC_SECRET: "s3cr3t-value-that-is-long-enough-0123456789",
  AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>",
  AUTHSVC_WEBSITE_URL: "https://app.example.com",
};

function configError(env: Record<string, string>): string {
  try {
    resolveConfig({ env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("lazy migration settings", () => {
  it("is off by default, with a timeout of 5 s", () => {
    const { config } = resolveConfig({ env: {} });
    expect(config.lazyMigrationUrl).toBeUndefined();
    expect(config.lazyMigrationTimeoutMs).toBe(5000);
  });

  it("takes an https endpoint with its secret, in production too, and never shows the secret", () => {
    const r = resolveConfig({ env: { ...production, AUTHSVC_LAZY_MIGRATION_URL: "https://old.example.com/check", AUTHSVC_LAZY_MIGRATION_SECRET: SECRET, AUTHSVC_LAZY_MIGRATION_TIMEOUT: "2s" } });
    expect(r.config).toMatchObject({ lazyMigrationUrl: "https://old.example.com/check", lazyMigrationSecret: SECRET, lazyMigrationTimeoutMs: 2000 });
    expect(JSON.stringify(describeConfig(r))).not.toContain(SECRET);
  });

  it("takes plain http to this machine only, and only in development mode", () => {
    for (const url of ["http://127.0.0.1:4000/check", "http://localhost:4000/check", "http://[::1]:4000/check"]) {
      expect(resolveConfig({ env: { AUTHSVC_LAZY_MIGRATION_URL: url, AUTHSVC_LAZY_MIGRATION_SECRET: SECRET } }).config.lazyMigrationUrl).toBe(url);
    }
    expect(configError({ AUTHSVC_LAZY_MIGRATION_URL: "http://old.example.com/check", AUTHSVC_LAZY_MIGRATION_SECRET: SECRET })).toMatch(/AUTHSVC_LAZY_MIGRATION_URL.*expected an https URL/);
    expect(configError({ ...production, AUTHSVC_LAZY_MIGRATION_URL: "http://127.0.0.1:4000/check", AUTHSVC_LAZY_MIGRATION_SECRET: SECRET })).toMatch(/production mode needs https/);
  });

  it("refuses an endpoint without a shared secret, a short secret, and credentials in the URL", () => {
    expect(configError({ AUTHSVC_LAZY_MIGRATION_URL: "https://old.example.com/check" })).toMatch(/needs AUTHSVC_LAZY_MIGRATION_SECRET/);
    expect(configError({ AUTHSVC_LAZY_MIGRATION_URL: "https://old.example.com/check", AUTHSVC_LAZY_MIGRATION_SECRET: "short" })).toMatch(/at least 32 characters/);
    expect(configError({ AUTHSVC_LAZY_MIGRATION_URL: "https://user:pw@old.example.com/check", AUTHSVC_LAZY_MIGRATION_SECRET: SECRET })).toMatch(/no credentials in the URL/);
  });
});
