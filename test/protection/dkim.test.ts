import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { authenticate } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { startRelay } from "../helpers/mail.js";
import { call, emailOnly } from "../helpers/limits.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";

const FROM = "Acme <no-reply@acme.test>";

/** A port nothing listens on: a DNS server there answers nothing (as here, where DNS cannot be reached). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe.each(backends)("DKIM signing and `authsvc mail dns` on $name", (backend) => {
  let dir: string;
  let keyFile: string;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-dkim-"));
    keyFile = join(dir, "dkim.pem");
    writeFileSync(keyFile, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    relay = await startRelay();
    t = await createTestApp({ backend, config: { smtpUrl: relay.url, mailFrom: FROM, dkimPrivateKey: keyFile, dkimSelector: "mail2026" }, listen: true });
  });
  afterAll(async () => { await t.close(); await relay.close(); rmSync(dir, { recursive: true, force: true }); });

  it("signs a mail sent over SMTP so that mailauth verifies it (DKIM, SPF and DMARC) against the records `mail dns` printed", async () => {
    const dns = await runCli(["mail", "dns", "--json", "--smtp-url", relay.url, "--mail-from", FROM, "--dkim-private-key", keyFile, "--dkim-selector", "mail2026", "--dns-server", `127.0.0.1:${await closedPort()}`]);
    expect(dns.code).toBe(0);
    const printed = JSON.parse(dns.stdout) as { records: Array<{ kind: string; name: string; value: string; found: { status: string } }> };
    expect(printed.records.map((r) => [r.kind, r.name, r.found.status])).toEqual([["SPF", "acme.test", "unknown"], ["DKIM", "mail2026._domainkey.acme.test", "unknown"], ["DMARC", "_dmarc.acme.test", "unknown"]]);
    const zone = new Map(printed.records.map((r) => [r.name, [r.value.match(/.{1,255}/g)!]]));
    const resolver = async (name: string, rr: string) => {
      const found = rr === "TXT" ? zone.get(name) : undefined;
      if (!found) throw Object.assign(new Error(`${name} not found`), { code: "ENOTFOUND" });
      return found;
    };

    await signUpWithPassword(t.app.ctx, { email: "ada@example.com", password: "correct horse battery staple" });
    expect((await call(t, "/user/password/reset/token", emailOnly("ada@example.com"))).status).toBe(200);
    expect((await t.app.mail.flush()).sent).toBe(1);
    const raw = relay.messages.at(-1)!.raw;
    expect(raw.toString()).toMatch(/^DKIM-Signature: [\s\S]*?d=acme\.test;[\s\S]*?s=mail2026;/m);

    const verdict = await authenticate(raw, { ip: "127.0.0.1", helo: "localhost", sender: "no-reply@acme.test", mta: "mx.example.org", resolver });
    expect([verdict.dkim.results[0].status.result, verdict.spf && verdict.spf.status.result, verdict.dmarc && verdict.dmarc.status.result]).toEqual(["pass", "pass", "pass"]);

    // The check can fail: one changed byte of the body and the signature no longer verifies.
    const text = raw.toString("utf8");
    const at = text.indexOf("\r\n\r\n") + 10;
    const tampered = Buffer.from(text.slice(0, at) + (text[at] === "x" ? "y" : "x") + text.slice(at + 1));
    expect((await authenticate(tampered, { ip: "127.0.0.1", helo: "localhost", sender: "no-reply@acme.test", mta: "mx.example.org", resolver })).dkim.results[0].status.result).not.toBe("pass");
  });

  it("prints the records for people, and says so when DNS cannot be asked", async () => {
    const r = await runCli(["mail", "dns", "--mail-from", FROM, "--dkim-private-key", keyFile, "--dns-server", `127.0.0.1:${await closedPort()}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("authsvc._domainkey.acme.test. IN TXT \"v=DKIM1; k=rsa; p=");
    expect(r.stdout).toContain("_dmarc.acme.test. IN TXT \"v=DMARC1; p=quarantine");
    expect(r.stdout).toMatch(/in DNS: could not look it up \(E[A-Z]+\)/);
  });

  it("refuses a key other accounts can read, and one that is not an RSA key of 2048 bits", async () => {
    const loose = join(dir, "loose.pem");
    writeFileSync(loose, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }));
    chmodSync(loose, 0o644);
    const small = join(dir, "small.pem");
    writeFileSync(small, generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    const serve = (file: string) => runCli(["mail", "dns", "--mail-from", FROM, "--dkim-private-key", file, "--dns-server", "127.0.0.1:9"]);
    expect((await serve(loose)).stderr).toContain("other accounts can read it (mode 0644); run chmod 600 on it");
    expect((await serve(small)).stderr).toContain("2048 bits or more");
    // The server does not start with it either.
    await expect(createApp(testConfig({ database: ":memory:", dkimPrivateKey: loose }))).rejects.toThrow(/--dkim-private-key: .*run chmod 600/);
  });
});
