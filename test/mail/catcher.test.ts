import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { eventually, startCli, waitForCaughtMail } from "../helpers/mail.js";
import { runCli } from "../helpers/cli.js";
import { startMailCatcher } from "../../src/mail/catcher.js";
import { listCaughtMail } from "../../src/store/caught-mail.js";
import { silentLogger } from "../../src/util/logger.js";

const run = promisify(execFile);

/** Sends one mail from a separate Node process with nodemailer, as any local app would. */
async function sendFromAnotherProcess(port: number, to: string, text: string, auth = false) {
  const script = `
    const nodemailer = require("nodemailer");
    const t = nodemailer.createTransport({ host: "127.0.0.1", port: ${port}, secure: false, ignoreTLS: true${auth ? ', auth: { user: "app", pass: "secret" }' : ""} });
    t.sendMail({ from: "App <app@example.org>", to: ${JSON.stringify(to)}, subject: "Hello from another app", text: ${JSON.stringify(text)},
      headers: { "X-Authsvc-Expires-At": "2030-01-01T00:00:00.000Z" } })
      .then((info) => { console.log(info.response); t.close(); }, (err) => { console.error(err.message); process.exit(1); });`;
  const { stdout } = await run(process.execPath, ["-e", script], { cwd: process.cwd(), timeout: 20_000 });
  return stdout.trim();
}

describe.each(backends)("built-in mail catcher ($name)", (backend) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ backend, config: { mailCatcher: true, mailCatcherPort: 0, mailCatcherRetention: 3 }, start: true, listen: false });
  });
  afterEach(async () => { await t.close(); });

  it("catches mail that another process sends with nodemailer and shows it in tail-mail --json", async () => {
    const { port } = t.app.mail.catcher()!;
    expect(port).toBeGreaterThan(0);
    const response = await sendFromAnotherProcess(port, "Dev@Example.com", "Open http://localhost:3000/auth/reset-password?token=abc_DEF-123&tenantId=public to continue.");
    expect(response).toMatch(/^250 /);
    await waitForCaughtMail(t.app, "dev@example.com");
    const r = await runCli(["tail-mail", "--json", "--database", t.config.database]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([{
      to: "dev@example.com",
      subject: "Hello from another app",
      action: "reset-password",
      link: "http://localhost:3000/auth/reset-password?token=abc_DEF-123&tenantId=public",
      token: "abc_DEF-123",
      code: null,
      expiresAt: "2030-01-01T00:00:00.000Z",
      receivedAt: new Date(t.clock.now()).toISOString(),
    }]);
    const human = await runCli(["tail-mail", "--database", t.config.database]);
    expect(human.stdout).toContain("action:  reset password");
    expect(human.stdout).toContain("\ntoken:\nabc_DEF-123\n");
    expect(human.stdout).toContain("\nlink:\nhttp://localhost:3000/auth/reset-password?token=abc_DEF-123&tenantId=public\n");
  });

  it("accepts AUTH from local apps, follows new mail with --follow and filters with --to", async () => {
    const { port } = t.app.mail.catcher()!;
    const follow = startCli(["tail-mail", "--follow", "--json", "--to", "b@example.com", "--database", t.config.database]);
    // --json prints nothing before following; give it its starting point by sending after a first mail.
    await sendFromAnotherProcess(port, "a@example.com", "first", true);
    await sendFromAnotherProcess(port, "b@example.com", "second http://x.test/verify-email?token=T1&tenantId=public", true);
    // Wait for the condition, not a fixed 5 s: a busy 2-core CI machine can take longer.
    try {
      await eventually(async () => follow.stdout().includes("T1"), 20_000);
    } finally {
      follow.interrupt();
    }
    const r = await follow.done;
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.to, l.action, l.token])).toEqual([["b@example.com", "verify-email", "T1"]]);
  });

  it("--wait --since finds mail that arrived before it started, so a script can send first and ask after", async () => {
    const { port } = t.app.mail.catcher()!;
    await sendFromAnotherProcess(port, "s@example.com", "old http://x.test/reset-password?token=OLD1&tenantId=public", true);
    await sendFromAnotherProcess(port, "s@example.com", "new http://x.test/reset-password?token=NEW2&tenantId=public", true);
    await waitForCaughtMail(t.app, "s@example.com");
    await eventually(async () => (await listCaughtMail(t.app.store.db, { to: "s@example.com" })).length === 2, 20_000);
    // Without --since, mail from before the start does not count: it times out.
    const plain = await runCli(["tail-mail", "--wait", "--timeout", "0.3", "--to", "s@example.com", "--database", t.config.database]);
    expect([plain.code, plain.stdout]).toEqual([1, ""]);
    // With --since, the newest matching mail in the window is the answer, at once.
    const r = await runCli(["tail-mail", "--wait", "--since", "1h", "--to", "s@example.com", "--database", t.config.database]);
    expect([r.code, r.stdout]).toEqual([0, "NEW2\n"]);
    const link = await runCli(["tail-mail", "--wait", "--since", "1h", "--print", "link", "--to", "s@example.com", "--database", t.config.database]);
    expect(link.stdout).toBe("http://x.test/reset-password?token=NEW2&tenantId=public\n");
  });

  it("--since and --print work without --wait: the recent mail only, and just the value asked for, one line each", async () => {
    const { port } = t.app.mail.catcher()!;
    await sendFromAnotherProcess(port, "p@example.com", "old http://x.test/reset-password?token=OLD1&tenantId=public", true);
    await sendFromAnotherProcess(port, "p@example.com", "new http://x.test/reset-password?token=NEW2&tenantId=public", true);
    await eventually(async () => (await listCaughtMail(t.app.store.db, { to: "p@example.com" })).length === 2, 20_000);
    const db = ["--to", "p@example.com", "--database", t.config.database];
    const tokens = await runCli(["tail-mail", "--print", "token", ...db]);
    expect([tokens.code, tokens.stdout]).toEqual([0, "OLD1\nNEW2\n"]);
    const links = await runCli(["tail-mail", "--since", "1h", "--print", "link", ...db]);
    expect([links.code, links.stdout]).toEqual([0, "http://x.test/reset-password?token=OLD1&tenantId=public\nhttp://x.test/reset-password?token=NEW2&tenantId=public\n"]);
    // The older one caught two hours ago (time is the one thing faked): --since 1h leaves it out.
    const old = (await listCaughtMail(t.app.store.db, { to: "p@example.com" }))[0]!;
    await t.app.store.db.updateTable("caught_mail").set({ received_at: Date.now() - 2 * 3_600_000 }).where("id", "=", old.id).execute();
    const recent = await runCli(["tail-mail", "--since", "1h", ...db]);
    expect(recent.code).toBe(0);
    expect(recent.stdout).toContain("NEW2");
    expect(recent.stdout).not.toContain("OLD1");
    expect((await runCli(["tail-mail", "--since", "soon", ...db])).code).toBe(2);
  });

  it("keeps only the newest messages and drops old ones", async () => {
    const { port } = t.app.mail.catcher()!;
    for (let i = 1; i <= 5; i++) await sendFromAnotherProcess(port, `n${i}@example.com`, `message ${i}`);
    let rows = await listCaughtMail(t.app.store.db);
    expect(rows.map((r) => r.to_address)).toEqual(["n3@example.com", "n4@example.com", "n5@example.com"]);
    t.clock.advance(t.config.mailCatcherMaxAgeMs + 1);
    await sendFromAnotherProcess(port, "n6@example.com", "message 6");
    rows = await listCaughtMail(t.app.store.db);
    expect(rows.map((r) => r.to_address)).toEqual(["n6@example.com"]);
  });

  it("refuses to listen on a non-loopback address", async () => {
    await expect(startMailCatcher({ store: t.app.store, clock: t.clock, logger: silentLogger, host: "0.0.0.0", port: 0, retention: 10, maxAgeMs: 60_000 }))
      .rejects.toThrow(/loopback only/);
  });

  it("tail-mail --wait times out with a non-zero exit when no new mail comes", async () => {
    const r = await runCli(["tail-mail", "--wait", "--timeout", "0.3", "--database", t.config.database]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no matching mail within 0.3s");
  });
});
