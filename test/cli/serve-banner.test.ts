import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { printBanner } from "../../src/cli/serve.js";
import { testConfig } from "../../src/config.js";

/** The banner `serve` prints, for a bind address and mode (no socket: binding 0.0.0.0 in a test is off limits). */
function banner(host: string, mode: "development" | "production"): string {
  let text = "";
  printBanner({ out: () => {}, err: (t) => { text += t; }, stdin: new PassThrough(), env: {} }, testConfig({ host, mode }), 3567, undefined);
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

  it("says neither in production", () => {
    const text = banner("0.0.0.0", "production");
    expect(text).not.toMatch(/loopback only|DANGER/);
  });
});
