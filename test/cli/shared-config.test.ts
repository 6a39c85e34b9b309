import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/database.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { runCli } from "../helpers/cli.js";
import { freePort, startServe } from "../helpers/serve-process.js";

const PW = "correct horse battery staple";

/** The page a reset link opens, without its one-time token. */
const pageOf = (link: string) => { const u = new URL(link); return `${u.origin}${u.pathname}`; };

describe("serve and the admin commands read one configuration", () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => { while (cleanup.length) await cleanup.pop()!(); });

  it("reset-password --send-link, given the config file serve runs with, links to the page the running serve mails", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-shared-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const file = join(dir, "authsvc.json");
    // Hosted pages on: mail links point at this server, not at the website URL.
    writeFileSync(file, JSON.stringify({ database: join(dir, "authsvc.db"), port, hostedPages: true, websiteUrl: "http://localhost:3000", mailCatcherPort: 0 }));
    const env = { AUTHSVC_CONFIG: file };
    const made = await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--create"], { stdin: PW, env });
    expect(made.code, made.stderr).toBe(0);

    const serve = await startServe(dir, { PATH: process.env.PATH, AUTHSVC_BCRYPT_COST: "4", AUTHSVC_LOG_LEVEL: "error", ...env });
    cleanup.push(() => serve.stop());
    const res = await fetch(`http://127.0.0.1:${port}/auth/user/password/reset/token`, {
      method: "POST",
      headers: { "content-type": "application/json", rid: "emailpassword" },
      body: JSON.stringify({ formFields: [{ id: "email", value: "ada@example.com" }] }),
    });
    expect(res.status).toBe(200);
    const store = openStore({ url: join(dir, "authsvc.db") });
    cleanup.push(() => store.close());
    const [mailed] = await listOutboxMessages(store.db, { to: "ada@example.com" });
    const mailedLink = /https?:\/\/\S+reset-password\?token=[^\s"<]+/.exec(mailed.text_body ?? "")![0];
    expect(pageOf(mailedLink)).toBe(`http://localhost:${port}/auth/reset-password`);

    const cli = await runCli(["reset-password", "--email", "ada@example.com", "--send-link", "--json"], { env });
    expect(cli.code, cli.stderr).toBe(0);
    expect(pageOf(JSON.parse(cli.stdout).link)).toBe(pageOf(mailedLink));
  });

  it("an admin command takes every setting serve takes as a flag, so a serve command line's flags carry over", async () => {
    const dir = mkdtempSync(join(tmpdir(), "authsvc-shared-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, "authsvc.db");
    expect((await runCli(["create-user", "--email", "ada@example.com", "--password-stdin", "--create", "--database", db], { stdin: PW })).code).toBe(0);
    const r = await runCli(["reset-password", "--email", "ada@example.com", "--send-link", "--json", "--database", db, "--hosted-pages", "--port", "4100", "--no-mail-catcher"]);
    expect(r.code, r.stderr).toBe(0);
    expect(pageOf(JSON.parse(r.stdout).link)).toBe("http://localhost:4100/auth/reset-password");
    // Listed in serve's --help, accepted but not listed in the admin command's.
    const help = await runCli(["reset-password", "--help"]);
    expect(help.stdout).not.toContain("--hosted-pages");
    expect(help.stdout).toContain("Every setting of `authsvc serve` is accepted too");
  });
});
