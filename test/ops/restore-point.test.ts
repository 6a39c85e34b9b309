import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { authHeaders, credentials, postJson, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { useTempDirs } from "../helpers/temp-dirs.js";
import { createTestApp } from "../helpers/test-app.js";
import { killChild, startServe } from "./serve-child.js";

const { tempDir, cleanup } = useTempDirs("restore-point");
const SECRET = "a server secret of at least thirty-two characters";

/** Development mode answers the reset token itself (README "Development and production mode"). */
async function resetToken(base: string, email: string): Promise<string> {
  const json = (await (await postJson(`${base}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: email }] })).json()) as { token?: string };
  expect(json.token).toEqual(expect.any(String));
  return json.token!;
}

async function resetWith(base: string, token: string): Promise<unknown> {
  const res = await postJson(`${base}/auth/user/password/reset`, { method: "token", token, formFields: [{ id: "password", value: "a brand new horse battery" }] });
  return ((await res.json()) as { status: string }).status;
}

const signOut = (base: string, t: Tokens) => fetch(`${base}/auth/signout`, { method: "POST", headers: { ...authHeaders(t), rid: "session" } });

describe("authsvc restore is a point in time (SQLite, built server processes)", () => {
  it("a refresh token signed out after the backup stays dead after the restore, in every worker process; a reset token from before is void", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    expect((await runCli(["migrate", "--database", database])).code).toBe(0);
    // Two servers one after the other: the first with one process keeps it within its time on a small machine.
    const first = await startServe(["--workers", "1", "--database", database], cleanup);
    const base = `http://127.0.0.1:${first.port}`;
    const ada = await signUp(base, "ada@example.com", "header");
    const bob = await signUp(base, "bob@example.com", "header");
    const token = await resetToken(base, "ada@example.com");
    expect((await runCli(["backup", join(dir, "b.db"), "--database", database])).code).toBe(0);
    expect((await signOut(base, ada.tokens)).status).toBe(200);
    expect((await refresh(base, ada.tokens)).status).toBe(401);
    await killChild(first.child, "SIGTERM");

    const r = await runCli(["restore", join(dir, "b.db"), "--database", database]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/restore point .*: ended 2 session\(s\) \(their refresh tokens now get 401; .*\), voided 1 verification\/reset token\(s\)/);
    // No AUTHSVC_SECRET: the key in the backup is in the clear, so the operator is told to rotate.
    expect(r.stdout).toMatch(/signing key: rotate the signing key: run `authsvc keys rotate` now/);
    expect(r.stdout).toMatch(/stored unencrypted/);

    // One serve per SQLite file (a second is refused): the restored file is served by two worker
    // processes, each of which opens it afresh.
    const a = await startServe(["--workers", "2", "--database", database], cleanup);
    const url = `http://127.0.0.1:${a.port}`;
    for (let i = 0; i < 4; i++) {
      expect((await refresh(url, ada.tokens)).status).toBe(401); // signed out after the backup: not back
      expect((await refresh(url, bob.tokens)).status).toBe(401); // issued before the restore point
    }
    expect(await resetWith(url, token)).toBe("RESET_PASSWORD_INVALID_TOKEN_ERROR");
    // Sessions made after the restore work.
    const again = await signUp(url, "ada@example.com", "header", "/auth/signin");
    expect(again.res.status).toBe(200);
    expect((await refresh(url, again.tokens)).status).toBe(200);
  });

  it("tells the operator when a rotation since the backup is undone, and that none is needed otherwise", async () => {
    const dir = tempDir();
    const database = join(dir, "auth.db");
    const env = { AUTHSVC_SECRET: SECRET };
    expect((await runCli(["keys", "list", "--database", database, "--create"], { env })).code).toBe(0);
    expect((await runCli(["backup", join(dir, "b.db"), "--database", database], { env })).code).toBe(0);
    const same = await runCli(["restore", join(dir, "b.db"), "--database", database, "--json"], { env });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).restorePoint.signingKey).toMatchObject({ rotate: false, reasons: [], advice: expect.stringMatching(/^no need to rotate the signing key/) });

    expect((await runCli(["keys", "rotate", "--database", database], { env })).code).toBe(0);
    const undone = await runCli(["restore", join(dir, "b.db"), "--database", database], { env });
    expect(undone.code).toBe(0);
    expect(undone.stdout).toMatch(/signing key: rotate the signing key/);
    expect(undone.stdout).toMatch(/signs with key \S+ again, older than \S+ that signed before: a rotation since the backup is undone/);
  });
});

describe.each(backends)("restore --mark-only after another tool restored the database ($name)", (backend) => {
  it("ends sessions and one-time tokens from before, on every running instance, and says so", async () => {
    const one = await createTestApp({ backend, config: { mode: "development" } });
    cleanup.push(() => one.close());
    const two = await createTestApp({ config: { database: one.config.database, mode: "development" } });
    cleanup.push(() => two.close());
    const ada = await signUp(one.url, "ada@example.com", "header");
    const token = await resetToken(one.url, "ada@example.com");
    expect((await refresh(two.url, ada.tokens)).status).toBe(200);

    const r = await runCli(["restore", "--mark-only", "--database", one.config.database]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ended 1 session\(s\)/);
    expect(r.stdout).toMatch(/voided 1 verification\/reset token\(s\)/);
    expect((await refresh(one.url, ada.tokens)).status).toBe(401);
    expect((await refresh(two.url, ada.tokens)).status).toBe(401);
    expect(await resetWith(two.url, token)).toBe("RESET_PASSWORD_INVALID_TOKEN_ERROR");
    const fresh = await postJson(`${two.url}/auth/signin`, credentials("ada@example.com"), { "st-auth-mode": "header" });
    expect(fresh.status).toBe(200);
  });

  it("is refused with a FILE, and restore without one asks for it, changing nothing", async () => {
    const t = await createTestApp({ backend });
    cleanup.push(() => t.close());
    const ada = await signUp(t.url, "ada@example.com", "header");
    expect((await runCli(["restore", "x.db", "--mark-only", "--database", t.config.database])).code).toBe(2);
    expect((await runCli(["restore", "--database", t.config.database])).code).toBe(2);
    expect((await refresh(t.url, ada.tokens)).status).toBe(200);
  });
});
