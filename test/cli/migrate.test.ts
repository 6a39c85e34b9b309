import { beforeEach, describe, expect, it } from "vitest";
import { migrations } from "../../src/store/migrations/index.js";
import { backends } from "../helpers/backends.js";
import { useCliDatabase } from "./fixture.js";

const names = migrations.map((m) => m.name);

describe.each(backends)("authsvc migrate on $name", (backend) => {
  const t = useCliDatabase(backend);
  beforeEach(async () => { await t.create({ empty: true }); });

  it("--status lists pending migrations on a fresh database without changing it", async () => {
    const r = await t.cli(["migrate", "--status"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(names.map((n) => `pending  ${n}\n`).join(""));
    expect(JSON.parse((await t.cli(["migrate", "--status", "--json"])).stdout)).toEqual(names.map((name) => ({ name, appliedAt: null })));
  });

  it("applies every step, then nothing on the second run", async () => {
    const first = await t.cli(["migrate"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(names.map((n) => `applied ${n}\n`).join("") + `${names.length} migration(s) applied\n`);
    expect(first.stderr).toContain("migrating ");
    const second = await t.cli(["migrate"]);
    expect(second).toMatchObject({ code: 0, stdout: "already up to date: nothing to apply\n" });
    expect(JSON.parse((await t.cli(["migrate", "--json"])).stdout)).toEqual({ applied: [] });
  });

  it("--json reports what it applied; --status --json then shows when", async () => {
    const before = Date.now();
    expect(JSON.parse((await t.cli(["migrate", "--json"])).stdout)).toEqual({ applied: names });
    const status = JSON.parse((await t.cli(["migrate", "--status", "--json"])).stdout) as Array<{ name: string; appliedAt: number }>;
    expect(status.map((s) => s.name)).toEqual(names);
    for (const s of status) expect(s.appliedAt).toBeGreaterThanOrEqual(before);
    expect((await t.cli(["migrate", "--status"])).stdout).toMatch(/^applied {2}001-initial {2}\d{4}-\d\d-\d\dT/);
  });

  if (backend.name === "postgres") {
    it("masks the database password in what it prints", async () => {
      const u = new URL(t.url());
      u.password = "pg-secret-pw";
      const r = await t.cli(["migrate", "--status", "--database", u.toString()]);
      expect(r.stdout + r.stderr).not.toContain("pg-secret-pw");
    });
  }
});

describe("authsvc migrate failures", () => {
  it("names the database it cannot open (exit 1)", async () => {
    const r = await (await import("../helpers/cli.js")).runCli(["migrate", "--database", "/nonexistent-authsvc-dir/a.db"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("authsvc: cannot create the SQLite database /nonexistent-authsvc-dir/a.db: the folder /nonexistent-authsvc-dir does not exist; create it (mkdir -p /nonexistent-authsvc-dir) or point --database (AUTHSVC_DATABASE) at another path\n");
  });
  it("reports an unreachable PostgreSQL without its password (exit 1)", async () => {
    const r = await (await import("../helpers/cli.js")).runCli(["migrate", "--database", "postgres://app:pw-xyz@127.0.0.1:1/auth"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read the migrations of postgres:\/\/app:\*{4}@127\.0\.0\.1:1\/auth: .*ECONNREFUSED/);
    expect(r.stderr).not.toContain("pw-xyz");
  });
});
