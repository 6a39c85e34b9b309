import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One convention for the command across the docs: every snippet writes `authsvc …` (the command on
 * PATH), and each page that has one says so, in the same words, beside its first snippet, pointing
 * to the place that explains it for a checkout or an npm install (cli.md#running-the-commands).
 */
const ROOT = resolve(import.meta.dirname, "../..");
export const CONVENTION = "`authsvc` is the command on your PATH; in a checkout, `./bin/authsvc` ([Running the commands](cli.md#running-the-commands)).";
const SHELL = new Set(["sh", "bash", "shell", "console", "text", ""]);
/**
 * A line that runs authsvc: `authsvc <command>` at the start, after a pipe, `$(`, `sudo` or
 * `VAR=value`, bare or by a path to a bin/ folder (`./bin/authsvc`, `/usr/local/bin/authsvc`).
 */
const RUNS = /(?:^|[\s;&|(])((?:\.{0,2}\/)?(?:[\w.-]+\/)*bin\/)?authsvc\s+[a-z][a-z-]*(?=\s|$|\))/;

interface Snippet { fence: number; line: number; prefix: string }

/** The lines of a page's shell blocks that run authsvc (comments after `#` left out). */
function snippets(text: string): Snippet[] {
  const out: Snippet[] = [];
  let lang: string | undefined;
  let fence = 0;
  text.split("\n").forEach((line, i) => {
    const open = /^\s*```(\S*)/.exec(line);
    if (open) {
      if (lang === undefined) { lang = open[1]; fence = i; } else lang = undefined;
      return;
    }
    if (lang === undefined || !SHELL.has(lang)) return;
    const m = RUNS.exec(line.replace(/\s#\s.*$/, ""));
    if (m) out.push({ fence, line: i, prefix: m[1] ?? "" });
  });
  return out;
}

const pages = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => ({ name: `docs/${f}`, text: readFileSync(join(ROOT, "docs", f), "utf8") }));
const withSnippets = pages.filter((p) => snippets(p.text).length > 0);

describe("the docs' convention for the command", () => {
  it("finds the pages that run authsvc", () => {
    expect(withSnippets.map((p) => p.name)).toEqual(expect.arrayContaining(["docs/cli.md", "docs/operations.md", "docs/webhooks.md", "docs/install.md"]));
  });

  it.each(withSnippets.map((p) => [p.name, p] as const))("%s states the convention just before its first authsvc snippet", (_name, page) => {
    const lines = page.text.split("\n");
    const fence = snippets(page.text)[0].fence;
    const at = lines.indexOf(CONVENTION);
    expect(at, `${page.name} should carry the line:\n${CONVENTION}`).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(fence);
    // Beside the snippet: only a blank line or the docs-test marker between them.
    expect(lines.slice(at + 1, fence).every((l) => l === "" || l.startsWith("<!-- docs-test"))).toBe(true);
    expect(lines.filter((l) => l === CONVENTION)).toHaveLength(1);
  });

  it.each(withSnippets.map((p) => [p.name, p] as const))("%s writes every command as plain `authsvc`", (_name, page) => {
    const lines = page.text.split("\n");
    const other = snippets(page.text).filter((s) => s.prefix !== "").map((s) => `${page.name}:${s.line + 1}: ${lines[s.line]}`);
    expect(other).toEqual([]);
  });

  it("the README keeps the checkout's form, pointing to the same place", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(`./bin/authsvc` is this checkout's command; from elsewhere see [Running the commands](docs/cli.md#running-the-commands))");
  });
});
