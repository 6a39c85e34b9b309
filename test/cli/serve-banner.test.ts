import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { printBanner } from "../../src/cli/serve.js";
import { resolveConfig, testConfig, type Config } from "../../src/config.js";

/** The banner `serve` prints, for a bind address and mode (no socket: binding 0.0.0.0 in a test is off limits). */
function banner(host: string, mode: "development" | "production", config: Config = testConfig({ host, mode })): string {
  let text = "";
  printBanner({ out: () => {}, err: (t) => { text += t; }, stdin: new PassThrough(), env: {} }, config, 3567, undefined);
  return text;
}

describe("serve banner", () => {
  it.each(["127.0.0.1", "localhost", "::1"])("says loopback only when bound to %s in development", (host) => {
    const text = banner(host, "development");
    expect(text).toContain("development mode: loopback only");
    expect(text).not.toContain("DANGER");
  });

  it.each(["0.0.0.0", "::", "192.168.1.20"])("never says loopback only on %s, and warns loudly in development", (host) => {
    const text = banner(host, "development");
    expect(text).not.toContain("loopback only,");
    expect(text).toMatch(/DANGER: development mode is listening on \[?[0-9a-f.:]+\]?, which is NOT loopback only/);
    expect(text).toContain("anyone who can reach");
  });

  it("names the development budgets on loopback only, never in production", () => {
    const local = (host: string, mode: "development" | "production") => {
      let text = "";
      const { config } = resolveConfig({ env: mode === "production" ? { AUTHSVC_MODE: "production", AUTHSVC_HOST: host, AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_SMTP_URL: "smtps://relay.example.com", AUTHSVC_SECRET: "s".repeat(40), AUTHSVC_MAIL_FROM: "A <a@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com" } : { AUTHSVC_HOST: host } });
      printBanner({ out: () => {}, err: (t) => { text += t; }, stdin: new PassThrough(), env: {} }, config, 3567, undefined);
      return text;
    };
    expect(local("127.0.0.1", "development")).toContain("rate limits are development budgets on loopback (sign-ups 1000/1h, sign-ins 1000/15m per IP; mail 100/1h per address), so test loops do not trip them; production keeps the strict ones.");
    expect(local("0.0.0.0", "development")).not.toContain("development budgets");
    expect(local("127.0.0.1", "production")).not.toContain("development budgets");
  });

  it("says neither in production", () => {
    const text = banner("0.0.0.0", "production");
    expect(text).not.toMatch(/loopback only|DANGER/);
  });

  it("with no settings at all, names the sign-in page, the inbox and the next step, all on the public URL's host (where the mail links and cookies live)", () => {
    const text = banner("127.0.0.1", "development", resolveConfig({ env: {} }).config);
    expect(text).toContain("  sign-in:    http://localhost:3567/auth  ");
    expect(text).toContain("  inbox:      http://localhost:3567/_dev/mail  ");
    expect(text).toContain("  next:       sign up at http://localhost:3567/auth?show=signup, open the verification mail in the inbox, then sign in.");
  });

  it("with a website of its own, names no hosted sign-in page and no next step", () => {
    const text = banner("127.0.0.1", "development", resolveConfig({ env: { AUTHSVC_WEBSITE_URL: "http://localhost:3000" } }).config);
    expect(text).not.toMatch(/sign-in:|next:/);
    expect(text).toContain("  inbox:      http://localhost:3567/_dev/mail  ");
  });

  it("the README's first ten minutes give the addresses a first start's banner prints", () => {
    const { config } = resolveConfig({ env: {} });
    let text = "";
    printBanner({ out: () => {}, err: (t) => { text += t; }, stdin: new PassThrough(), env: {} }, config, config.port, { host: "127.0.0.1", port: 1025 });
    const signIn = /sign-in: +(\S+)/.exec(text)![1];
    const next = /next: +sign up at (\S+?),/.exec(text)![1];
    const step3 = /\*\*3\. Try the hosted pages\*\*[\s\S]*?\n\n/.exec(readFileSync(new URL("../../README.md", import.meta.url), "utf8"))![0];
    const addresses = [...step3.matchAll(/<(http[^>]+)>/g)].map((m) => m[1]);
    expect(addresses).toEqual([next, signIn]);
  });
});
