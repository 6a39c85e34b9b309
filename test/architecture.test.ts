import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The direction of imports (ARCHITECTURE.md): floors `cli -> app -> {http, methods, core, store,
 * mail, util}`, and sign-in methods as rooms that import the kernel and never each other. Each
 * rule lists the files that still break it today; the list may only shrink.
 */
const root = resolve(import.meta.dirname, "..");
const src = join(root, "src");

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []);
}

/** Every project file each file imports, as paths under src/ ("core/users.ts"). */
function readImports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of listFiles(src)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)]
      .map((m) => relative(src, resolve(dirname(file), m[1])).replace(/\.js$/, ".ts"));
    out.set(relative(src, file), targets);
  }
  return out;
}

const room = (path: string) => path.startsWith("methods/") ? path.split("/")[1] : undefined;
const floor = (path: string) => path.includes("/") ? path.split("/")[0] : path.replace(/\.ts$/, "");

interface Rule { name: string; breaks(from: string, to: string): boolean; allowed: string[] }

const rules: Rule[] = [
  { name: "util imports nothing of the project", breaks: (f, t) => floor(f) === "util" && floor(t) !== "util", allowed: [] },
  { name: "store knows no rules, HTTP or commands", breaks: (f, t) => floor(f) === "store" && ["core", "http", "cli", "app", "config"].includes(floor(t)), allowed: [] },
  {
    name: "the kernel (core, store, mail) does not reach into a sign-in method",
    breaks: (f, t) => ["core", "store", "mail"].includes(floor(f)) && floor(t) === "methods",
    // Each reads one method's table or registry; the next step gives methods a loginMethods hook.
    allowed: ["core/users.ts", "store/user-pages.ts", "store/user-import.ts"],
  },
  {
    name: "a sign-in method never imports another",
    breaks: (f, t) => room(f) !== undefined && room(t) !== undefined && room(f) !== room(t),
    // The reset request tells a third-party-only address which provider to use.
    allowed: ["methods/email-password/password-reset.ts"],
  },
  { name: "core and methods' rules know no HTTP or commands", breaks: (f, t) => (floor(f) === "core" || (room(f) !== undefined && !f.includes("/handlers/") && !f.endsWith("/routes.ts") && !f.endsWith("/openapi.ts"))) && ["http", "cli"].includes(floor(t)), allowed: [] },
  { name: "nothing but the CLI imports the CLI", breaks: (f, t) => floor(f) !== "cli" && floor(t) === "cli", allowed: [] },
];

describe("import direction", () => {
  const imports = readImports();
  it.each(rules)("$name", (rule) => {
    const offenders = [...imports].filter(([from, targets]) => targets.some((to) => rule.breaks(from, to))).map(([from]) => from).sort();
    expect(offenders).toEqual([...rule.allowed].sort());
  });

  it("sees the rooms and the kernel (the scan is not empty)", () => {
    expect(imports.get("methods/third-party/sign-in-up.ts")).toContain("core/users.ts");
    expect(imports.get("http/routes.ts")).toContain("methods/email-password/routes.ts");
  });
});
