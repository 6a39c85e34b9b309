import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { hash as bcryptHash } from "@node-rs/bcrypt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const { tempDir } = useTempDirs("import-addr");

describe.each(backends)("users import keeps one address to one person ($name)", (backend) => {
  let t: TestApp;
  let hash: string;
  beforeEach(async () => {
    t = await createTestApp({ backend });
    hash = await bcryptHash("mallory horse battery", { cost: 4 });
  });
  afterEach(async () => { await t.close(); });
  const importRows = async (rows: unknown[]) => {
    const file = join(tempDir(), "users.jsonl");
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n"));
    const r = await runCli(["users", "import", file, "--json", "--database", t.config.database]);
    return JSON.parse(r.stdout) as { created: number; skippedRows: Array<{ line: number; reason: string }>; refusedRows: Array<{ line: number; reason: string }> };
  };
  const usersWith = async (email: string) => (await t.app.store.db.selectFrom("users").select("id").where("email", "=", email).execute()).length;
  const show = async (ref: string) => JSON.parse((await runCli(["users", "show", ref, "--json", "--database", t.config.database])).stdout);

  it("refuses a row whose email is not one of its login methods' addresses: the victim's address is not shown verified on mallory's account, and the victim can still sign up alone", async () => {
    const report = await importRows([
      { email: "victim@example.com", verified: true, loginMethods: [{ recipeId: "emailpassword", email: "mallory@example.com", passwordHash: hash }] },
    ]);
    expect(report.created).toBe(0);
    expect(report.refusedRows).toEqual([{ line: 1, reason: "email victim@example.com is not the address of any of its login methods (mallory@example.com)" }]);
    const mallory = await postJson(`${t.url}/auth/signin`, credentials("mallory@example.com", "mallory horse battery"), { rid: "emailpassword" });
    expect(await mallory.json()).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(((await (await postJson(`${t.url}/auth/signup`, credentials("victim@example.com"))).json()) as { status: string }).status).toBe("OK");
    expect(await usersWith("victim@example.com")).toBe(1);
  });

  it("skips a row with an address that belongs to a user in the database, whichever login method holds it", async () => {
    const up = (await (await postJson(`${t.url}/auth/signup`, credentials("victim@example.com"))).json()) as { user: { id: string } };
    const first = await importRows([{ id: "carol", email: "carol@example.com", loginMethods: [{ recipeId: "thirdparty", thirdParty: { id: "github", userId: "1" } }] }]);
    expect(first.created).toBe(1);
    const report = await importRows([
      { email: "victim@example.com", verified: true, loginMethods: [{ recipeId: "thirdparty", thirdParty: { id: "github", userId: "666" } }] },
      { email: "carol@example.com", passwordHash: hash },
    ]);
    expect(report.created).toBe(0);
    expect(report.skippedRows).toEqual([
      { line: 1, reason: `the address victim@example.com belongs to user ${up.user.id}` },
      { line: 2, reason: "the address carol@example.com belongs to user carol" },
    ]);
    expect(await usersWith("victim@example.com")).toBe(1);
    expect(await show("victim@example.com")).toMatchObject({ id: up.user.id, loginMethods: [{ email: "victim@example.com", verified: false }] });
  });

  it("skips a later row of the same file that uses an address an earlier row has, through any login method", async () => {
    const report = await importRows([
      { email: "ann@example.com", passwordHash: hash },
      { email: "ann@example.com", loginMethods: [{ recipeId: "thirdparty", thirdParty: { id: "github", userId: "2" } }] },
      { email: "ann2@example.com", loginMethods: [{ recipeId: "emailpassword", passwordHash: hash }, { recipeId: "thirdparty", email: "ann@example.com", thirdParty: { id: "google", userId: "3" } }] },
    ]);
    expect(report.created).toBe(1);
    expect(report.skippedRows).toEqual([{ line: 2, reason: "duplicate of line 1" }, { line: 3, reason: "duplicate of line 1" }]);
  });

  it("verifies only addresses its login methods use", async () => {
    const report = await importRows([
      { id: "dan", email: "dan@example.com", verified: true, loginMethods: [{ recipeId: "emailpassword", passwordHash: hash }, { recipeId: "thirdparty", email: "dan@gmail.com", verified: true, thirdParty: { id: "google", userId: "4" } }] },
    ]);
    expect(report.created).toBe(1);
    const dan = await show("dan");
    expect(dan.loginMethods.map((m: { email: string; verified: boolean }) => [m.email, m.verified]).sort()).toEqual([["dan@example.com", true], ["dan@gmail.com", true]]);
  });
});
