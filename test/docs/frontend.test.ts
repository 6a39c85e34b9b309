import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { settings } from "../../src/config.js";
import { readBlocks } from "../helpers/readme-blocks.js";

/**
 * docs/frontend.md against what the browser suite tests: its code is the example apps verbatim
 * (test/browser bundles and drives those files), the versions it names are the ones installed,
 * and every flag it names exists.
 */
const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = join(ROOT, "docs/frontend.md");
const page = readFileSync(PAGE, "utf8");
const blocks = readBlocks(PAGE);
const require = createRequire(import.meta.url);
const installed = (pkg: string): string => (require(`${pkg}/package.json`) as { version: string }).version;

describe("docs/frontend.md", () => {
  it.each([
    ["tsx", "examples/frontend/prebuilt-ui.tsx"],
    ["ts", "examples/frontend/web-js.ts"],
  ])("shows %s code %s verbatim", (lang, file) => {
    expect(blocks.filter((b) => b.lang === lang).map((b) => b.code)).toContain(readFileSync(join(ROOT, file), "utf8"));
  });

  it("says the whole-app example's third-party button needs a provider in authsvc, and how to do without one", () => {
    const app = blocks.find((b) => b.lang === "tsx")!.code;
    const at = app.split("\n").findIndex((l) => /^\s*ThirdParty\.init\(/.test(l));
    const comment = app.split("\n").slice(at - 2, at).join("\n");
    expect(comment).toMatch(/"providers" setting/);
    expect(comment).toMatch(/leave out this line and ThirdPartyPreBuiltUI/);
    expect(page).toMatch(/button needs a provider configured in authsvc/);
    expect(settings.some((s) => s.key === "providers")).toBe(true);
  });

  it("names the SDK versions the browser suite runs, in its text and its install lines", () => {
    for (const pkg of ["supertokens-auth-react", "supertokens-web-js", "supertokens-website", "react", "esbuild"]) {
      expect(page, pkg).toContain(`${pkg === "react" ? "React" : pkg} ${installed(pkg)}`);
    }
    const pinned = blocks.filter((b) => b.lang === "sh").flatMap((b) => [...b.code.matchAll(/\b(supertokens-[\w-]+)@~([\d.]+)/g)]);
    expect(pinned.length).toBeGreaterThan(0);
    for (const [, pkg, version] of pinned) expect(version, pkg).toBe(installed(pkg));
  });

  it("names only flags authsvc has", () => {
    const flags = new Set(settings.map((s) => s.flag).filter(Boolean).map((f) => `--${f}`));
    const named = [...new Set(page.match(/(?<![\w-])--[a-z][a-z-]+/g))].filter((f) => !["--bundle", "--format", "--jsx", "--define", "--outfile"].includes(f));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((f) => !flags.has(f))).toEqual([]);
  });

  it("says why for each shell block the docs test does not run (none of them can run there)", () => {
    for (const b of blocks.filter((x) => x.lang === "sh")) expect(b.skip, `docs/frontend.md line ${b.line}`).toBeTruthy();
  });
});
