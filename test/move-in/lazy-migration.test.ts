import { spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.js";
import { createLogger } from "../../src/util/logger.js";
import { backends, type Backend } from "../helpers/backends.js";
import { ROOT } from "../helpers/doc-files.js";
import { readBlocks } from "../helpers/readme-blocks.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { useTempDirs } from "../helpers/temp-dirs.js";

const { tempDir } = useTempDirs("lazy-migration");
const SECRET = "lazy-migration-test-secret-0123456789abcdef";

/** The old system: a real HTTP server on port 0 whose answer each test chooses; it counts the calls it gets. */
interface OldSystem { url: string; calls: Array<{ auth?: string; body: { email: string; password: string } }>; answer: (req: { email: string; password: string }, res: ServerResponse) => void; close(): Promise<void> }

async function startOldSystem(): Promise<OldSystem> {
  const old: OldSystem = { url: "", calls: [], answer: () => undefined, close: async () => undefined };
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as { email: string; password: string };
    old.calls.push({ auth: req.headers.authorization, body });
    old.answer(body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  old.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check-password`;
  old.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return old;
}

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body));
/** The in-house system's users: ada's password would not pass authsvc's length rule; it is kept anyway. */
const knows = (users: Record<string, { password: string; user?: unknown }>) => (req: { email: string; password: string }, res: ServerResponse) => {
  const u = users[req.email];
  json(res, 200, u && u.password === req.password ? { verified: true, ...(u.user ? { user: u.user } : {}) } : { verified: false });
};

async function setUp(backend: Backend, config: Partial<Config> = {}) {
  const old = await startOldSystem();
  const logLines: string[] = [];
  const t = await createTestApp({ backend, config: { lazyMigrationUrl: old.url, lazyMigrationSecret: SECRET, lazyMigrationTimeoutMs: 300, limitSigninIp: "1000/15m", ...config }, logger: createLogger("debug", (l) => logLines.push(l)) });
  const signIn = async (email: string, password: string) => {
    const res = await postJson(`${t.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" });
    return { http: res.status, ...((await res.json()) as { status: string; user?: { id: string; loginMethods: Array<{ verified: boolean }> } }) };
  };
  const people = async (email: string) => (await t.app.store.db.selectFrom("users").select("id").where("email", "=", email).execute()).length;
  return { t, old, logLines, signIn, people, close: async () => { await t.close(); await old.close(); } };
}

describe.each(backends)("lazy migration from an old system's password check ($name)", (backend) => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => { s = await setUp(backend); });
  afterAll(async () => { await s.close(); });
  afterEach(() => { s.old.calls.length = 0; });

  it("moves a person in at their first sign-in, with the old id, verified flag, metadata and our own hash; the old system is asked once", async () => {
    s.old.answer = knows({ "ada@example.com": { password: "s3cret", user: { id: "cognito|42", emailVerified: true, metadata: { plan: "pro" } } } });
    const first = await s.signIn("ada@example.com", "s3cret");
    expect(first).toMatchObject({ http: 200, status: "OK", user: { id: "cognito|42", loginMethods: [{ verified: true }] } });
    expect(s.old.calls).toEqual([{ auth: `Bearer ${SECRET}`, body: { email: "ada@example.com", password: "s3cret" } }]);
    const cred = await s.t.app.store.db.selectFrom("email_password_credentials").select(["user_id", "password_hash"]).where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    expect(cred.user_id).toBe("cognito|42");
    expect(cred.password_hash).toMatch(/^bcrypt-sha384:\$2b\$04\$/);
    const meta = await s.t.app.store.db.selectFrom("user_metadata").select("data").where("user_id", "=", "cognito|42").executeTakeFirstOrThrow();
    expect(JSON.parse(meta.data)).toEqual({ plan: "pro" });
    // The app hears of it as a sign-up (events, webhooks) whose source says where the person came from.
    const event = await s.t.app.store.db.selectFrom("events").select("data").where("type", "=", "user.signed_up").where("user_id", "=", "cognito|42").executeTakeFirstOrThrow();
    expect(JSON.parse(event.data ?? "null")).toMatchObject({ method: "emailpassword", source: "lazy-migration" });
    // From now on the person is here: neither the right password nor a wrong one asks the old system.
    expect(await s.signIn("ada@example.com", "s3cret")).toMatchObject({ status: "OK", user: { id: "cognito|42" } });
    expect(await s.signIn("ada@example.com", "wrong!")).toMatchObject({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(s.old.calls).toHaveLength(1);
  });

  it("answers a password the old system refuses as a wrong password, and creates nobody", async () => {
    s.old.answer = knows({ "bob@example.com": { password: "right-password" } });
    expect(await s.signIn("bob@example.com", "wrong-password")).toEqual({ http: 200, status: "WRONG_CREDENTIALS_ERROR" });
    expect(s.old.calls).toHaveLength(1);
    expect(await s.people("bob@example.com")).toBe(0);
    // No user object: a person the old system knows without an id gets one of ours.
    const ok = await s.signIn("bob@example.com", "right-password");
    expect(ok).toMatchObject({ status: "OK", user: { loginMethods: [{ verified: false }] } });
    expect(ok.user!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["an answer that is not JSON", (res: ServerResponse) => json(res, 200, "<html>ok</html>")],
    ["\"verified\" that is not a boolean", (res: ServerResponse) => json(res, 200, { verified: "yes" })],
    ["no \"verified\" at all", (res: ServerResponse) => json(res, 200, { ok: true })],
    ["an id we would not import", (res: ServerResponse) => json(res, 200, { verified: true, user: { id: "has@sign" } })],
    ["emailVerified that is not a boolean", (res: ServerResponse) => json(res, 200, { verified: true, user: { emailVerified: "true" } })],
    ["metadata that is not an object", (res: ServerResponse) => json(res, 200, { verified: true, user: { metadata: [1] } })],
    ["metadata over --metadata-max-bytes", (res: ServerResponse) => json(res, 200, { verified: true, user: { metadata: { notes: "x".repeat(5000) } } })],
    ["\"verified\": true with a 500", (res: ServerResponse) => json(res, 500, { verified: true })],
    ["\"verified\": true with a 201", (res: ServerResponse) => json(res, 201, { verified: true })],
    ["a redirect (not followed: the password goes nowhere else)", (res: ServerResponse) => res.writeHead(307, { location: s.old.url }).end()],
  ])("treats %s as unavailable: a wrong password, nobody created, no 500", async (name, answer) => {
    s.old.answer = (_req, res) => answer(res);
    // An address per case: each failure counts against its address's budget.
    const email = `carol-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 40)}@example.com`;
    const logged = s.logLines.length;
    expect(await s.signIn(email, "her-password")).toEqual({ http: 200, status: "WRONG_CREDENTIALS_ERROR" });
    expect(s.old.calls).toHaveLength(1);
    expect(await s.people(email)).toBe(0);
    expect(s.logLines.slice(logged).some((l) => l.includes("lazy migration: the old system could not check a password"))).toBe(true);
  });

  it("answers a wrong password when the old system does not answer in time (the configured timeout)", async () => {
    s.old.answer = () => undefined; // holds the request until the server closes
    expect(await s.signIn("dan@example.com", "his-password")).toEqual({ http: 200, status: "WRONG_CREDENTIALS_ERROR" });
    expect(await s.people("dan@example.com")).toBe(0);
    expect(s.logLines.some((l) => l.includes("lazy migration") && l.includes("no answer within 300 ms"))).toBe(true);
  });

  it("never asks the old system about an address someone here has", async () => {
    s.old.answer = knows({ "erin@example.com": { password: "old-system-password" } });
    const up = await postJson(`${s.t.url}/auth/signup`, credentials("erin@example.com", "authsvc-password"), { rid: "emailpassword" });
    expect(((await up.json()) as { status: string }).status).toBe("OK");
    expect((await s.signIn("erin@example.com", "old-system-password")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await s.signIn("erin@example.com", "authsvc-password")).status).toBe("OK");
    expect(s.old.calls).toHaveLength(0);
  });

  it("creates one person when the same address signs in many times at once, and asks the old system once", async () => {
    s.old.answer = knows({ "fay@example.com": { password: "fays-password", user: { id: "legacy-7" } } });
    const all = await Promise.all(Array.from({ length: 4 }, () => s.signIn("fay@example.com", "fays-password")));
    expect(all.map((r) => r.status)).toEqual(Array(4).fill("OK"));
    expect(all.every((r) => r.user!.id === "legacy-7")).toBe(true);
    expect(s.old.calls).toHaveLength(1);
    expect(await s.people("fay@example.com")).toBe(1);
  });

  it("refuses, without a 500, a person whose old id belongs to someone else here", async () => {
    s.old.answer = knows({ "lee@example.com": { password: "lees-password", user: { id: "legacy-9" } }, "mo@example.com": { password: "mos-password", user: { id: "legacy-9" } } });
    expect(await s.signIn("lee@example.com", "lees-password")).toMatchObject({ status: "OK", user: { id: "legacy-9" } });
    expect(await s.signIn("mo@example.com", "mos-password")).toEqual({ http: 200, status: "WRONG_CREDENTIALS_ERROR" });
    expect(await s.people("mo@example.com")).toBe(0);
    expect(s.logLines.some((l) => l.includes("could not be created here") && l.includes("legacy-9"))).toBe(true);
  });

  it("keeps every password out of the log", async () => {
    s.old.answer = knows({ "gus@example.com": { password: "gus-Pa55word-in-log?" } });
    await s.signIn("gus@example.com", "gus-wrong-Pa55word");
    await s.signIn("gus@example.com", "gus-Pa55word-in-log?");
    s.old.answer = (_req, res) => json(res, 503, { error: "down" });
    await s.signIn("hal@example.com", "hal-Pa55word-in-log?");
    const log = s.logLines.join("\n");
    expect(log).toContain("moved a user in");
    expect(log).toContain("HTTP 503");
    for (const p of ["gus-Pa55word-in-log?", "gus-wrong-Pa55word", "hal-Pa55word-in-log?", SECRET]) expect(log).not.toContain(p);
  });
});

describe.each(backends)("lazy migration within the sign-in budgets ($name)", (backend) => {
  it("answers a wrong password when the old system is down, with a warning that names no password", async () => {
    const s = await setUp(backend);
    await s.old.close();
    expect(await s.signIn("ida@example.com", "ida-password")).toEqual({ http: 200, status: "WRONG_CREDENTIALS_ERROR" });
    expect(await s.people("ida@example.com")).toBe(0);
    const warning = s.logLines.find((l) => l.includes("the old system could not check a password"));
    expect(warning).toContain("ECONNREFUSED");
    expect(s.logLines.join("\n")).not.toContain("ida-password");
    await s.t.close();
  });

  it("stops asking about an address once its failed sign-ins are over budget, the right password included", async () => {
    const s = await setUp(backend, { limitSigninFailures: "3/1h", limitSigninFreeFailures: 2 });
    s.old.answer = knows({ "jo@example.com": { password: "jos-password" } });
    expect((await s.signIn("jo@example.com", "guess-1")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await s.signIn("jo@example.com", "guess-2")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await s.signIn("jo@example.com", "guess-3")).http).toBe(429);
    expect((await s.signIn("jo@example.com", "jos-password")).http).toBe(429);
    expect(s.old.calls).toHaveLength(2);
    await s.close();
  });

  it("stops asking for a client IP over its sign-in budget", async () => {
    const s = await setUp(backend, { limitSigninIp: "2/15m" });
    s.old.answer = knows({});
    expect((await s.signIn("k1@example.com", "password-1")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await s.signIn("k2@example.com", "password-2")).status).toBe("WRONG_CREDENTIALS_ERROR");
    expect((await s.signIn("k3@example.com", "password-3")).http).toBe(429);
    expect(s.old.calls.map((c) => c.body.email)).toEqual(["k1@example.com", "k2@example.com"]);
    await s.close();
  });
});

describe.each(backends)("the example endpoint of docs/moving-in.md ($name)", (backend) => {
  it("moves ada in through the documented endpoint and refuses callers without the secret", async () => {
    const block = readBlocks(join(ROOT, "docs/moving-in.md")).find((b) => b.heading === "Lazy migration" && b.lang === "js");
    expect(block).toBeDefined();
    const file = join(tempDir(), "check-password.mjs");
    writeFileSync(file, block!.code);
    const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: "0", AUTHSVC_LAZY_MIGRATION_SECRET: SECRET }, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
      const url = `http://127.0.0.1:${/listening on (\d+)/.exec(line)![1]}/`;
      expect((await fetch(url, { method: "POST", body: "{}" })).status).toBe(401);
      const t = await createTestApp({ backend, config: { lazyMigrationUrl: url, lazyMigrationSecret: SECRET } });
      try {
        const signIn = async (password: string) => (await (await postJson(`${t.url}/auth/signin`, credentials("ada@example.com", password), { rid: "emailpassword" })).json()) as { status: string; user?: { id: string } };
        expect(await signIn("wrong horse")).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
        expect(await signIn("correct horse")).toMatchObject({ status: "OK", user: { id: "legacy-42" } });
      } finally {
        await t.close();
      }
    } finally {
      child.kill();
    }
  });
});
