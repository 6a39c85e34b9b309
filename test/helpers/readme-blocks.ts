import { readFileSync } from "node:fs";

/** A fenced code block of a docs page: its file, language, first line number (the fence), code and skip reason. */
export interface ReadmeBlock {
  file: string; lang: string; line: number; code: string; skip?: string; heading: string; only?: "sqlite" | "postgres";
  /** Runs with the docs' server stopped (then started again): a walkthrough that says "stop authsvc" first. */
  serverStopped?: boolean;
}

const SKIP = /^<!--\s*docs-test:\s*skip\s*\((.+)\)\s*-->\s*$/;
// A block that only makes sense on one database (e.g. `authsvc backup`, which PostgreSQL refuses),
// and/or one that needs the server stopped ("sqlite only, server stopped (why)").
const ONLY = /^<!--\s*docs-test:\s*(?:(sqlite|postgres) only)?\s*,?\s*(server stopped)?\s*\((.+)\)\s*-->\s*$/;

/** Every fenced block of a Markdown file, in order, with the nearest heading above it. */
export function readBlocks(file: string): ReadmeBlock[] {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks: ReadmeBlock[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})\s*([\w-]*)\s*$/.exec(lines[i]);
    if (!open) {
      if (/^#{1,6} /.test(lines[i])) heading = lines[i].replace(/^#+ /, "");
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith(open[1]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`${file} line ${start + 1}: code fence is never closed`);
    const skip = start > 0 ? SKIP.exec(lines[start - 1])?.[1] : undefined;
    const marks = start > 0 ? ONLY.exec(lines[start - 1]) : null;
    const only = marks?.[1] as ReadmeBlock["only"];
    blocks.push({ file, lang: open[2], line: start + 1, code: body.join("\n") + "\n", skip, heading, only, serverStopped: marks?.[2] !== undefined });
  }
  return blocks;
}

/**
 * The outputs a shell block promises: comments (on their own line or after a command) whose text
 * starts with `{`. Each becomes a pattern in which `…` stands for anything.
 */
export function expectedOutputs(code: string): Array<{ text: string; pattern: RegExp }> {
  const out: Array<{ text: string; pattern: RegExp }> = [];
  for (const line of code.split("\n")) {
    const m = /(?:^|\s)#\s*(\{.*?)\s*$/.exec(line);
    if (!m) continue;
    const source = m[1].split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*?");
    out.push({ text: m[1], pattern: new RegExp(source) });
  }
  return out;
}
