import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const { tempDir, cleanup } = useTempDirs("backup");

async function app(backend: (typeof backends)[number]): Promise<TestApp> {
  // Three clients sign up from one IP as fast as they can: the sign-up rate limit would stop them.
  const t = await createTestApp({ backend, config: { rateLimits: false } });
  cleanup.push(() => t.close());
  return t;
}

/** Pads the database with ~4 MB of caught mail, so the online copy takes many steps. */
async function padDatabase(t: TestApp): Promise<void> {
  const rows = Array.from({ length: 2000 }, (_, i) => ({ received_at: i, mail_from: "a@example.com", to_address: "b@example.com", subject: "s", text_body: "x".repeat(2000), html_body: null }));
  for (let i = 0; i < rows.length; i += 200) await t.app.store.db.insertInto("caught_mail").values(rows.slice(i, i + 200) as never).execute();
}

describe.each(backends)("authsvc backup on $name", (backend) => {
  if (backend.name === "postgres") {
    it("says to use pg_dump / pg_restore and exits 2", async () => {
      const t = await app(backend);
      const file = join(tempDir(), "b.db");
      const b = await runCli(["backup", file, "--database", t.config.database]);
      expect(b.code).toBe(2);
      expect(b.stderr).toMatch(/pg_dump/);
      expect(existsSync(file)).toBe(false);
      const r = await runCli(["restore", file, "--database", t.config.database]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/pg_restore/);
    });
    return;
  }

  it("copies a database that keeps taking sign-ups: every user acknowledged before the backup is in it, and the copy passes integrity_check", async () => {
    const t = await app(backend);
    await padDatabase(t);
    const acknowledged = new Set<string>();
    let stop = false;
    let n = 0;
    const signUpLoop = async () => {
      while (!stop) {
        const email = `user${n++}@example.com`;
        const res = await postJson(`${t.url}/auth/signup`, credentials(email));
        const body = await res.json() as { status: string };
        if (res.status === 200 && body.status === "OK") acknowledged.add(email);
      }
    };
    const loops = [signUpLoop(), signUpLoop(), signUpLoop()];
    while (acknowledged.size < 20) await new Promise((r) => setTimeout(r, 5));
    const before = new Set(acknowledged);
    const file = join(tempDir(), "backup.db");
    const r = await runCli(["backup", file, "--database", t.config.database, "--json"]);
    const during = acknowledged.size;
    stop = true;
    await Promise.all(loops);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(during).toBeGreaterThan(before.size); // sign-ups were acknowledged while the copy ran

    const report = JSON.parse(r.stdout);
    expect(report.bytes).toBe(statSync(file).size);
    expect(report.tables.caught_mail).toBe(2000);
    const copy = new Database(file, { readonly: true });
    cleanup.push(() => { copy.close(); });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    const emails = new Set(copy.prepare("select email from users").pluck().all() as string[]);
    for (const e of before) expect(emails.has(e)).toBe(true);
    expect(report.tables.users).toBe(emails.size);
    // One consistent snapshot: every user in the copy has its credential row, and nothing else.
    expect(copy.prepare("select count(*) from users u left join email_password_credentials c on c.user_id = u.id where c.user_id is null").pluck().get()).toBe(0);
  });

  it("prints size, row counts and time, and refuses to overwrite a file unless --force", async () => {
    const t = await app(backend);
    await postJson(`${t.url}/auth/signup`, credentials("ada@example.com"));
    const dir = tempDir();
    const file = join(dir, "b.db");
    writeFileSync(file, "precious");
    const refused = await runCli(["backup", file, "--database", t.config.database]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/exists; give --force/);
    expect(statSync(file).size).toBe("precious".length);
    const forced = await runCli(["backup", file, "--force", "--database", t.config.database]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/written to .*b\.db: .*(KiB|B), \d+ tables \(.*users 1.*\), \d+ ms; integrity_check ok/);
  });

  it("a backup of a missing database is refused without creating anything", async () => {
    const dir = tempDir();
    const r = await runCli(["backup", join(dir, "b.db"), "--database", join(dir, "typo.db")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no database at/);
    expect(existsSync(join(dir, "typo.db"))).toBe(false);
    expect(existsSync(join(dir, "b.db"))).toBe(false);
  });
});
