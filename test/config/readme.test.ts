import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fileKey, settings } from "../../src/config.js";
// @ts-expect-error: a plain .mjs script without type declarations
import { currentTable, renderSettingsTable } from "../../scripts/config-doc.mjs";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("README", () => {
  it("documents every setting: flag, environment variable and config-file key", () => {
    const table: string = currentTable(readme) ?? "";
    for (const s of settings) {
      const row = table.split("\n").find((line) => line.includes(`\`${s.env}\``));
      expect(row, `README has no row for ${s.env}`).toBeDefined();
      expect(row).toContain(`\`${fileKey(s)}\``);
      if (s.flag) expect(row).toContain(`\`--${s.flag}\``);
    }
  });

  it("has the settings table exactly as scripts/config-doc.mjs generates it (run it with --write)", async () => {
    expect(currentTable(readme)).toBe(await renderSettingsTable());
  });

  it("documents every CLI command and the exit codes", () => {
    for (const c of ["serve", "migrate", "create-user", "reset-password", "users list", "users show", "users verify", "users delete", "config", "tail-mail"]) {
      expect(readme).toContain(`\`${c}`);
    }
    expect(readme).toMatch(/\*\*Exit codes\*\*: `0`.*`1`.*`2`/s);
    expect(readme).toContain("--password-stdin");
  });
});
