import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { readBlocks } from "../helpers/readme-blocks.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** The MCP server example the docs show is the file test/browser/mcp-client.test.ts runs against authsvc. */
it("docs/oauth-provider.md shows examples/mcp-server/server.mjs verbatim", () => {
  const blocks = readBlocks(join(ROOT, "docs/oauth-provider.md"));
  expect(blocks.filter((b) => b.lang === "js").map((b) => b.code)).toContain(readFileSync(join(ROOT, "examples/mcp-server/server.mjs"), "utf8"));
});
