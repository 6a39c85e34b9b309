import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { readBlocks } from "../helpers/readme-blocks.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** The switcher docs/organizations.md shows is the one test/browser/organizations-web-js.test.ts runs. */
it("docs/organizations.md shows examples/frontend/web-js-organizations.ts verbatim", () => {
  const blocks = readBlocks(join(ROOT, "docs/organizations.md"));
  expect(blocks.filter((b) => b.lang === "ts").map((b) => b.code)).toContain(readFileSync(join(ROOT, "examples/frontend/web-js-organizations.ts"), "utf8"));
});
