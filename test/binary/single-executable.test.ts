import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { postWithSession, signUp } from "../helpers/session-client.js";
import { buildAndInstall, ROOT, type Installed } from "./executable.js";

let bin: Installed;
beforeAll(() => { bin = buildAndInstall(); });
afterAll(() => { bin?.remove(); });

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
/** The extraction cache of this HOME: one directory per version, holding the addons. */
function extracted(): { dir: string; files: string[] } {
  const root = join(bin.home, ".cache", "authsvc");
  const versions = readdirSync(root);
  expect(versions).toHaveLength(1);
  const dir = join(root, versions[0]);
  return { dir, files: readdirSync(dir).sort() };
}

describe("the single executable, alone in a directory, with no node on PATH", () => {
  it("--version names the version and the commit it was built from", async () => {
    const r = await bin.run(["--version"]);
    const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(`authsvc ${version} (commit ${commit}, single executable, Node.js ${process.version})\n`);
  });

  it("serve --workers 2: sign-up over HTTP, the verification mail caught, tail-mail --wait prints its token, verified; users create beside it; SIGTERM exits 0", async () => {
    // Mail templates from a folder and a third-party provider, from the environment as in production.
    const templates = join(bin.home, "templates");
    mkdirSync(templates);
    writeFileSync(join(templates, "email-verification.subject.txt"), "Please confirm {{email}}\n");
    // Two HTTP workers: node:cluster re-runs the executable itself for each (cli/serve-cluster.ts).
    const server = bin.start(["serve", "--workers", "2", "--port", "0", "--mail-catcher-port", "0", "--database", "authsvc.db", "--mail-templates-dir", templates], {
      env: { AUTHSVC_PROVIDERS: JSON.stringify([{ thirdPartyId: "github", clientId: "gh-client-id", clientSecret: "gh-secret" }]) },
    });
    try {
      const [, port] = await server.stderrMatches(/authsvc listening on http:\/\/127\.0\.0\.1:(\d+)/);
      const base = `http://127.0.0.1:${port}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: "ok" });
      await server.stderrMatches(/workers: +2 HTTP worker processes/);
      // The banner's hint names the command as it was launched: this executable, by its own path
      // (it is not on PATH; the runs start in its directory), never a bare `authsvc` or `npx`.
      const [, hint] = await server.stderrMatches(/read it with `([^`]*) tail-mail`/);
      expect(hint).toBe(`.${sep}${relative(bin.dir, bin.exe)}`);
      expect(resolve(bin.dir, hint)).toBe(bin.exe);
      const workers = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, "utf8").trim().split(/\s+/);
      expect(workers.map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0])).toEqual([bin.exe, bin.exe]);
      // The banner comes when the first worker listens; /readyz counts the second once it does too.
      let ready: unknown;
      for (let i = 0; i < 300; i++) {
        ready = await (await fetch(`${base}/readyz`)).json();
        if ((ready as { workers?: { ready: number } }).workers?.ready === 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready).toEqual({ status: "ok", workers: { ready: 2, total: 2 } });

      const email = "ada@example.com";
      const up = await signUp(base, email, "header");
      expect(up.json.status).toBe("OK");
      const requested = await postWithSession(base, "/user/email/verify/token", up.tokens);
      expect(requested.json.status).toBe("OK");
      const tail = await bin.run(["tail-mail", "--wait", "--since", "1m", "--to", email, "--action", "verify-email", "--timeout", "20", "--database", "authsvc.db"]);
      expect(tail.code, tail.stderr).toBe(0);
      const token = tail.stdout.trim();
      expect(token).toBe(requested.json.token); // development mode also answers it: the same one
      const mail = JSON.parse((await bin.run(["tail-mail", "--json", "--to", email, "--database", "authsvc.db"])).stdout.trim().split("\n")[0]);
      expect(mail.subject).toBe(`Please confirm ${email}`);

      const verified = await postWithSession(base, "/user/email/verify", up.tokens, { method: "token", token });
      expect(verified.json.status).toBe("OK");
      const status = await fetch(`${base}/auth/user/email/verify`, { headers: { authorization: `Bearer ${verified.tokens!.access}` } });
      expect(await status.json()).toEqual({ status: "OK", isVerified: true });

      // An admin command on the database the server is using, then a sign-in with what it set.
      const created = await bin.run(["users", "create", "bob@example.com", "--password-stdin", "--verified", "--json", "--database", "authsvc.db"], { stdin: "bob's long passphrase\n" });
      expect(created.code, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ email: "bob@example.com", loginMethods: [{ verified: true }] });
      const signIn = await postWithSession(base, "/signin", undefined, { formFields: [{ id: "email", value: "bob@example.com" }, { id: "password", value: "bob's long passphrase" }] });
      expect(signIn.json).toMatchObject({ status: "OK", user: { email: "bob@example.com" } });
      // A user moved in with an Argon2 hash (argon2-cffi's, test/fixtures/move-in): the executable
      // carries @node-rs/argon2's addon too, and the hash is checked as it is.
      writeFileSync(join(bin.dir, "moved.jsonl"), `${JSON.stringify({ id: "old-7", email: "cy@example.com", passwordHash: "$argon2id$v=19$m=4096,t=2,p=2$39YsMs1CkecgTJ4i6ZSoFw$bs+WBKGeDRryzlPwccS8Ig" })}\n`);
      const imported = await bin.run(["users", "import", "moved.jsonl", "--json", "--database", "authsvc.db"]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ created: 1 });
      const movedIn = await postWithSession(base, "/signin", undefined, { formFields: [{ id: "email", value: "cy@example.com" }, { id: "password", value: "correct horse battery staple" }] });
      expect(movedIn.json).toMatchObject({ status: "OK", user: { id: "old-7" } });

      const authUrl = await fetch(`${base}/auth/authorisationurl?thirdPartyId=github&redirectURIOnProviderDashboard=${encodeURIComponent("http://localhost:3000/auth/callback/github")}`);
      const auth = await authUrl.json() as { status: string; urlWithQueryParams: string };
      expect(auth.status).toBe("OK");
      expect(new URL(auth.urlWithQueryParams).searchParams.get("client_id")).toBe("gh-client-id");
    } finally {
      server.kill("SIGTERM");
    }
    const stopped = await server.result;
    expect({ code: stopped.code, signal: stopped.signal }, stopped.stderr).toEqual({ code: 0, signal: null });
  });

  it("the first runs extracted the native addons privately; a later run reuses them; a corrupted or exposed one is detected and replaced", async () => {
    const { dir, files } = extracted();
    expect(files).toEqual(expect.arrayContaining(["better_sqlite3.node"]));
    expect(files).toHaveLength(3); // and @node-rs/bcrypt's and @node-rs/argon2's platform files; nothing half-written left behind
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const original = new Map(files.map((f) => [f, { hash: sha256(join(dir, f)), ino: statSync(join(dir, f)).ino, mode: statSync(join(dir, f)).mode & 0o777 }]));
    for (const { mode } of original.values()) expect(mode).toBe(0o500);
    expect(original.get("better_sqlite3.node")!.hash).toBe(sha256(join(ROOT, "node_modules/better-sqlite3/build/Release/better_sqlite3.node")));

    // A later run (it loads both addons: bcrypt at start, SQLite to open the database) reuses the files.
    const users = await bin.run(["users", "list", "--json", "--database", "authsvc.db"]);
    expect(users.code, users.stderr).toBe(0);
    expect(users.stdout).toContain("bob@example.com");
    for (const f of files) expect(statSync(join(dir, f)).ino).toBe(original.get(f)!.ino);

    // Corrupted: the same size with one byte changed (a partial write, a disk error, tampering).
    const victim = join(dir, "better_sqlite3.node");
    chmodSync(victim, 0o600);
    const bytes = readFileSync(victim);
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(victim, bytes);
    // Exposed: a cache directory others may enter is made private again.
    chmodSync(dir, 0o755);
    const again = await bin.run(["users", "list", "--json", "--database", "authsvc.db"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("bob@example.com");
    expect(sha256(victim)).toBe(original.get("better_sqlite3.node")!.hash);
    expect(statSync(victim).mode & 0o777).toBe(0o500);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir).sort()).toEqual(files);
  });
});

describe.each(backends)("the single executable's admin commands on $name", (backend) => {
  let db: Awaited<ReturnType<typeof backend.create>>;
  beforeAll(async () => { db = await backend.create(); });
  afterAll(async () => { await db?.drop(); });

  it("migrate applies the migrations to a fresh database once; users create, reset-password (the user named first, or by the older options with a notice) and keys work on it", async () => {
    const first = await bin.run(["migrate", "--database", db.url]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^applied 001-initial$/m);
    const second = await bin.run(["migrate", "--database", db.url]);
    expect(second.stdout).toMatch(/^already up to date: nothing to apply$/m);

    const created = await bin.run(["users", "create", "carol@example.com", "--password-stdin", "--json", "--database", db.url], { stdin: "carol's first passphrase" });
    expect(created.code, created.stderr).toBe(0);
    const reset = await bin.run(["reset-password", "carol@example.com", "--password-stdin", "--database", db.url], { stdin: "carol's second passphrase" });
    expect(reset.code, reset.stderr).toBe(0);
    const older = await bin.run(["reset-password", "--email", "carol@example.com", "--password-stdin", "--database", db.url], { stdin: "carol's third passphrase" });
    expect(older.code, older.stderr).toBe(0);
    expect(older.stderr).toBe("authsvc: --email is deprecated; name the user as the first argument: authsvc reset-password carol@example.com\n");
    const oldCreate = await bin.run(["create-user", "--email", "dora@example.com", "--password-stdin", "--database", db.url], { stdin: "dora's long passphrase" });
    expect(oldCreate.code, oldCreate.stderr).toBe(0);
    expect(oldCreate.stderr).toBe("authsvc: create-user is deprecated; use: authsvc users create dora@example.com\n");
    const shown = await bin.run(["users", "show", "carol@example.com", "--json", "--database", db.url]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: "carol@example.com" });
    const keys = await bin.run(["keys", "rotate", "--json", "--database", db.url]);
    expect(keys.code, keys.stderr).toBe(0);
  });
});

describe.each(backends)("authsvc bench from the single executable on $name", (backend) => {
  it("measures sign-ins, refreshes and authenticated requests with their ceilings on a scratch database (load from node:http, no devDependency)", async () => {
    const args = ["bench", "--duration", "0.5", "--connections", "2", "--bcrypt-cost", "4", "--json"];
    if (backend.name === "postgres") args.push("--database-url", process.env.AUTHSVC_TEST_PG_URL!);
    const r = await bin.run(args);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.database).toBe(backend.name);
    expect(report.version).toMatch(/single executable/);
    for (const f of [report.signin, report.refresh, report.authenticated]) {
      expect(f.failed).toBe(0);
      expect(f.requests).toBeGreaterThan(0);
      expect(f.perCore).toBeGreaterThan(0);
    }
    expect(report.signin.ratio).toBeGreaterThan(0);
    expect(report.refresh.ratio).toBeGreaterThan(0);
  });

  it(`runs its servers as child processes of the executable (${backend.name === "postgres" ? "--instances 2" : "--workers 2"})`, async () => {
    const args = ["bench", "--duration", "0.5", "--connections", "2", "--bcrypt-cost", "4", "--json"];
    args.push(...(backend.name === "postgres" ? ["--instances", "2", "--database-url", process.env.AUTHSVC_TEST_PG_URL!] : ["--workers", "2"]));
    const r = await bin.run(args);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect([report.workers, report.instances]).toEqual(backend.name === "postgres" ? [1, 2] : [2, 1]);
    for (const f of [report.signin, report.refresh, report.authenticated]) {
      expect(f.failed).toBe(0);
      expect(f.requests).toBeGreaterThan(0);
      expect(f.cores).toBeGreaterThan(0);
    }
  }, 180_000);
});
