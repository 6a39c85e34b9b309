import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { backends } from "../helpers/backends.js";
import { readBlocks } from "../helpers/readme-blocks.js";
import { freePort, startServe } from "../helpers/serve-process.js";
import { credentials, postJson } from "../helpers/session-client.js";

/** The docs' backend verification code (examples/verify-session.mjs), against a real `serve`. */
const ROOT = resolve(import.meta.dirname, "../..");
const EXAMPLE = join(ROOT, "examples/verify-session.mjs");
const PY_EXAMPLE = join(ROOT, "examples/verify_session.py");
/** A Python with PyJWT (Debian's python3-jwt; .ci/run installs it): the system one first, pyenv shims lack it. */
const python = ["/usr/bin/python3", "python3"].find((p) => spawnSync(p, ["-c", "import jwt"]).status === 0);

it("docs/backend-sessions.md shows examples/verify-session.mjs and examples/verify_session.py verbatim", () => {
  const blocks = readBlocks(join(ROOT, "docs/backend-sessions.md"));
  expect(blocks.filter((b) => b.lang === "js").map((b) => b.code)).toContain(readFileSync(EXAMPLE, "utf8"));
  expect(blocks.filter((b) => b.lang === "python").map((b) => b.code)).toContain(readFileSync(PY_EXAMPLE, "utf8"));
});

/** Loads a fresh copy of the Node example with this environment (it reads it when loaded, as an app's module would). */
async function loadExample(env: Record<string, string>, tag: string) {
  const saved = { AUTHSVC_URL: process.env.AUTHSVC_URL, AUTHSVC_JWKS_URL: process.env.AUTHSVC_JWKS_URL };
  delete process.env.AUTHSVC_JWKS_URL;
  Object.assign(process.env, env);
  try {
    return (await import(`${EXAMPLE}?${tag}`)) as { verifySession: (token: string) => Promise<{ userId: string }> };
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

/** Runs the Python example as a backend would: `python3 examples/verify_session.py TOKEN`. */
function runPython(token: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(python!, [PY_EXAMPLE, token], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      ok({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

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

  it("carries the user's roles and permissions after a refresh, and requirePermission checks one (Node and Python)", async () => {
    const res = await postJson(`${base}/auth/signup`, credentials("roles@example.com"), { "authsvc-auth-mode": "body" });
    const json = (await res.json()) as { user: { id: string }; refreshToken: string };
    const env = { AUTHSVC_DATABASE: db!.url };
    expect((await runCli(["roles", "create", "editor", "posts:write"], { env })).code).toBe(0);
    expect((await runCli(["users", "roles", json.user.id, "--add", "editor"], { env })).code).toBe(0);
    const r = await fetch(`${base}/auth/session/refresh`, { method: "POST", headers: { authorization: `Bearer ${json.refreshToken}`, rid: "session", "authsvc-auth-mode": "body" } });
    const access = ((await r.json()) as { accessToken: string }).accessToken;
    const s = await verifySession(access) as Awaited<ReturnType<typeof verifySession>> & { roles: string[]; permissions: string[] };
    expect(s).toMatchObject({ userId: json.user.id, roles: ["editor"], permissions: ["posts:write"] });
    const { requirePermission } = (await import(`${EXAMPLE}?${backend.name}`)) as { requirePermission(s: unknown, p: string): void };
    expect(() => requirePermission(s, "posts:write")).not.toThrow();
    expect(() => requirePermission(s, "posts:delete")).toThrow("missing permission posts:delete");
    if (python) expect(JSON.parse((await runPython(access, { AUTHSVC_URL: base })).stdout)).toMatchObject({ roles: ["editor"], permissions: ["posts:write"] });
  });

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

  it("names the real cause when the issuer differs (127.0.0.1 is not the public URL's localhost)", async () => {
    const { access } = await signUp("issuer@example.com");
    const other = base.replace("localhost", "127.0.0.1");
    const { verifySession: wrongIssuer } = await loadExample({ AUTHSVC_URL: other }, `issuer-${backend.name}`);
    await expect(wrongIssuer(access)).rejects.toThrow(`token issuer is "${base}/auth", expected "${other}/auth"`);
  });

  it("fetches the keys from a separate (internal) JWKS URL while checking the public issuer", async () => {
    const { userId, access } = await signUp("internal@example.com");
    const internal = `${base.replace("localhost", "127.0.0.1")}/auth/jwt/jwks.json`;
    const { verifySession: viaInternal } = await loadExample({ AUTHSVC_URL: base, AUTHSVC_JWKS_URL: internal }, `jwks-${backend.name}`);
    await expect(viaInternal(access)).resolves.toMatchObject({ userId });
    const { verifySession: unreachable } = await loadExample({ AUTHSVC_URL: base, AUTHSVC_JWKS_URL: "http://127.0.0.1:9/auth/jwt/jwks.json" }, `down-${backend.name}`);
    await expect(unreachable(access)).rejects.toThrow("could not fetch the keys from http://127.0.0.1:9/auth/jwt/jwks.json");
  });

  it("Python (PyJWT): accepts a real token and returns its sub as the user id; names a wrong issuer; takes an internal JWKS URL", async () => {
    expect(python, "PyJWT is missing: apt-get install python3-jwt (.ci/run does)").toBeDefined();
    const { userId, access } = await signUp("python@example.com");
    const ok = await runPython(access, { AUTHSVC_URL: base });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ userId, emailVerified: false });
    const other = base.replace("localhost", "127.0.0.1");
    const wrong = await runPython(access, { AUTHSVC_URL: other });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`invalid session: token issuer is '${base}/auth', expected '${other}/auth'`);
    const internal = await runPython(access, { AUTHSVC_URL: base, AUTHSVC_JWKS_URL: `${other}/auth/jwt/jwks.json` });
    expect(JSON.parse(internal.stdout)).toMatchObject({ userId });
    const forged = await runPython(access.slice(0, -4) + "AAAA", { AUTHSVC_URL: base });
    expect([forged.code, forged.stderr]).toEqual([1, expect.stringContaining("invalid session: invalid token: Signature verification failed")]);
  });

  it("refuses a session whose second factor is still due (st-mfa.v false), in Node.js and Python", async () => {
    const { access } = await signUp("two-factor@example.com");
    const headers = { authorization: `Bearer ${access}`, "content-type": "application/json" };
    const dev = (await (await fetch(`${base}/auth/totp/device`, { method: "POST", headers, body: "{}" })).json()) as { deviceName: string; secret: string };
    const ok = await fetch(`${base}/auth/totp/device/verify`, { method: "POST", headers, body: JSON.stringify({ deviceName: dev.deviceName, totp: generateCode(dev.secret, Date.now()) }) });
    expect(((await ok.json()) as { status: string }).status).toBe("OK");
    const again = await postJson(`${base}/auth/signin`, credentials("two-factor@example.com"), { "authsvc-auth-mode": "body" });
    const pending = ((await again.json()) as { accessToken: string }).accessToken;
    await expect(verifySession(pending)).rejects.toMatchObject({ code: "MFA_REQUIRED", message: "second factor required" });
    if (python) expect(await runPython(pending, { AUTHSVC_URL: base })).toMatchObject({ code: 1, stderr: "invalid session: second factor required\n" });
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
