import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hash as bcryptHash } from "@node-rs/bcrypt";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { main } from "../../src/cli/main.js";
import type { CliIO } from "../../src/cli/io.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { insertIdentity } from "../../src/methods/third-party/store.js";
import { insertUser, markEmailVerified } from "../../src/store/users.js";
import { createPasswordlessUser } from "../../src/methods/passwordless/consume.js";
import { insertAccount, insertCredential } from "../../src/methods/webauthn/store.js";
import { getUser } from "../../src/core/users.js";
import { listUserPage } from "../../src/core/user-directory.js";
import { pwPost, startFlow } from "../helpers/passwordless.js";

const dir = mkdtempSync(join(tmpdir(), "authsvc-transfer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const tmpFile = (content?: string) => {
  const f = join(dir, `f${++n}.jsonl`);
  if (content !== undefined) writeFileSync(f, content);
  return f;
};
const PASSWORDS: Record<string, string> = { "ada@example.com": "ada horse battery staple", "bob@example.com": "bob horse battery staple", "both@example.com": "both horse battery staple" };

describe.each(backends)("users export / import ($name)", (backend) => {
  let src: TestApp, dst: TestApp;
  beforeEach(async () => {
    src = await createTestApp({ backend, listen: false });
    dst = await createTestApp({ backend });
  });
  afterEach(async () => { await src.close(); await dst.close(); });
  const signIn = (email: string, password: string) => postJson(`${dst.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" }).then((r) => r.json());
  const storedHash = async (email: string) => (await dst.app.store.db.selectFrom("email_password_credentials").select("password_hash").where("email", "=", email).executeTakeFirstOrThrow()).password_hash;

  async function seedSource(): Promise<void> {
    const ctx = src.app.ctx;
    for (const [email, password] of Object.entries(PASSWORDS)) {
      const r = await signUpWithPassword(ctx, { email, password, verified: email === "ada@example.com" });
      if (r.status !== "OK") throw new Error("sign-up failed");
      src.clock.advance(1000);
      if (email === "both@example.com") {
        await insertIdentity(ctx.store.db, { provider_id: "google", provider_user_id: "g-1", user_id: r.user.id, email: "both@gmail.com", created_at: src.clock.now(), updated_at: src.clock.now() });
        await markEmailVerified(ctx.store.db, r.user.id, "both@gmail.com", src.clock.now());
      }
    }
    const now = src.clock.now();
    await insertUser(ctx.store.db, { id: "tp-only", email: "carol@example.com", time_joined: now, updated_at: now });
    await insertIdentity(ctx.store.db, { provider_id: "github", provider_user_id: "42", user_id: "tp-only", email: "carol@example.com", created_at: now, updated_at: now });
  }

  it("a linked user (a password and a Google login) travels as one record and arrives as one user whose password signs in", async () => {
    const ctx = src.app.ctx;
    const r = await signUpWithPassword(ctx, { email: "dora@example.com", password: "dora horse battery staple", verified: true });
    if (r.status !== "OK") throw new Error("sign-up failed");
    src.clock.advance(1000);
    const tp = await upsertThirdPartyUser(ctx, { thirdPartyId: "google", thirdPartyUserId: "g-dora", email: "dora@example.com", emailVerified: true });
    expect(tp).toMatchObject({ status: "OK", user: { id: r.user.id, isPrimaryUser: true } });
    const file = tmpFile();
    expect((await runCli(["users", "export", "--output", file, "--database", src.config.database])).stderr).toBe(`exported 1 user(s) to ${file}\n`);
    const [record] = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(record).toMatchObject({ id: r.user.id, loginMethods: [{ recipeId: "emailpassword", passwordHash: expect.any(String) }, { recipeId: "thirdparty", thirdParty: { id: "google", userId: "g-dora" } }] });
    expect((await runCli(["users", "import", file, "--database", dst.config.database])).code).toBe(0);
    expect(await signIn("dora@example.com", "dora horse battery staple")).toMatchObject({ status: "OK", user: { id: r.user.id, loginMethods: [{ recipeId: "emailpassword" }, { recipeId: "thirdparty" }] } });
  });

  it("a passwordless user travels and signs in with a code on the new server; a passkey login is listed but stays behind", async () => {
    const ctx = src.app.ctx;
    const pw = await createPasswordlessUser(ctx, { email: "erin@example.com", source: "test" });
    if (pw.status !== "OK") throw new Error("passwordless user");
    const up = await signUpWithPassword(ctx, { email: "finn@example.com", password: "finn horse battery staple", verified: true });
    if (up.status !== "OK") throw new Error("sign-up failed");
    const now = src.clock.now();
    await insertUser(ctx.store.db, { id: "pk-finn", email: "finn@example.com", time_joined: now, updated_at: now, primary_user_id: up.user.id });
    await insertAccount(ctx.store.db, { user_id: "pk-finn", email: "finn@example.com", created_at: now });
    await insertCredential(ctx.store.db, { id: "cred-1", user_id: "pk-finn", rp_id: "localhost", public_key: "pk", counter: 0, transports: null, created_at: now, last_used_at: null });
    // Lists (admin API, CLI, dashboard, export) show every login method, as the one-user view does.
    const listed = (await listUserPage(ctx)).users;
    for (const u of listed) expect(u.loginMethods, u.email).toEqual((await getUser(ctx, u.id))!.loginMethods);
    expect(listed.find((u) => u.email === "finn@example.com")!.loginMethods.map((m) => m.recipeId)).toEqual(["emailpassword", "webauthn"]);

    const file = tmpFile();
    expect((await runCli(["users", "export", "--output", file, "--database", src.config.database])).code).toBe(0);
    const records = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(records.find((r) => r.email === "erin@example.com").loginMethods).toEqual([expect.objectContaining({ recipeId: "passwordless", email: "erin@example.com", verified: true })]);
    expect(records.find((r) => r.email === "finn@example.com").loginMethods.map((m: { recipeId: string }) => m.recipeId)).toEqual(["emailpassword"]);

    const target = await createTestApp({ backend, start: true, config: { mode: "production", mailCatcher: true, mailCatcherPort: 0, smtpUrl: undefined } });
    try {
      expect(await runCli(["users", "import", file, "--database", target.config.database])).toMatchObject({ code: 0, stdout: `imported ${file}: 2 created, 0 skipped (duplicates), 0 refused\n` });
      expect((await runCli(["users", "import", file, "--database", target.config.database])).stdout).toMatch(new RegExp(`^imported ${file}: 0 created, 2 skipped \\(duplicates\\), 0 refused\n`));
      const flow = await startFlow(target, "erin@example.com");
      const signedIn = await pwPost(target, "/signinup/code/consume", { deviceId: flow.deviceId, preAuthSessionId: flow.preAuthSessionId, userInputCode: flow.code });
      expect(signedIn.json).toMatchObject({ status: "OK", createdNewRecipeUser: false, user: { id: pw.user.id, loginMethods: [{ recipeId: "passwordless", email: "erin@example.com" }] } });
    } finally {
      await target.close();
    }
  });

  it("export → import into an empty database gives the same users, and every password signs in over HTTP", async () => {
    await seedSource();
    const file = tmpFile();
    const exp = await runCli(["users", "export", "--output", file, "--database", src.config.database]);
    expect(exp).toMatchObject({ code: 0, stderr: `exported 4 user(s) to ${file}\n` });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const records = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((r) => r.email)).toEqual(["ada@example.com", "bob@example.com", "both@example.com", "carol@example.com"]);
    expect(records[0]).toMatchObject({ verified: true, loginMethods: [{ recipeId: "emailpassword", verified: true, passwordHash: expect.stringMatching(/^bcrypt-sha384:\$2b\$04\$/) }] });
    expect(records[2].loginMethods).toEqual([
      expect.objectContaining({ recipeId: "emailpassword", email: "both@example.com", verified: false }),
      expect.objectContaining({ recipeId: "thirdparty", email: "both@gmail.com", verified: true, thirdParty: { id: "google", userId: "g-1" } }),
    ]);
    expect(records[3].loginMethods).toEqual([expect.objectContaining({ recipeId: "thirdparty", thirdParty: { id: "github", userId: "42" } })]);

    const imp = await runCli(["users", "import", file, "--database", dst.config.database]);
    expect(imp).toMatchObject({ code: 0, stdout: `imported ${file}: 4 created, 0 skipped (duplicates), 0 refused\n` });
    const again = await runCli(["users", "export", "--database", dst.config.database]);
    expect(again.stdout).toBe(readFileSync(file, "utf8"));
    for (const [email, password] of Object.entries(PASSWORDS)) {
      expect(await signIn(email, password), email).toMatchObject({ status: "OK", user: { email } });
      expect(await signIn(email, password + "!")).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    }
  });

  it("a bcrypt hash made elsewhere ($2a$, $2y$, another cost) signs in with the old password and is rehashed to ours", async () => {
    const make = async (password: string, prefix: string) => prefix + (await bcryptHash(password, { cost: 5 })).slice(4);
    const lines = [
      JSON.stringify({ email: "Legacy.A@Example.com", passwordHash: await make("legacy password a", "$2a$"), verified: true }),
      JSON.stringify({ id: "php-7", email: "legacy.y@example.com", timeJoined: 1_500_000_000_000, passwordHash: await make("legacy password y", "$2y$") }),
    ];
    const file = tmpFile(lines.join("\r\n") + "\r\n");
    expect((await runCli(["users", "import", file, "--database", dst.config.database])).code).toBe(0);
    expect(await signIn("legacy.a@example.com", "wrong password a")).toEqual({ status: "WRONG_CREDENTIALS_ERROR" });
    expect(await storedHash("legacy.a@example.com")).toMatch(/^\$2a\$05\$/);
    for (const [email, password] of [["legacy.a@example.com", "legacy password a"], ["legacy.y@example.com", "legacy password y"]]) {
      expect(await signIn(email, password)).toMatchObject({ status: "OK", user: { email } });
      expect(await storedHash(email)).toMatch(/^bcrypt-sha384:\$2b\$04\$/);
      expect(await signIn(email, password)).toMatchObject({ status: "OK" });
    }
    const y = JSON.parse((await runCli(["users", "show", "php-7", "--json", "--database", dst.config.database])).stdout);
    expect(y).toMatchObject({ id: "php-7", timeJoined: 1_500_000_000_000, loginMethods: [{ verified: false }] });
  });

  it("skips duplicates, refuses bad rows with line numbers, changes nothing on --dry-run, and is idempotent", async () => {
    const h = (await bcryptHash("some password", { cost: 4 }));
    const taken = await signUpWithPassword(dst.app.ctx, { email: "taken@example.com", password: "taken horse battery staple" });
    if (taken.status !== "OK") throw new Error("sign-up failed");
    const rows = [
      JSON.stringify({ email: "one@example.com", passwordHash: h }), // 1 created
      JSON.stringify({ email: "ONE@example.com", passwordHash: h }), // 2 duplicate of line 1
      "{not json", // 3 refused
      "", // 4 blank: ignored
      JSON.stringify({ email: "bad-hash@example.com", passwordHash: "$2b$04$short" }), // 5 refused
      JSON.stringify({ email: "taken@example.com", passwordHash: h }), // 6 exists in the database
      JSON.stringify({ passwordHash: h }), // 7 refused: no email
      JSON.stringify({ email: "tp@example.com", loginMethods: [{ recipeId: "thirdparty", thirdParty: { id: "github", userId: 7 } }] }), // 8 created
      JSON.stringify({ email: "cost@example.com", passwordHash: h.replace("$04$", "$31$") }), // 9 refused: cost
      JSON.stringify({ email: "x@example.com", loginMethods: [{ recipeId: "saml" }] }), // 10 refused
    ];
    const file = tmpFile(rows.join("\n"));
    const count = async () => (await dst.app.store.db.selectFrom("users").select("id").execute()).length;

    const dry = await runCli(["users", "import", file, "--dry-run", "--json", "--database", dst.config.database]);
    expect(dry.code).toBe(1);
    const dr = JSON.parse(dry.stdout);
    expect(dr).toMatchObject({ dryRun: true, lines: 9, created: 2, skipped: 2, refused: 5 });
    expect(await count()).toBe(1);

    const real = await runCli(["users", "import", file, "--database", dst.config.database]);
    expect(real.code).toBe(1);
    expect(real.stderr).toBe("authsvc: 5 row(s) refused; the other rows were imported\n");
    expect(real.stdout).toBe([
      `imported ${file}: 2 created, 2 skipped (duplicates), 5 refused`,
      "  line 2: skipped: duplicate of line 1",
      "  line 3: refused: not valid JSON",
      "  line 5: refused: loginMethods[0].passwordHash: bcrypt hash is not $2a$, $2b$ or $2y$ with 60 characters",
      `  line 6: skipped: the address taken@example.com belongs to user ${taken.user.id}`,
      "  line 7: refused: email is missing or not a string",
      "  line 9: refused: loginMethods[0].passwordHash: bcrypt hash: bcrypt cost 31 is out of bounds (4 to 16)",
      "  line 10: refused: loginMethods[0].recipeId must be \"emailpassword\", \"thirdparty\" or \"passwordless\"",
      "",
    ].join("\n"));
    expect(await count()).toBe(3);
    expect(await signIn("one@example.com", "some password")).toMatchObject({ status: "OK" });

    const second = JSON.parse((await runCli(["users", "import", file, "--json", "--database", dst.config.database])).stdout);
    expect(second).toMatchObject({ created: 0, skipped: 4, refused: 5 });
    expect(second.skippedRows.map((r: { line: number }) => r.line)).toEqual([1, 2, 6, 8]);
    expect(await count()).toBe(3);
  });

  it("draws a progress bar only when standard error is a terminal", async () => {
    const h = await bcryptHash("some password", { cost: 4 });
    const file = tmpFile(Array.from({ length: 30 }, (_, i) => JSON.stringify({ email: `p${i}@example.com`, passwordHash: h })).join("\n"));
    let drawn = "", stdout = "", stderr = "";
    const io: CliIO = {
      out: (t) => { stdout += t + "\n"; }, err: (t) => { stderr += t + "\n"; },
      stdin: Readable.from([]), env: { AUTHSVC_LOG_LEVEL: "error" },
      stderrTTY: { write: (t) => { drawn += t; }, columns: 120 },
    };
    expect(await main(["node", "authsvc", "users", "import", file, "--database", dst.config.database], io)).toBe(0);
    expect(drawn).toContain("importing [########################] 100%  writing: 30 rows, 30 created, 0 skipped, 0 refused, 0 conflicts");
    expect(drawn.endsWith("\r\x1b[2K")).toBe(true); // the bar is cleared before the report
    expect(stdout).toContain("30 created");
    const piped = await runCli(["users", "import", file, "--database", dst.config.database]);
    expect(piped.stderr).not.toContain("\r");
  });

  it("export refuses an unknown format (exit 2) and an existing output file; import a missing file", async () => {
    expect((await runCli(["users", "export", "--format", "csv", "--database", src.config.database])).code).toBe(2);
    const existing = tmpFile("keep me");
    const r = await runCli(["users", "export", "--output", existing, "--database", src.config.database]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("exists; choose a new file name");
    expect(readFileSync(existing, "utf8")).toBe("keep me");
    expect(await runCli(["users", "import", join(dir, "missing.jsonl"), "--database", src.config.database])).toMatchObject({ code: 1, stderr: `authsvc: cannot read ${join(dir, "missing.jsonl")}: no such file or directory (ENOENT)\n` });
  });
});
