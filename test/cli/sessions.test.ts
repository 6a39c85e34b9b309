import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { credentials, jwtPayload, postJson, readTokens, refresh, signUp, type Tokens } from "../helpers/session-client.js";
import { insertUser } from "../../src/store/users.js";
import { insertIdentity } from "../../src/methods/third-party/store.js";

describe.each(backends)("authsvc sessions on $name", (backend) => {
  let t: TestApp;
  let userId = "";
  let a: Tokens, b: Tokens;
  const cli = (args: string[]) => runCli([...args, "--database", t.config.database]);
  const handleOf = (x: Tokens) => jwtPayload(x.access).sessionHandle as string;

  beforeEach(async () => {
    t = await createTestApp({ backend });
    const up = await signUp(t.url, "ada@example.com", "header");
    userId = (up.json.user as { id: string }).id;
    a = up.tokens;
    const res = await postJson(`${t.url}/auth/signin`, credentials("ada@example.com"), { rid: "emailpassword", "st-auth-mode": "header" });
    b = readTokens(res, "header", (await res.json()) as Record<string, unknown>);
  });
  afterEach(async () => { await t.close(); });

  it("list shows the live sessions by email or id, newest first, with --json", async () => {
    for (const ref of ["ADA@example.com", userId]) {
      const r = await cli(["sessions", "list", "--user", ref, "--json"]);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ userId, email: "ada@example.com" });
      expect(new Set(out.sessions.map((s: { handle: string }) => s.handle))).toEqual(new Set([handleOf(a), handleOf(b)]));
      expect(r.stdout).not.toMatch(/token|hash/i);
    }
    const text = await cli(["sessions", "list", "--user", "ada@example.com"]);
    expect(text.stdout).toContain(`${handleOf(a)}  created `);
    expect(text.stdout.trim().split("\n")).toHaveLength(2);
  });

  it("revoke --session ends that session only: its refresh fails, the other one still refreshes", async () => {
    const r = await cli(["sessions", "revoke", "--session", handleOf(a)]);
    expect(r).toMatchObject({ code: 0, stdout: `revoked session ${handleOf(a)}\n` });
    expect((await refresh(t.url, a)).status).toBe(401);
    expect((await refresh(t.url, b)).status).toBe(200);
    expect(await cli(["sessions", "revoke", "--session", handleOf(a)])).toMatchObject({ code: 0, stdout: `session ${handleOf(a)} had already ended\n` });
    expect(await cli(["sessions", "revoke", "--session", "no-such-handle"])).toMatchObject({ code: 1, stderr: "authsvc: no session no-such-handle\n" });
    const list = JSON.parse((await cli(["sessions", "list", "--user", userId, "--json"])).stdout);
    expect(list.sessions.map((s: { handle: string }) => s.handle)).toEqual([handleOf(b)]);
  });

  it("revoke --user ends every session of the user", async () => {
    const r = await cli(["sessions", "revoke", "--user", "ada@example.com", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ userId, email: "ada@example.com", revoked: 2, ended: { sessions: 2, "support-sessions": 0, "oauth-grants": 0 } });
    expect((await refresh(t.url, a)).status).toBe(401);
    expect((await refresh(t.url, b)).status).toBe(401);
    expect((await cli(["sessions", "list", "--user", userId])).stdout).toBe(`no live sessions for ada@example.com (${userId})\n`);
  });

  it("refuses usage errors (exit 2), unknown users (exit 1), and an address shared by two users (asks for the id)", async () => {
    expect((await cli(["sessions", "revoke"])).code).toBe(2);
    expect((await cli(["sessions", "revoke", "--user", userId, "--session", handleOf(a)])).code).toBe(2);
    expect((await cli(["sessions", "list"])).code).toBe(2);
    expect(await cli(["sessions", "list", "nobody@example.com"])).toMatchObject({ code: 1, stderr: "authsvc: no user nobody@example.com\n" });
    const now = t.clock.now();
    await insertUser(t.app.store.db, { id: "tp-user", email: "ada@example.com", time_joined: now + 1, updated_at: now + 1 });
    await insertIdentity(t.app.store.db, { provider_id: "github", provider_user_id: "42", user_id: "tp-user", email: "ada@example.com", created_at: now + 1, updated_at: now + 1 });
    const r = await cli(["sessions", "revoke", "--user", "ada@example.com"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ada@example.com belongs to 2 users");
    expect(r.stderr).toContain(`${userId}  emailpassword`);
    expect(r.stderr).toContain("tp-user  thirdparty:github");
    expect((await refresh(t.url, a)).status).toBe(200); // nothing was revoked
  });
});
