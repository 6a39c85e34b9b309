import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { createProgram } from "../../src/cli/program.js";
import { settings } from "../../src/config.js";
import { runCli } from "../helpers/cli.js";

const HEADINGS = ["Options:", "Server:", "Database:", "Mail:", "Sessions:", "Sign-in methods:", "Accounts and metadata:", "Hosted pages:", "Limits:", "Protection:", "Webhooks:", "Operations:"];

/** Every command path the program has (`users list`, `keys rotate`, …). */
function commandPaths(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((sub) => [[...path, sub.name()], ...commandPaths(sub, [...path, sub.name()])]);
}

describe("help layout", () => {
  it("serve --help lists its settings under headings, in order, each option exactly once", async () => {
    const r = await runCli(["serve", "--help"]);
    expect(r.code).toBe(0);
    const headings = r.stdout.split("\n").filter((l) => /^\S.*:$/.test(l) && !l.startsWith("Usage"));
    expect(headings).toEqual(HEADINGS);
    const section = (h: string) => r.stdout.split(`\n${h}\n`)[1].split("\n\n")[0];
    expect(section("Mail:")).toContain("--smtp-url <smtp-url>");
    expect(section("Sessions:")).toContain("--refresh-token-lifetime <duration>");
    expect(section("Limits:")).toContain("--limit-signin-ip <limit>");
    expect(section("Protection:")).toContain("--captcha <off|pow|turnstile|hcaptcha>");
    expect(section("Options:")).toContain("--no-migrate");
    const flags = settings.filter((s) => s.flag).map((s) => `--${s.flag}`);
    for (const flag of [...flags, "--config", "--production", "--no-migrate", "--help"]) {
      expect(r.stdout.match(new RegExp(`^  (?:-\\w, )?${flag}(?=[ ,]|$)`, "gm")), flag).toHaveLength(1);
    }
  });

  it("every command's help wraps at the same width (100 columns), however wide the terminal", async () => {
    const paths = commandPaths(createProgram({ out() {}, err() {}, env: {}, stdin: process.stdin }));
    expect(paths.length).toBeGreaterThan(20);
    for (const path of [[], ...paths]) {
      const r = await runCli([...path, "--help"]);
      expect(r.code, path.join(" ")).toBe(0);
      const longest = Math.max(...r.stdout.split("\n").map((l) => l.length));
      expect(longest, `authsvc ${path.join(" ")} --help`).toBeLessThanOrEqual(100);
    }
    // Descriptions wrap beside the option column instead of running on (commander gives up when
    // the terminal is narrow for the option names; a fixed width keeps serve's help readable).
    expect((await runCli(["serve", "--help"])).stdout).toMatch(/^ {54}\S/m);
  });
});
