import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARGON2_BOUNDS } from "../../src/core/hash-formats/argon2.js";
import { IMPORTED_BCRYPT_COSTS } from "../../src/core/hash-formats/bcrypt.js";
import { PBKDF2_DIGESTS } from "../../src/core/hash-formats/pbkdf2.js";
import { PHPASS_LOG2_BOUNDS } from "../../src/core/hash-formats/phpass.js";
import { SCRYPT_BOUNDS } from "../../src/core/hash-formats/scrypt.js";
import { checkStoredHashFormat } from "../../src/core/passwords.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const { tempDir } = useTempDirs("move-in-bounds");
const b64 = (n: number, fill: number) => Buffer.alloc(n, fill).toString("base64").replace(/=+$/, "");
const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const scryptLn = Math.log2(SCRYPT_BOUNDS.maxWork / 8);

/** A well-formed hash of each costly kind, at its bound (a wrong password costs what a right one does). */
const atBound: Record<string, string> = {
  bcrypt: `$2b$${IMPORTED_BCRYPT_COSTS.max}$${"a".repeat(53)}`,
  phpass: `$P$${ITOA64[PHPASS_LOG2_BOUNDS.max]}${"s".repeat(8)}${"h".repeat(22)}`,
  "pbkdf2-sha512": `$pbkdf2-sha512$i=${PBKDF2_DIGESTS.sha512.maxWork}$${b64(16, 1)}$${b64(64, 2)}`,
  argon2: `$argon2id$v=19$m=${ARGON2_BOUNDS.maxMemoryKiB},t=${ARGON2_BOUNDS.maxWork / ARGON2_BOUNDS.maxMemoryKiB},p=1$${b64(16, 3)}$${b64(32, 4)}`,
  scrypt: `$scrypt$ln=${scryptLn},r=8,p=1$${b64(16, 5)}$${b64(32, 6)}`,
};

describe.each(backends)("a sign-in against an imported hash at its format's bound ($name)", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    const file = join(tempDir(), "at-bound.jsonl");
    writeFileSync(file, Object.entries(atBound).map(([kind, passwordHash]) => JSON.stringify({ id: `bound-${kind}`, email: `${kind}@example.com`, passwordHash })).join("\n"));
    const r = await runCli(["users", "import", file, "--json", "--database", t.config.database]);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: Object.keys(atBound).length, refused: 0 });
  });
  afterAll(async () => { await t.close(); });

  it("is accepted at the bound, and one step past it is refused naming the parameter", () => {
    for (const hash of Object.values(atBound)) expect(checkStoredHashFormat(hash)).toBeNull();
    expect(checkStoredHashFormat(atBound.phpass.replace(/^\$P\$./, `$P$${ITOA64[PHPASS_LOG2_BOUNDS.max + 1]}`))).toMatch(/2\^20 iterations/);
    expect(checkStoredHashFormat(atBound.scrypt.replace(`ln=${scryptLn}`, `ln=${scryptLn + 1}`))).toMatch(/memory 128·N·r/);
  });

  // One on the hashing pool's threads (phpass, like bcrypt) and one on libuv's (PBKDF2, like scrypt and Argon2).
  it("never holds /healthz up: it answers within a second while verifications at the bound run on both kinds of thread", async () => {
    let settled = false;
    const kinds = ["phpass", "pbkdf2-sha512"];
    const signIns = Promise.all(kinds.map(async (kind) => (await (await postJson(`${t.url}/auth/signin`, credentials(`${kind}@example.com`, "a wrong password"), { rid: "emailpassword" })).json()) as { status: string }));
    void signIns.finally(() => { settled = true; });
    const during: number[] = [];
    while (!settled) {
      const t0 = performance.now();
      const res = await fetch(`${t.url}/healthz`);
      const ms = performance.now() - t0;
      expect(res.status).toBe(200);
      if (!settled) during.push(ms);
      await new Promise((r) => setTimeout(r, 25)); // a probe's pace, not a wait for the sign-ins
    }
    expect(await signIns).toEqual(kinds.map(() => ({ status: "WRONG_CREDENTIALS_ERROR" })));
    // Probes answered while the verifications ran, each within a second.
    expect(during.length).toBeGreaterThan(2);
    expect(Math.max(...during)).toBeLessThan(1000);
  }, 120_000); // real hashes at their systems' costs: on a shared machine, seconds each (their time is not what is tested)
});
