import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importRecords, SourceChangedError, type ImportInput } from "../../src/ops/import-users.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const HASH = "$2b$04$0tOuCnhzexdGJW6pts3luuTljU2b3Crl2ixNTuFkl3cRZFW744a4m";
const row = (i: number, prefix = "r"): ImportInput => ({ line: i, record: { id: `${prefix}-${i}`, email: `${prefix}${i}@example.com`, passwordHash: HASH } });
/** A source read afresh on each pass, as an export file or another system's database is. */
const rows = (n: number, prefix = "r") => function* () { for (let i = 1; i <= n; i++) yield row(i, prefix); };

describe.each(backends)("a large import streams its rows and resumes after an interruption ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ backend }); });
  afterAll(async () => { await t.close(); });
  const count = async (prefix: string) => Number((await t.app.store.db.selectFrom("users").select((e) => e.fn.countAll().as("n")).where("id", "like", `${prefix}-%`).executeTakeFirstOrThrow()).n);

  it("stopped after two of five batches, the same import run again writes the other three and nothing twice", async () => {
    const interrupted = importRecords(t.app.ctx, rows(50), {
      batchSize: 10,
      onBatch: (r, phase) => { if (phase === "writing" && r.created === 20) throw new Error("the terminal was closed"); },
    });
    await expect(interrupted).rejects.toThrow("the terminal was closed");
    expect(await count("r")).toBe(20);
    const dry = await importRecords(t.app.ctx, rows(50), { batchSize: 10, dryRun: true });
    expect(dry).toMatchObject({ created: 30, skipped: 20, conflicts: 0 });
    const resumed = await importRecords(t.app.ctx, rows(50), { batchSize: 10 });
    expect(resumed).toMatchObject({ lines: 50, created: 30, skipped: 20, conflicts: 0, refused: 0 });
    expect(resumed.skippedRows.map((s) => s.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await count("r")).toBe(50);
  });

  it("the rows written are the rows checked: a source that changes between the passes stops the import", async () => {
    let pass = 0;
    const changing = () => { pass++; return pass === 1 ? rows(5, "c")() : rows(5, "d")(); };
    await expect(importRecords(t.app.ctx, changing, { batchSize: 10 })).rejects.toThrow(SourceChangedError);
    expect(await count("c") + await count("d")).toBe(0);
  });

  it("rows that can be read only once (standard input) are kept for the second pass", async () => {
    const once = rows(15, "s")();
    expect(await importRecords(t.app.ctx, once, { batchSize: 4 })).toMatchObject({ lines: 15, created: 15 });
    expect(await count("s")).toBe(15);
  });
});
