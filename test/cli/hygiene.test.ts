import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertIdentity } from "../../src/methods/third-party/store.js";
import { insertUser } from "../../src/store/users.js";
import { backends } from "../helpers/backends.js";
import { runBin } from "../helpers/bin.js";
import { runCli } from "../helpers/cli.js";
import { startRelay } from "../helpers/mail.js";
import { PW, useCliDatabase } from "./fixture.js";

describe.each(backends)("CLI hygiene on $name", (backend) => {
  const t = useCliDatabase(backend);
  let epId = "";
  beforeEach(async () => {
    await t.create();
    epId = JSON.parse((await t.cli(["users", "create", "ada@example.com", "--password-stdin", "--json"], { stdin: PW })).stdout).id;
  });
  const userCount = async () => (await t.store().db.selectFrom("users").select("id").execute()).length;

  /** A third-party user with the same address as the email/password one (a separate user). */
  async function addThirdPartyAda(): Promise<string> {
    const id = randomUUID();
    const db = t.store().db;
    await insertUser(db, { id, email: "ada@example.com", time_joined: Date.now() + 1000, updated_at: Date.now() });
    await insertIdentity(db, { provider_id: "github", provider_user_id: "gh-ada", user_id: id, email: "ada@example.com", created_at: Date.now(), updated_at: Date.now() });
    return id;
  }

  it("users delete needs --yes when no one is at a terminal, and changes nothing without it", async () => {
    const r = await t.cli(["users", "delete", "ada@example.com"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: "authsvc: users delete deletes for good; give --yes to confirm (no terminal to ask on)\n" });
    expect(await userCount()).toBe(1);
  });

  it("users delete on a terminal asks first: anything but yes keeps the user", async () => {
    const no = await t.cli(["users", "delete", "ada@example.com"], { terminal: true, stdin: "no\n" });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain(`delete ${epId}  ada@example.com`);
    expect(no.stderr).toContain("authsvc: not deleted");
    expect(await userCount()).toBe(1);
    const yes = await t.cli(["users", "delete", "ada@example.com"], { terminal: true, stdin: "yes\n" });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe(`deleted user ${epId} <ada@example.com>\n`);
    expect(await userCount()).toBe(0);
  });

  it("an email that belongs to two users is not guessed: the commands list both and ask for the id", async () => {
    const tpId = await addThirdPartyAda();
    for (const args of [["users", "show", "ada@example.com"], ["users", "verify", "ada@example.com"], ["users", "delete", "ada@example.com", "--yes"], ["reset-password", "ada@example.com", "--password-stdin"]]) {
      const r = await t.cli(args, { stdin: "a brand new passphrase" });
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(/^authsvc: ada@example\.com belongs to 2 users; give the id of the one you mean:\n/);
      expect(r.stderr).toMatch(new RegExp(`\\n  ${epId}  ada@example\\.com  unverified  emailpassword  joined .*\\n  ${tpId}  ada@example\\.com  unverified  thirdparty:github  joined `));
    }
    expect(await userCount()).toBe(2);
    const byId = await t.cli(["reset-password", epId, "--password-stdin"], { stdin: "a brand new passphrase" });
    expect(byId).toMatchObject({ code: 0, stdout: "password changed for ada@example.com; 0 session(s) revoked\n" });
    const del = await t.cli(["users", "delete", tpId, "--yes"]);
    expect(del.stdout).toBe(`deleted user ${tpId} <ada@example.com>\n`);
    expect((await t.cli(["users", "show", "ada@example.com", "--json"])).stdout).toContain(epId);
  });

  it("reset-password --send-link prints the link in development mode, never in production", async () => {
    const relay = await startRelay();
    try {
      const dev = await t.cli(["reset-password", "ada@example.com", "--send-link"], { env: { AUTHSVC_SMTP_URL: relay.url } });
      expect(dev.code, dev.stderr).toBe(0);
      const link = /^link \(development mode only\): (http:\/\/\S+reset-password\?token=[A-Za-z0-9_-]{43}&tenantId=public)$/m.exec(dev.stdout)?.[1];
      expect(link).toBeDefined();
      expect(relay.messages[0].text).toContain(link); // the very link that was mailed
      const json = JSON.parse((await t.cli(["reset-password", "ada@example.com", "--send-link", "--json"], { env: { AUTHSVC_SMTP_URL: relay.url } })).stdout);
      expect(json.link).toMatch(/reset-password\?token=/);
      const prod = await t.cli(["reset-password", "ada@example.com", "--send-link", "--production", "--bcrypt-cost", "10"], {
        env: { AUTHSVC_SMTP_URL: relay.url, AUTHSVC_PUBLIC_URL: "https://auth.example.com", AUTHSVC_SECRET: "s".repeat(40), AUTHSVC_MAIL_FROM: "Example <no-reply@example.com>", AUTHSVC_WEBSITE_URL: "https://app.example.com" },
      });
      expect(prod.code, prod.stderr).toBe(0);
      expect(prod.stdout).toMatch(/^reset link for ada@example\.com \(valid until .*\) sent via /);
      expect(prod.stdout).not.toMatch(/token=/);
      expect(relay.messages).toHaveLength(3);
    } finally {
      await relay.close();
    }
  });
});

describe("a SQLite path that does not exist", () => {
  let dir = "";
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), "authsvc-hygiene-")); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is refused by admin commands (exit 1, nothing created); --create and migrate make it", async () => {
    const typo = join(dir, "typo.db");
    for (const args of [["users", "list"], ["users", "show", "a@example.com"], ["keys", "list"], ["reset-password", "a@example.com", "--send-link"]]) {
      const r = await runCli([...args, "--database", typo]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toBe(`authsvc: no database at ${typo}; check --database (AUTHSVC_DATABASE), or create it with \`authsvc migrate --database ${typo}\` (or give --create)\n`);
      expect(existsSync(typo)).toBe(false);
    }
    expect(await runCli(["users", "list", "--create", "--database", typo])).toMatchObject({ code: 0, stdout: "no users\n" });
    expect(existsSync(typo)).toBe(true);
    const other = join(dir, "other.db");
    expect((await runCli(["migrate", "--database", other])).code).toBe(0);
    expect((await runCli(["users", "list", "--database", other])).code).toBe(0);
  });

  it("is refused by the built binary too", async () => {
    const typo = join(dir, "typo.db");
    const r = await runBin(["users", "list", "--database", typo]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`authsvc: no database at ${typo}`);
    expect(existsSync(typo)).toBe(false);
  });
});
