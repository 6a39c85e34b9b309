import pg from "pg";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";

const pgUrl = process.env.AUTHSVC_TEST_PG_URL;

const figure = (ceiling: boolean) => ({
  perSecond: expect.any(Number), cores: expect.any(Number), perCore: expect.any(Number), requests: expect.any(Number), failed: expect.any(Number),
  ...(ceiling ? { ceilingPerCore: expect.any(Number), ratio: expect.any(Number) } : {}),
});

// A short run (half a second per figure, bcrypt cost 4): the report's shape and that every figure
// was measured; how fast is the machine's business, never a test's.
describe.each(backends)("authsvc bench on $name", (backend) => {
  it("measures sign-ins, refreshes and authenticated requests on a scratch database and reports them as JSON", async () => {
    const args = ["bench", "--duration", "0.5", "--connections", "4", "--bcrypt-cost", "4", "--json"];
    if (backend.name === "postgres") args.push("--database-url", pgUrl!);
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      version: expect.stringMatching(/^authsvc /),
      machine: { cpus: expect.any(Number), cpuModel: expect.any(String), loadAverageBefore: expect.any(Number), loadAverageAfter: expect.any(Number) },
      database: backend.name,
      bcryptCost: 4,
      hashThreads: expect.any(Number),
      durationSeconds: 0.5,
      connections: { signin: expect.any(Number), refresh: 4, authenticated: 4 },
      ceilings: { bcryptVerifyPerCore: expect.any(Number), rs256SignPerCore: expect.any(Number) },
      signin: figure(true),
      refresh: figure(true),
      authenticated: figure(false),
    });
    for (const f of [report.signin, report.refresh, report.authenticated]) {
      expect(f.requests).toBeGreaterThan(0);
      expect(f.failed).toBe(0);
      for (const k of ["perSecond", "cores", "perCore"]) expect(f[k]).toBeGreaterThan(0);
    }
    for (const f of [report.signin, report.refresh]) expect(f.ratio).toBeCloseTo(f.perCore / f.ceilingPerCore, 6);
    expect(report.ceilings.bcryptVerifyPerCore).toBeGreaterThan(0);
    expect(report.ceilings.rs256SignPerCore).toBeGreaterThan(0);
    expect(r.stderr).toContain("bench: 0.5s per figure");

    if (backend.name === "postgres") {
      // The scratch schema is gone afterwards.
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      const left = await c.query("select schema_name from information_schema.schemata where schema_name like $1", [`authsvc_bench_${process.pid}_%`]);
      await c.end();
      expect(left.rows).toEqual([]);
    }
  }, 60_000);

  if (backend.name === "sqlite") {
    it("prints a table with the ceilings beside the figures; refuses a database URL that is not PostgreSQL, and a database of the user's", async () => {
      const r = await runCli(["bench", "--duration", "0.3", "--connections", "2", "--bcrypt-cost", "4"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^password sign-ins +[\d,.]+ +[\d.]+ +[\d,.]+ +[\d,.]+ \(bcrypt verify, cost 4\) +[\d.]+$/m);
      expect(r.stdout).toMatch(/^refreshes +[\d,.]+ +[\d.]+ +[\d,.]+ +[\d,.]+ \(RS256 signature\) +[\d.]+$/m);
      expect(r.stdout).toMatch(/^authenticated requests +[\d,.]+ +[\d.]+ +[\d,.]+$/m);
      const bad = await runCli(["bench", "--database-url", "/tmp/x.db"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--database-url must be a postgres:// URL");
      const mine = await runCli(["bench", "--database", "/tmp/yours.db"]);
      expect(mine.code).toBe(2);
      expect(mine.stderr).toContain("bench never touches a database of yours");
    }, 60_000);
  }
});
