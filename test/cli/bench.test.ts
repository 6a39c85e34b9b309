import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { spawnBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";
import { childrenOf, isAlive } from "../helpers/cluster-probe.js";

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
      workers: 1,
      instances: 1,
      bcryptCost: 4,
      hashThreads: expect.any(Number),
      durationSeconds: 0.5,
      connections: { signin: expect.any(Number), refresh: 4, authenticated: 4 },
      ceilings: { bcryptVerifyPerCore: expect.any(Number), rs256SignPerCore: expect.any(Number) },
      signin: figure(true),
      refresh: figure(true),
      authenticated: figure(false),
      memory: [{ pid: expect.any(Number), idleMb: expect.any(Number), peakMb: expect.any(Number) }],
    });
    // One process: its resident memory before the loads, and a peak at least that high.
    expect(report.memory[0].idleMb).toBeGreaterThan(20);
    expect(report.memory[0].peakMb).toBeGreaterThanOrEqual(report.memory[0].idleMb);
    for (const f of [report.signin, report.refresh, report.authenticated]) {
      expect(f.requests).toBeGreaterThan(0);
      expect(f.failed).toBe(0);
      for (const k of ["perSecond", "cores", "perCore"]) expect(f[k]).toBeGreaterThan(0);
    }
    for (const f of [report.signin, report.refresh]) expect(f.ratio).toBeCloseTo(f.perCore / f.ceilingPerCore, 6);
    expect(report.ceilings.bcryptVerifyPerCore).toBeGreaterThan(0);
    expect(report.ceilings.rs256SignPerCore).toBeGreaterThan(0);
    expect(r.stderr).toContain("bench: 0.5s per figure");

    if (backend.name === "postgres") expect(await scratchSchemasOf(process.pid)).toEqual([]);
  }, 60_000);

  it("--workers 2 measures a real `serve --workers 2` child (CPU of its whole process tree), and leaves no process, file or schema behind", async () => {
    const args = ["bench", "--workers", "2", "--duration", "0.5", "--connections", "4", "--bcrypt-cost", "4", "--json"];
    if (backend.name === "postgres") args.push("--database-url", pgUrl!);
    const run = await benchAsChild(args);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ database: backend.name, workers: 2, instances: 1, bcryptCost: 4, signin: figure(true), refresh: figure(true), authenticated: figure(false) });
    // Memory per process of the tree: the primary and its two workers, each with its peak over the loads.
    expect(report.memory).toHaveLength(3);
    for (const m of report.memory) { expect(m.idleMb).toBeGreaterThan(20); expect(m.peakMb).toBeGreaterThanOrEqual(m.idleMb); }
    expectMeasured(report);
    // The serve primary and its two workers ran under the bench, and none outlived it.
    expect(run.descendants.length).toBeGreaterThanOrEqual(3);
    expect(run.descendants.filter(isAlive)).toEqual([]);
    expect(run.scratchLeft).toEqual([]);
    expect(run.stderr).toContain("2 workers, bcrypt cost 4");
    if (backend.name === "postgres") expect(await scratchSchemasOf(run.pid)).toEqual([]);
  }, 180_000);

  if (backend.name === "postgres") {
    it("--instances 2 loads two `serve` processes on one scratch schema and prints the figures for both", async () => {
      const run = await benchAsChild(["bench", "--instances", "2", "--duration", "0.5", "--connections", "4", "--bcrypt-cost", "4", "--database-url", pgUrl!]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.split("\n")[1]).toMatch(/^PostgreSQL, 2 instances, bcrypt cost 4, \d+ hashing threads, 0\.5s per figure$/);
      for (const name of ["password sign-ins", "refreshes", "authenticated requests"]) {
        const row = new RegExp(`^${name} +([\\d,.]+) +([\\d.]+) +([\\d,.]+)`, "m").exec(run.stdout);
        expect(row, run.stdout).not.toBeNull();
        for (const n of row!.slice(1)) expect(Number(n.replaceAll(",", ""))).toBeGreaterThan(0);
      }
      expect(run.stdout).not.toContain("warning");
      expect(run.descendants.length).toBeGreaterThanOrEqual(2);
      expect(run.descendants.filter(isAlive)).toEqual([]);
      expect(run.scratchLeft).toEqual([]);
      expect(await scratchSchemasOf(run.pid)).toEqual([]);
    }, 180_000);
  }

  if (backend.name === "sqlite") {
    it("prints a table with the ceilings beside the figures; refuses a database URL that is not PostgreSQL, and a database of the user's", async () => {
      const r = await runCli(["bench", "--duration", "0.3", "--connections", "2", "--bcrypt-cost", "4"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split("\n")[1]).toMatch(/^SQLite, one process, bcrypt cost 4, /);
      expect(r.stdout).toMatch(/^password sign-ins +[\d,.]+ +[\d.]+ +[\d,.]+ +[\d,.]+ \(bcrypt verify, cost 4\) +[\d.]+$/m);
      expect(r.stdout).toMatch(/^refreshes +[\d,.]+ +[\d.]+ +[\d,.]+ +[\d,.]+ \(RS256 signature\) +[\d.]+$/m);
      expect(r.stdout).toMatch(/^authenticated requests +[\d,.]+ +[\d.]+ +[\d,.]+$/m);
      const bad = await runCli(["bench", "--database-url", "/tmp/x.db"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--database-url must be a postgres:// URL");
      const mine = await runCli(["bench", "--database", "/tmp/yours.db"]);
      expect(mine.code).toBe(2);
      expect(mine.stderr).toContain("bench never touches a database of yours");
      // Two serve processes on one SQLite file cannot be: --instances takes PostgreSQL.
      const two = await runCli(["bench", "--instances", "2"]);
      expect(two.code).toBe(2);
      expect(two.stderr).toContain("--instances needs --database-url postgres://");
    }, 60_000);
  }
});

function expectMeasured(report: Record<string, { requests: number; failed: number; perSecond: number; cores: number; perCore: number }>): void {
  for (const f of [report.signin, report.refresh, report.authenticated]) {
    expect(f.requests).toBeGreaterThan(0);
    expect(f.failed).toBe(0);
    for (const k of ["perSecond", "cores", "perCore"] as const) expect(f[k]).toBeGreaterThan(0);
  }
}

/** The bench's scratch schemas left in PostgreSQL (named after the bench's pid). */
async function scratchSchemasOf(pid: number): Promise<string[]> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  const left = await c.query("select schema_name from information_schema.schemata where schema_name like $1", [`authsvc_bench_${pid}_%`]);
  await c.end();
  return left.rows.map((r) => r.schema_name as string);
}

/** Every process below `pid` now. */
function treeOf(pid: number): number[] {
  return childrenOf(pid).flatMap((c) => [c, ...treeOf(c)]);
}

/**
 * `bin/authsvc bench …` as a user runs it (the servers are child processes of that executable),
 * noting every process under it while it runs, and the scratch folders it left in the temp dir.
 */
async function benchAsChild(args: string[]) {
  const scratchBefore = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith("authsvc-bench-")));
  const child = spawnBin(args);
  const seen = new Set<number>();
  const watch = setInterval(() => { for (const p of treeOf(child.pid!)) seen.add(p); }, 50);
  const r = await child.result.finally(() => clearInterval(watch));
  const scratchLeft = readdirSync(tmpdir()).filter((n) => n.startsWith("authsvc-bench-") && !scratchBefore.has(n));
  return { ...r, pid: child.pid!, descendants: [...seen], scratchLeft };
}
