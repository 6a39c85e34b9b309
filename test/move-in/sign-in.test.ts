import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { importedHashFormat } from "../../src/core/hash-formats/index.js";
import { vectors } from "./vectors.js";

const { tempDir } = useTempDirs("move-in-sign-in");
// Through HTTP, one vector of each format as each system wrote it (hash-formats.test.ts checks every vector directly).
const seen = new Set<string>();
const list = vectors().filter((v) => {
  const key = `${v.format} ${importedHashFormat(v.stored)?.id}`;
  return !seen.has(key) && seen.add(key);
}).map((v, i) => ({ ...v, email: `user${i}@example.com` }));

describe.each(backends)("imported hashes sign in through HTTP and are replaced by ours ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    // Four sign-ins per vector from one address: above the default per-IP budget.
    t = await createTestApp({ backend, config: { limitSigninIp: "1000/15m" } });
    // Each hash goes into the JSON-lines file exactly as the other system wrote it (Keycloak's credential as its object).
    const file = join(tempDir(), "users.jsonl");
    writeFileSync(file, list.map((v) => JSON.stringify({ id: `old-${v.email.split("@")[0]}`, email: v.email, passwordHash: v.raw })).join("\n"));
    const r = await runCli(["users", "import", file, "--json", "--database", t.config.database]);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: list.length, refused: 0, skipped: 0 });
  });
  afterAll(async () => { await t.close(); });
  const stored = async (email: string) => (await t.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("email", "=", email).executeTakeFirstOrThrow()).password_hash;
  const signIn = async (email: string, password: string) => (await (await postJson(`${t.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" })).json()) as { status: string; user?: { id: string } };

  it.each(list.map((v) => [`${v.format} (${v.madeBy})`, v] as const))("%s", async (_name, v) => {
    expect(await stored(v.email)).toBe(v.stored);
    expect(await signIn(v.email, v.password + "!")).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await stored(v.email)).toBe(v.stored);
    const ok = await signIn(v.email, v.password);
    expect(ok.status).toBe("OK");
    expect(ok.user!.id).toBe(`old-${v.email.split("@")[0]}`);
    expect(await stored(v.email)).toMatch(/^bcrypt-sha384:\$2b\$04\$/);
    // The old password keeps working against the new hash; a wrong one still does not.
    expect((await signIn(v.email, v.password)).status).toBe("OK");
    expect(await signIn(v.email, v.password.slice(1))).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)
});
