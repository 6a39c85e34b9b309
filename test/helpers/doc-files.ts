import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The repository's root folder. */
export const ROOT = join(import.meta.dirname, "../..");

/**
 * The order in which the docs' shell blocks run (variables carry from one page to the next, as a
 * reader who follows the README and then the pages would have them). A page in docs/ that is not
 * listed runs after these, in name order, so a new page is tested without touching this list.
 */
const ORDER = [
  "README.md", "docs/README.md", "docs/install.md", "docs/configuration.md", "docs/cli.md", "docs/cli-reference.md", "docs/api.md", "docs/api-reference.md",
  "docs/frontend.md", "docs/backend-sessions.md", "docs/pages.md", "docs/security.md", "docs/operations.md", "docs/production.md",
  "docs/architecture.md", "docs/performance.md", "docs/development.md",
];

/** The README and every Markdown page in docs/, as paths relative to the root, in running order. */
export function listDocFiles(): string[] {
  const pages = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`).sort();
  const rank = (f: string) => (ORDER.includes(f) ? ORDER.indexOf(f) : ORDER.length);
  return ["README.md", ...pages].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
