import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { readBlocks } from "../helpers/readme-blocks.js";
import { freePort, startServe } from "../helpers/serve-process.js";
import { credentials, postJson } from "../helpers/session-client.js";

/** The README's backend verification code (examples/verify-session.mjs), against a real `serve`. */
const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(ROOT, "examples/verify-session.mjs");

it("the README shows examples/verify-session.mjs verbatim", () => {
  const js = readBlocks(join(ROOT, "README.md")).filter((b) => b.lang === "js").map((b) => b.code);
  expect(js).toContain(readFileSync(EXAMPLE, "utf8"));
});

describe.each(backends)("verifying sessions in the app's backend on $name", (backend) => {
  let dir: string;
  let base: string;
  let server: { stop(): Promise<void> } | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let verifySession: (token: string, opts?: { requireVerifiedEmail?: boolean }) => Promise<{ userId: string; sessionHandle: string; emailVerified: boolean; expiresAt: number }>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-verify-"));
    db = backend.name === "sqlite" ? { url: join(dir, "authsvc.db"), drop: async () => {} } : await backend.create();
    const port = await freePort();
    base = `http://localhost:${port}`;
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("AUTHSVC_")));
    server = await startServe(dir, { ...env, AUTHSVC_DATABASE: db.url, AUTHSVC_PORT: String(port), AUTHSVC_BCRYPT_COST: "4", AUTHSVC_MAIL_CATCHER_PORT: "0", AUTHSVC_LOG_LEVEL: "warn" });
    // The example reads its configuration when it is loaded, as an app's module would.
    process.env.AUTHSVC_URL = base;
    ({ verifySession } = await import(`${EXAMPLE}?${backend.name}`));
  }, 60_000);

  afterAll(async () => {
    delete process.env.AUTHSVC_URL;
    await server?.stop();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function signUp(email: string) {
    const res = await postJson(`${base}/auth/signup`, credentials(email), { "authsvc-auth-mode": "body" });
    const json = (await res.json()) as { user: { id: string }; accessToken: string };
    return { userId: json.user.id, access: json.accessToken };
  }

  it("accepts a real access token and returns the user, session handle and st-ev", async () => {
    const { userId, access } = await signUp("backend@example.com");
    const s = await verifySession(access);
    expect(s).toMatchObject({ userId, emailVerified: false });
    expect(s.sessionHandle).toMatch(/.{16,}/);
    expect(s.expiresAt * 1000).toBeGreaterThan(Date.now());
    await expect(verifySession(access, { requireVerifiedEmail: true })).rejects.toThrow("email not verified");
  });

  it("rejects a token whose payload was changed, and one that is not a JWT", async () => {
    const { access } = await signUp("forger@example.com");
    const [h, p, sig] = access.split(".");
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...payload, sub: "someone-else" })).toString("base64url"), sig].join(".");
    await expect(verifySession(forged)).rejects.toMatchObject({ code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
    await expect(verifySession("not-a-jwt")).rejects.toMatchObject({ code: "ERR_JWS_INVALID" });
  });

  it("the revocation caveat holds: after sign-out the token still verifies locally, while authsvc says 401", async () => {
    const { userId, access } = await signUp("revoked@example.com");
    const out = await fetch(`${base}/auth/signout`, { method: "POST", headers: { authorization: `Bearer ${access}` } });
    expect(out.status).toBe(200);
    await expect(verifySession(access)).resolves.toMatchObject({ userId });
    const check = await fetch(`${base}/auth/user/email/verify`, { headers: { authorization: `Bearer ${access}` } });
    expect(check.status).toBe(401);
  });
});
