import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { startRelay } from "../helpers/mail.js";
import { freePort } from "../helpers/serve-process.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { listOutboxMessages } from "../../src/store/outbox.js";

describe("authsvc mail test", () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  beforeEach(async () => { relay = await startRelay(); });
  afterEach(async () => { await relay.close(); });

  it("prints the relay's exact answer", async () => {
    const r = await runCli(["mail", "test", "--to", "Ops@Example.com", "--smtp-url", relay.url, "--mail-from", "Acme <no-reply@acme.test>"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe("250 Ok: queued as TEST1");
    expect(relay.messages[0]).toMatchObject({ to: ["ops@example.com"], from: "no-reply@acme.test", subject: "authsvc test mail" });
  });

  it("prints the rejection and exits non-zero", async () => {
    relay.reject = "550 5.1.1 <ops@example.com>: Recipient address rejected";
    const r = await runCli(["mail", "test", "--to", "ops@example.com", "--smtp-url", relay.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("550 5.1.1 <ops@example.com>: Recipient address rejected");
  });

  it("says it could not connect (host:port and what to check) when nothing listens, not that the relay refused", async () => {
    const port = await freePort();
    const r = await runCli(["mail", "test", "--to", "ops@example.com", "--smtp-url", `smtp://127.0.0.1:${port}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^authsvc: could not connect to the SMTP relay at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED.*; check the host and port in --smtp-url \\(AUTHSVC_SMTP_URL\\), that the relay is running and that this machine may reach it$`, "m"));
    expect(r.stderr).not.toContain("refused the test mail");
    const catcher = await runCli(["mail", "test", "--to", "ops@example.com", "--mail-catcher-port", String(port)]);
    expect(catcher.stderr).toMatch(new RegExp(`could not connect to the built-in mail catcher at 127\\.0\\.0\\.1:${port}: .*; no --smtp-url is set, so this tries the built-in catcher: start \`authsvc serve\``));
  });

  it("says the relay refused, with its words, when it answered with a rejection", async () => {
    relay.reject = "554 5.7.1 Relay access denied";
    const r = await runCli(["mail", "test", "--to", "ops@example.com", "--smtp-url", relay.url]);
    expect(r.stderr).toBe(`sending a test mail to ops@example.com via ${relay.url.replace(/\/$/, "")} (loopback)\nauthsvc: the relay at ${new URL(relay.url).host} refused the test mail: 554 5.7.1 Relay access denied\n`);
  });

  it("refuses an address with a header injection attempt", async () => {
    const r = await runCli(["mail", "test", "--to", "ops@example.com\r\nBcc: x@evil.test", "--smtp-url", relay.url]);
    expect(r.code).toBe(2);
    expect(relay.messages).toHaveLength(0);
  });

  it("never prints the relay password, and refuses insecure opt-outs in production", async () => {
    const r = await runCli(["mail", "test", "--to", "ops@example.com", "--smtp-url", "smtp://user:hunter2secret@127.0.0.1:1/"]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain("hunter2secret");
    const p = await runCli(["mail", "test", "--to", "ops@example.com", "--smtp-url", "smtp://relay.example.com:587?verify=false", "--production", "--public-url", "https://auth.example.com"], { env: { AUTHSVC_SECRET: "x".repeat(32), AUTHSVC_BCRYPT_COST: "10", AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com" } });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("refused in production mode");
  });
});

describe.each(backends)("authsvc reset-password --send-link ($name)", (backend) => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestApp;
  beforeEach(async () => {
    relay = await startRelay();
    t = await createTestApp({ backend, listen: false });
  });
  afterEach(async () => {
    await t.close();
    await relay.close();
  });

  it("issues a token through the same core function and sends the reset mail", async () => {
    await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    const r = await runCli(["reset-password", "--email", "ada@example.com", "--send-link", "--database", t.config.database], { env: { AUTHSVC_SMTP_URL: relay.url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^reset link for ada@example.com \(valid until .*\) sent via smtp:\/\/127\.0\.0\.1/);
    expect(relay.messages).toHaveLength(1);
    expect(relay.messages[0].text).toMatch(/reset-password\?token=[A-Za-z0-9_-]{43}&tenantId=public/);
    const [row] = await listOutboxMessages(t.app.store.db);
    expect(row).toMatchObject({ kind: "password_reset", status: "sent", text_body: null });
  });

  it("says so for an unknown address and queues nothing", async () => {
    const r = await runCli(["reset-password", "--email", "nobody@example.com", "--send-link", "--database", t.config.database], { env: { AUTHSVC_SMTP_URL: relay.url } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no email/password account for nobody@example.com");
    expect(await listOutboxMessages(t.app.store.db)).toEqual([]);
  });
});
