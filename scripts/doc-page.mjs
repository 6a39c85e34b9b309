// What the generated docs pages (scripts/cli-doc.mjs, scripts/api-doc.mjs) share.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Text safe inside a Markdown table cell. */
export function tableCell(text) {
  return text.replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/\n/g, " ");
}

/** Run as a script: print the page, or with --write replace `file` with it. */
export async function runPageScript(metaUrl, file, render) {
  if (process.argv[1] !== fileURLToPath(metaUrl)) return;
  const page = await render();
  if (process.argv.includes("--write")) writeFileSync(file, page);
  else process.stdout.write(page);
}
