import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileKey, resolveConfig, settings } from "../../src/config.js";
import { runCli } from "../helpers/cli.js";

const secrets = {
  AUTHSVC_SECRET: "server-secret-0123456789-0123456789",
  AUTHSVC_SMTP_URL: "smtp://mailer:smtp-pass-123@smtp.example.com:587",
  AUTHSVC_PROVIDERS: JSON.stringify([{ thirdPartyId: "github", clientId: "gh-client", clientSecret: "gh-secret-456" }]),
};
const dbUrl = "postgres://app:db-pass-789@db.example.com:5432/auth?schema=auth";

describe("authsvc config", () => {
  const file = join(mkdtempSync(join(tmpdir(), "authsvc-cfg-")), "authsvc.json");
  writeFileSync(file, JSON.stringify({ websiteUrl: "https://app.example.com" }));

  it("prints every setting with its value and source, secrets masked", async () => {
    const r = await runCli(["config", "--config", file, "--database", dbUrl, "--port", "4000"], { env: secrets });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(`config file: ${file}`);
    for (const s of settings) expect(r.stdout).toMatch(new RegExp(`^${fileKey(s)} `, "m"));
    expect(r.stdout).toMatch(/^port +4000 {2}\[flag\]$/m);
    expect(r.stdout).toMatch(/^websiteUrl +https:\/\/app\.example\.com {2}\[file\]$/m);
    expect(r.stdout).toMatch(/^bcryptCost +4 {2}\[env AUTHSVC_BCRYPT_COST\]$/m);
    expect(r.stdout).toMatch(/^apiBasePath +\/auth {2}\[default\]$/m);
    expect(r.stdout).toMatch(/^database +postgres:\/\/app:\*\*\*\*@db\.example\.com:5432\/auth\?schema=auth {2}\[flag\]$/m);
    expect(r.stdout).toMatch(/^smtpUrl +smtp:\/\/mailer:\*\*\*\*@smtp\.example\.com:587/m);
    expect(r.stdout).toMatch(/^secret +\*{8} {2}\[env AUTHSVC_SECRET\]$/m);
    expect(r.stdout).toContain('"clientSecret":"********"');
    for (const secret of ["server-secret-0123456789", "smtp-pass-123", "db-pass-789", "gh-secret-456"]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it("--json gives the same, machine-readable", async () => {
    const r = await runCli(["config", "--json", "--database", dbUrl], { env: secrets });
    const out = JSON.parse(r.stdout);
    expect(out.configFile).toBeNull();
    expect(out.settings.find((s: { key: string }) => s.key === "secret")).toEqual({ key: "secret", env: "AUTHSVC_SECRET", value: "********", source: "env" });
    expect(out.settings.find((s: { key: string }) => s.key === "database").value).toBe("postgres://app:****@db.example.com:5432/auth?schema=auth");
    for (const secret of ["server-secret-0123456789", "smtp-pass-123", "db-pass-789", "gh-secret-456"]) expect(r.stdout).not.toContain(secret);
  });

  it("prints keys and values the config file accepts: its JSON output, pasted into a file, gives the same settings", async () => {
    const r = await runCli(["config", "--json", "--access-token-lifetime", "20m", "--port", "4000", "--trusted-proxies", "10.0.0.0/8"]);
    expect(r.code, r.stderr).toBe(0);
    const rows: Array<{ key: string; value: unknown }> = JSON.parse(r.stdout).settings;
    expect(rows.find((x) => x.key === "accessTokenLifetime")!.value).toBe("20m");
    expect(rows.map((x) => x.key)).not.toContain("accessTokenLifetimeMs");
    const pasted = Object.fromEntries(rows.filter((x) => x.value !== undefined).map((x) => [x.key, x.value]));
    const again = join(mkdtempSync(join(tmpdir(), "authsvc-cfg-")), "pasted.json");
    writeFileSync(again, JSON.stringify(pasted));
    const fromFile = resolveConfig({ env: {}, configFile: again }).config;
    const fromFlags = resolveConfig({ env: { AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error" }, flags: { accessTokenLifetime: "20m", port: "4000", trustedProxies: "10.0.0.0/8" } }).config;
    expect(fromFile).toEqual(fromFlags);
  });

  it("shows unset optional settings as (unset)", async () => {
    const r = await runCli(["config"]);
    expect(r.stdout).toMatch(/^secret +\(unset\) {2}\[default\]$/m);
  });

  it("a bad value is a configuration error (exit 2) naming the setting", async () => {
    const r = await runCli(["config", "--port", "http"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('authsvc: configuration error: invalid value for --port: "http": expected a whole number from 0 to 65535\n');
  });

  it("production mode without its required settings is a configuration error (exit 2)", async () => {
    const r = await runCli(["config", "--production"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/production mode needs --public-url \(AUTHSVC_PUBLIC_URL\), --smtp-url \(AUTHSVC_SMTP_URL\), AUTHSVC_SECRET/);
  });

  it("production refuses an http:// public URL and a localhost sender before any database is made (exit 2), and takes --allow-http-public-url", async () => {
    const env = { ...secrets, AUTHSVC_BCRYPT_COST: "10" };
    const never = join(mkdtempSync(join(tmpdir(), "authsvc-cfg-")), "never.db");
    const r = await runCli(["migrate", "--production", "--public-url", "http://auth.example.com", "--database", never], { env });
    expect(r.code).toBe(2);
    expect(existsSync(never)).toBe(false);
    expect(r.stderr).toMatch(/^authsvc: configuration error: production mode: the public URL http:\/\/auth\.example\.com is plain http: .*; and the default sender "authsvc <no-reply@localhost>" is not an address at a real domain/);
    const ok = await runCli(["config", "--production", "--public-url", "http://auth.example.com", "--allow-http-public-url", "--mail-from", "Shop <no-reply@shop.example>", "--website-url", "http://shop.example"], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^allowHttpPublicUrl +true {2}\[flag\]$/m);
  });

  it("production names every missing setting and problem in its first refusal (exit 2)", async () => {
    const r = await runCli(["config", "--production", "--public-url", "http://auth.example.com"], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^authsvc: configuration error: production mode needs --smtp-url \(AUTHSVC_SMTP_URL\), AUTHSVC_SECRET; and the public URL http:\/\/auth\.example\.com is plain http: .*; and the default sender /);
  });

  it("a mistyped AUTHSVC_ variable is a configuration error with the name it most likely meant (exit 2)", async () => {
    const r = await runCli(["config"], { env: { AUTHSVC_PORTT: "4000" } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("authsvc: configuration error: unknown environment variable AUTHSVC_PORTT; did you mean AUTHSVC_PORT?\n");
  });

  it("the secret cannot be given as a flag (it would show in the process list)", async () => {
    const r = await runCli(["config", "--secret", "x".repeat(40)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--secret'/);
  });
});
