import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { listDocFiles, ROOT } from "../helpers/doc-files.js";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function listAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of stripFences(markdown)) {
    const m = /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const slug = m[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

/** The lines outside fenced code blocks (a `# comment` in a shell block is no heading, a link there no link). */
function stripFences(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const open = /^(`{3,})/.exec(line)?.[1];
    if (!fence && open) fence = open;
    else if (fence && line.startsWith(fence)) fence = undefined;
    else if (!fence) out.push(line);
  }
  return out;
}

const files = listDocFiles();

describe.each(files)("%s", (file) => {
  const text = readFileSync(join(ROOT, file), "utf8");

  it("has no relative link or image that leads nowhere", () => {
    const broken: string[] = [];
    for (const line of stripFences(text)) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [path, anchor] = target.split("#");
        const abs = path ? join(ROOT, dirname(file), path) : join(ROOT, file);
        if (!existsSync(abs)) { broken.push(`${target}: no file ${relative(ROOT, abs)}`); continue; }
        if (anchor && abs.endsWith(".md") && !listAnchors(readFileSync(abs, "utf8")).has(anchor)) {
          broken.push(`${target}: no heading #${anchor} in ${relative(ROOT, abs)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("cites nothing a user cannot see (internal notes, seed or issue numbers)", () => {
    expect(text).not.toMatch(/PROTOCOL\.md|\bseed #|\bissue #?\d+|\bwhat the issue\b|\bthe issue (set out|asks|quotes)\b/i);
    expect(text).not.toMatch(/\bPROTOCOL\b/);
  });
});

it("README is short enough to read in five minutes, starts with the two commands and links every docs page", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  expect(readme.split("\n").length).toBeLessThan(250);
  // The two commands a newcomer types first: run it, test it.
  expect(readme).toMatch(/^npm ci && npx authsvc serve /m);
  expect(readme).toMatch(/^npm ci && npm test /m);
  for (const page of files.filter((f) => f.startsWith("docs/") && f !== "docs/README.md")) {
    expect(readFileSync(join(ROOT, "docs/README.md"), "utf8"), `docs/README.md should link ${page}`).toContain(`](${page.slice(5)})`);
  }
});
