import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileKey, settings } from "../../src/config.js";
import { spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";

/**
 * Booleans on the command line (issue 45): for every boolean setting, `--flag` alone is true,
 * `--flag false` / `--flag=false` and `--no-flag` are false, `--flag true` is true; `--help` shows
 * the kind of each value instead of `<value>`.
 */
const booleans = settings.filter((s) => s.flag && s.parse.kind === "true|false");

describe("boolean options", () => {
  it("finds the boolean settings (the OAuth provider's and the bot check's among them)", () => {
    expect(booleans.map((s) => s.flag)).toEqual(expect.arrayContaining(["oauth-dynamic-registration", "oauth-provider", "breached-passwords-at-sign-in", "rate-limits", "metrics"]));
  });

  it.each(booleans.map((s) => [s.flag!, fileKey(s)] as const))("--%s alone is true, with false or as --no- it is false", async (flag, key) => {
    const value = async (args: string[]) => {
      const r = await runCli(["config", ...args]);
      expect(r.code, r.stderr).toBe(0);
      return new RegExp(`^${key} +(\\S+) {2}\\[(\\w+)`, "m").exec(r.stdout)?.slice(1, 3);
    };
    expect(await value([`--${flag}`])).toEqual(["true", "flag"]);
    expect(await value([`--${flag}`, "true"])).toEqual(["true", "flag"]);
    expect(await value([`--${flag}`, "false"])).toEqual(["false", "flag"]);
    expect(await value([`--${flag}=false`])).toEqual(["false", "flag"]);
    expect(await value([`--no-${flag}`])).toEqual(["false", "flag"]);
    // A bare flag followed by another option leaves that option alone.
    expect(await value([`--${flag}`, "--port", "4001"])).toEqual(["true", "flag"]);
  });

  it("a word that is not a boolean is refused with the setting's name", async () => {
    const r = await runCli(["config", "--oauth-dynamic-registration", "maybe"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/oauthDynamicRegistration|oauth-dynamic-registration/);
    expect(r.stderr).toMatch(/expected true or false/);
  });

  it("--help shows each value's kind, never <value>", async () => {
    const r = await runCli(["serve", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("<value>");
    expect(r.stdout).toMatch(/--oauth-dynamic-registration \[true\|false\]/);
    expect(r.stdout).toMatch(/--no-oauth-dynamic-registration/);
    expect(r.stdout).toMatch(/--access-token-lifetime <duration>/);
    expect(r.stdout).toMatch(/--public-url <url>/);
    expect(r.stdout).toMatch(/--port <number>/);
    expect(r.stdout).toMatch(/--mode <development\|production>/);
  });
});

describe("the built CLI", () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => { while (stops.length) await stops.pop()!(); });

  it("`authsvc serve --oauth-dynamic-registration` (bare, as the docs write it) starts with registration on", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "authsvc-bool-")), "authsvc.db");
    const child = spawnBin(["serve", "--port", "0", "--mail-catcher-port", "0", "--database", db, "--oauth-dynamic-registration"], { env: { AUTHSVC_LOG_LEVEL: "info" } });
    stops.push(async () => { child.kill("SIGTERM"); await child.result; });
    const port = await new Promise<number>((resolve, reject) => {
      let seen = "";
      child.stderr!.on("data", (d) => {
        seen += d;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
        if (m) resolve(Number(m[1]));
      });
      child.on("close", (code) => reject(new Error(`serve exited (${code}) before listening:\n${seen}`)));
    });
    const meta = await (await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    expect(meta.registration_endpoint).toMatch(/\/oauth\/register$/);
  });
});
