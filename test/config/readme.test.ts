import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fileKey, settings } from "../../src/config.js";
// @ts-expect-error: a plain .mjs script without type declarations
import { currentTable, renderSettingsTable } from "../../scripts/config-doc.mjs";

/** The configuration and CLI references in docs/. */
const configPage = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
const cliPage = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");

describe("docs", () => {
  it("documents every setting: flag, environment variable and config-file key", () => {
    const table: string = currentTable(configPage) ?? "";
    for (const s of settings) {
      const row = table.split("\n").find((line) => line.includes(`\`${s.env}\``));
      expect(row, `docs/configuration.md has no row for ${s.env}`).toBeDefined();
      expect(row).toContain(`\`${fileKey(s)}\``);
      if (s.flag) expect(row).toContain(`\`--${s.flag}\``);
    }
  });

  it("has the settings table exactly as scripts/config-doc.mjs generates it (run it with --write)", async () => {
    expect(currentTable(configPage)).toBe(await renderSettingsTable());
  });

  it("documents every CLI command and the exit codes", () => {
    for (const c of ["serve", "migrate", "create-user", "reset-password", "users list", "users show", "users verify", "users delete", "config", "tail-mail"]) {
      expect(cliPage).toContain(`\`${c}`);
    }
    expect(cliPage).toMatch(/\*\*Exit codes\*\*: `0`.*`1`.*`2`/s);
    expect(cliPage).toContain("--password-stdin");
  });
});
