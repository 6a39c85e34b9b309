import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { settings } from "../../src/config.js";
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
    for (const s of settings) expect(r.stdout).toMatch(new RegExp(`^${s.key} `, "m"));
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

  it("the secret cannot be given as a flag (it would show in the process list)", async () => {
    const r = await runCli(["config", "--secret", "x".repeat(40)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--secret'/);
  });
});
