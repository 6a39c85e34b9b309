import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { importRecords, type ImportInput } from "../../src/ops/import-users.js";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const HASH = "$2b$04$abcdefghijklmnopqrstuuQ0ZzWbUkzlc7zRjz2dG9Pq3ZkL4cM8y";
const login = (email: string) => [{ recipeId: "thirdparty", email, thirdParty: { id: "github", userId: email } }];

describe.each(backends)("users import: the record's metadata ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => { t = await createTestApp({ backend, config: { metadataMaxBytes: 128 } }); });
  afterEach(async () => { await t.close(); });
  const stored = async () => Object.fromEntries((await t.app.store.db.selectFrom("user_metadata").select(["user_id", "data"]).execute()).map((r) => [r.user_id, JSON.parse(r.data)]));

  it("refuses bad metadata in the same order as the record's other checks, and writes the rest", async () => {
    // 100 two-byte characters: 100 characters, over 128 bytes of JSON.
    const big = { note: "é".repeat(100) };
    const rows: ImportInput[] = [
      { line: 1, record: { id: "u1", email: "a@example.com", metadata: [1], loginMethods: [{ recipeId: "nope" }] } },
      { line: 2, record: { id: "u2", email: "b@example.com", metadata: "x", totp: "bad", loginMethods: login("b@example.com") } },
      { line: 3, record: { id: "u3", email: "c@example.com", metadata: big, loginMethods: [{ recipeId: "nope" }] } },
      { line: 4, record: { id: "u4", email: "d@example.com", metadata: big, loginMethods: login("other@example.com") } },
      { line: 5, where: "people.json line 5", record: { id: "u5", email: "e@example.com", metadata: big, loginMethods: login("e@example.com") } },
      { line: 6, where: "people.json line 6", record: { id: "u6", email: "f@example.com", metadata: { note: "x".repeat(70_000) }, loginMethods: login("f@example.com") } },
      { line: 7, record: { id: "u7", email: "g@example.com", metadata: { plan: "pro" }, loginMethods: login("g@example.com") } },
      { line: 8, record: { id: "u8", email: "h@example.com", metadata: {}, passwordHash: HASH } },
      { line: 9, record: { id: "u9", email: "i@example.com", metadata: null, loginMethods: login("i@example.com") } },
      { line: 10, record: { id: "bad@id", email: "j@example.com", metadata: 3, loginMethods: login("j@example.com") } },
      { line: 11, record: { email: "k@example.com", metadata: { seats: 3 }, loginMethods: login("k@example.com") } },
    ];
    const dry = await importRecords(t.app.ctx, rows, { dryRun: true });
    expect({ created: dry.created, refused: dry.refused, lines: dry.lines }).toEqual({ created: 4, refused: 7, lines: 11 });
    const report = await importRecords(t.app.ctx, rows);
    expect(report.refusedRows).toEqual([
      { line: 1, reason: "metadata must be a JSON object" },
      { line: 2, reason: "metadata must be a JSON object" },
      { line: 3, reason: 'loginMethods[0].recipeId must be "emailpassword", "thirdparty" or "passwordless"' },
      { line: 4, reason: "email d@example.com is not the address of any of its login methods (other@example.com)" },
      // A source's row says where it came from apart from the reason, for a check of the record and of this server's settings alike.
      { line: 5, where: "people.json line 5", reason: "metadata is 211 bytes of JSON; the limit is 128 (--metadata-max-bytes)" },
      { line: 6, where: "people.json line 6", reason: "metadata is longer than 65536 characters of JSON" },
      { line: 10, reason: "id must be 1–128 letters, digits or . _ : | - (no @)" },
    ]);
    expect({ created: report.created, refused: report.refused, skipped: report.skipped }).toEqual({ created: 4, refused: 7, skipped: 0 });
    const k = await t.app.store.db.selectFrom("users").select("id").where("email", "=", "k@example.com").executeTakeFirstOrThrow();
    expect(await stored()).toEqual({ u7: { plan: "pro" }, [k.id]: { seats: 3 } });
    // A second run writes nothing again.
    const again = await importRecords(t.app.ctx, rows);
    expect({ created: again.created, skipped: again.skipped, refused: again.refused }).toEqual({ created: 0, skipped: 4, refused: 7 });
  });
});
