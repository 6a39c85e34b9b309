import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The direction of imports (ARCHITECTURE.md): floors `cli -> app -> {http, methods, core, store,
 * mail, util}`, and sign-in methods as rooms that import the kernel and never each other; a room
 * reaches another through kernel interfaces filled from declarations (Room.accounts,
 * Room.memberships: kernel/offers.ts), never by importing it. Each rule lists the files that still
 * break it today; the list may only shrink.
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
/** A path's floor: its top folder; the files at the top (app.ts, rooms.ts, config.ts) are the composition root. */
const floor = (path: string) => path.includes("/") ? path.split("/")[0] : "root";
/** The unit a cycle is counted between: a sign-in method's room, or a top-level folder or file. */
const unit = (path: string) => room(path) !== undefined ? `methods/${room(path)}` : floor(path);

/**
 * Floors from the bottom up. An import may point down or stay on its floor, never up. The rooms
 * (sign-in methods and features) sit above the HTTP kernel and kernel/ (the Room declaration, what
 * a room may declare, and the assembly of the rooms' tables), the dashboard and operations above the
 * rooms, the composition root (app.ts, rooms.ts, and config.ts, the settings table assembled
 * from the rooms) above everything but the CLI.
 */
const FLOORS: Record<string, number> = {
  util: 0, native: 0, words: 1, config: 1, store: 2, mail: 3, core: 4, http: 5, kernel: 6,
  methods: 7, account: 7, roles: 7, metadata: 7, organizations: 7, sso: 7, webhooks: 7, "oauth-provider": 7, protection: 7, bans: 7, audit: 7, "security-mails": 7, "support-sessions": 7,
  dashboard: 8, ops: 8, "move-in": 8, cdi: 8, root: 9, cli: 10,
};
const isRoom = (path: string) => FLOORS[floor(path)] === 7;
/** The floor-8 folders that consume the rooms' work (the dashboard, operations, move-in, the SuperTokens CDI). */
const CONSUMERS = ["cdi", "dashboard", "ops", "move-in"];
/**
 * The one ordered list of migrations (store/migrations/index.ts) reads the rooms' migrations, which
 * import only kysely (checked below): leaves, so neither an upward arrow nor a cycle.
 */
const readsRoomMigration = (from: string, to: string) => from === "store/migrations/index.ts" && /^[\w/-]+\/migrations\/\d{3}-[\w-]+\.ts$/.test(to) && !to.startsWith("store/");

interface Rule { name: string; breaks(from: string, to: string): boolean; allowed: string[] }

const rules: Rule[] = [
  { name: "util imports nothing of the project", breaks: (f, t) => floor(f) === "util" && floor(t) !== "util", allowed: [] },
  { name: "store knows no rules, HTTP or commands", breaks: (f, t) => floor(f) === "store" && ["core", "http", "cli", "root"].includes(floor(t)), allowed: [] },
  {
    name: "the kernel (core, store, mail) does not reach into a sign-in method",
    breaks: (f, t) => ["core", "store", "mail"].includes(floor(f)) && floor(t) === "methods" && !readsRoomMigration(f, t),
    allowed: [],
  },
  {
    name: "a sign-in method never imports another",
    breaks: (f, t) => room(f) !== undefined && room(t) !== undefined && room(f) !== room(t),
    allowed: [],
  },
  {
    // Rooms reach a sign-in method's accounts through the context (Room.accounts, core/account-operations.ts).
    name: "a room or a floor-8 consumer (cdi, dashboard, ops, move-in) never imports a sign-in method",
    breaks: (f, t) => (isRoom(f) || CONSUMERS.includes(floor(f))) && room(t) !== undefined && unit(f) !== unit(t),
    allowed: [],
  },
  {
    // Rooms reach each other through kernel interfaces filled from declarations (Room.accounts, Room.memberships).
    name: "a room never imports another room",
    breaks: (f, t) => isRoom(f) && isRoom(t) && unit(f) !== unit(t),
    // Organizations still read the rules of app-wide roles (roles/store.ts) and of metadata (metadata/metadata.ts). The list may only shrink.
    allowed: ["organizations/org-roles.ts", "organizations/organizations.ts"],
  },
  {
    name: "imports never point up a floor (type-only imports included)",
    breaks: (f, t) => FLOORS[floor(t)] > FLOORS[floor(f)] && !readsRoomMigration(f, t),
    allowed: [],
  },
  {
    name: "http/, kernel/ and the settings import no room (the composition root hands them the rooms' tables)",
    breaks: (f, t) => ["http", "kernel", "config"].includes(floor(f)) && isRoom(t),
    allowed: [],
  },
  { name: "core and methods' rules know no HTTP or commands", breaks: (f, t) => (floor(f) === "core" || (room(f) !== undefined && !f.includes("/handlers/") && !f.endsWith("/routes.ts") && !f.endsWith("/openapi.ts") && !f.endsWith("/room.ts") && !f.endsWith("/admin.ts") && !f.endsWith("/pages.ts"))) && ["http", "cli"].includes(floor(t)), allowed: [] },
  { name: "nothing but the CLI imports the CLI", breaks: (f, t) => floor(f) !== "cli" && floor(t) === "cli", allowed: [] },
];

describe("import direction", () => {
  const imports = readImports();
  it.each(rules)("$name", (rule) => {
    const offenders = [...imports].filter(([from, targets]) => targets.some((to) => rule.breaks(from, to))).map(([from]) => from).sort();
    expect(offenders).toEqual([...rule.allowed].sort());
  });

  it("a room's migrations import nothing of the project (they are leaves of the ordered list)", () => {
    const roomMigrations = [...imports.keys()].filter((f) => readsRoomMigration("store/migrations/index.ts", f));
    expect(roomMigrations.length).toBeGreaterThan(0);
    expect(roomMigrations.filter((f) => imports.get(f)!.length > 0)).toEqual([]);
  });

  it("every folder is on a floor", () => {
    expect([...new Set([...imports.keys()].map(floor))].filter((f) => FLOORS[f] === undefined)).toEqual([]);
  });

  it("has no cycles between rooms and floors (type-only imports included)", () => {
    expect(findCycles(imports).map((c) => c.join(" ")).sort()).toEqual([...allowedCycles].sort());
  });

  it("sees the rooms and the kernel (the scan is not empty)", () => {
    expect(imports.get("methods/third-party/sign-in-up.ts")).toContain("core/users.ts");
    expect(imports.get("rooms.ts")).toContain("methods/email-password/room.ts");
  });
});

/**
 * Who may call a route is the route table's (http/route.ts) and the kernel applies it (http/guard.ts):
 * no handler, room or other kernel file calls the session guard by hand, nor verifies an access
 * token itself to let a request in (the OAuth provider's interaction reads its own cookie session:
 * the one exception, listed).
 */
describe("the route table guards, the kernel applies it", () => {
  const files = listFiles(src).map((f) => relative(src, f));
  const calling = (pattern: RegExp) => files.filter((f) => pattern.test(readFileSync(join(src, f), "utf8"))).sort();

  it("only http/guard.ts calls the session guard (requireSession, optionalSession)", () => {
    expect(calling(/\b(requireSession|optionalSession)\s*\(/).filter((f) => f !== "http/session-guard.ts")).toEqual(["http/guard.ts"]);
  });

  it("only the session guard and the OAuth provider's interaction verify an access token to let a request in", () => {
    expect(calling(/\bverifyAccessTokenCached\s*\(/).filter((f) => !f.startsWith("core/"))).toEqual(["http/session-guard.ts", "oauth-provider/signed-in.ts"]);
  });

  it("a handler reads its session from the guard (sessionOf), never from the session guard's module", () => {
    const offenders = files.filter((f) => /\/(handlers|routes|guard)\b/.test(f) || !f.startsWith("http/"))
      .filter((f) => f !== "http/guard.ts" && /import\s*\{[^}]*\b(requireSession|optionalSession)\b[^}]*\}\s*from/.test(readFileSync(join(src, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});

/**
 * The strongly connected groups of units (Tarjan): each is a cycle of imports between rooms or
 * floors. Listed here while they remain; the list may only shrink.
 */
const allowedCycles: string[] = [];

function findCycles(imports: Map<string, string[]>): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of imports) {
    for (const to of targets) {
      if (unit(from) === unit(to) || readsRoomMigration(from, to)) continue;
      if (!edges.has(unit(from))) edges.set(unit(from), new Set());
      edges.get(unit(from))!.add(unit(to));
    }
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next++); stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return groups;
}

/**
 * Words (issue 48): every sentence a person reads on a hosted page's script or in a mail comes from
 * the catalogues (src/words/, each room's words/), never from a literal in the code. A literal that
 * reads like a sentence (a capitalised word, then more words) is one; the SDKs' wire messages a
 * script compares against are not. The files below still hold their own English: the list may only shrink.
 */
describe("words come from the catalogues", () => {
  const wire = new Set(["Field is not optional", "Email is invalid"]);
  // Every page script and mail template takes its words from the catalogues; none is left to list.
  const stillEnglish = new Set<string>([]);
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const scanned = walk(src).map((f) => relative(src, f).split("\\").join("/"))
    .filter((f) => !f.startsWith("cli/") && (/\/pages\/[\w-]+\.js$/.test(f) || /^http\/pages\/assets\/[\w-]+\.js$/.test(f) || /(^|\/)mail\.ts$/.test(f) || /^mail\/(kernel-mail|account-templates|html-layout)\.ts$/.test(f)));
  const sentences = (file: string): string[] => {
    const code = readFileSync(join(src, file), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/label: "[^"]*"/g, "");
    return [...code.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)].map((m) => m[2])
      .filter((s) => !wire.has(s) && /(^|[>\s])[A-Z][a-z]+,?\s+[a-z]+/.test(s.replace(/\$\{[^}]*\}/g, "")));
  };

  it("page scripts and mail templates hold no sentence of their own", () => {
    expect(scanned.length).toBeGreaterThan(30);
    const offenders = scanned.filter((f) => !stillEnglish.has(f) && sentences(f).length > 0).map((f) => `${f}: ${sentences(f)[0]}`);
    expect(offenders).toEqual([]);
  });

  it("the list of files that still hold English only shrinks (a file made clean leaves it)", () => {
    expect([...stillEnglish].filter((f) => !scanned.includes(f) || sentences(f).length === 0)).toEqual([]);
  });
});
