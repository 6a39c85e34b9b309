import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { findCodeStep, generateAdminCode } from "../../src/dashboard/accounts/second-factor.js";
import { signInAdmin } from "../../src/dashboard/accounts/sign-in.js";
import { listEvents } from "../../src/store/events.js";
import { createManualClock } from "../../src/util/clock.js";
import { backends } from "../helpers/backends.js";
import { runBin } from "../helpers/bin.js";
import { PW, useCliDatabase } from "./fixture.js";

const SECRET = "a server secret of at least thirty-two characters";
// One fixed time for the sign-ins (an injected clock): a test never straddles a 30 s step.
const NOW = Date.now();
const step = () => Math.floor(NOW / 30_000);

describe.each(backends)("authsvc admins on $name", (backend) => {
  const t = useCliDatabase(backend);
  beforeEach(async () => { await t.create(); });

  /** Signs in through the core sign-in, as the dashboard does, with a code of the given step. */
  async function signIn(email: string, password: string, secret: string, at = step()): Promise<string> {
    const app = await createApp(testConfig({ database: t.url(), secret: SECRET }), { clock: createManualClock(NOW) });
    try {
      return (await signInAdmin(app.ctx, { email, password, code: generateAdminCode(secret, at), ipKey: "127.0.0.1", ip: "127.0.0.1", userAgent: null })).status;
    } finally {
      await app.close();
    }
  }

  it("create prints the second factor once (secret, otpauth URI, QR code); the database holds it sealed and the password hashed", async () => {
    const r = await t.cli(["admins", "create", "Root@Example.com", "--password-stdin"], { stdin: `${PW}\n`, env: { AUTHSVC_SECRET: SECRET } });
    expect(r.code, r.stderr).toBe(0);
    const secret = /secret: ([A-Z2-7]+)/.exec(r.stdout)![1];
    expect(r.stdout).toMatch(/^created admin [0-9a-f-]{36} <root@example\.com>/);
    expect(r.stdout).toContain(`otpauth://totp/`);
    expect(r.stdout).toMatch(/[▀▄█]/); // the terminal QR code
    const row = await t.store().db.selectFrom("admins").selectAll().executeTakeFirstOrThrow();
    expect(row.totp_secret_enc).toMatch(/^enc:v1:/);
    expect(row.totp_secret_enc).not.toContain(secret);
    expect(row.password_hash).toMatch(/^bcrypt-sha384:\$2b\$04\$/);
    expect(await signIn("root@example.com", PW, secret)).toBe("OK");
    expect(findCodeStep(secret, generateAdminCode(secret, step()), NOW)).toBe(step());
    const events = await listEvents(t.store().db, { adminId: row.id });
    expect(events.map((e) => e.type)).toEqual(["admin.created", "admin.signed_in"]);
  });

  it("create asks for the password twice on a terminal, and refuses bad input with a clear message, changing nothing", async () => {
    const asked = await t.cli(["admins", "create", "ops@example.com", "--json"], { stdin: `${PW}\n${PW}\n`, terminal: true });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toContain("Password for admin ops@example.com");
    expect(JSON.parse(asked.stdout)).toMatchObject({ email: "ops@example.com", totpSecret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUri: expect.stringMatching(/^otpauth:\/\/totp\//) });
    const differ = await t.cli(["admins", "create", "two@example.com"], { stdin: `${PW}\nanother one\n`, terminal: true });
    expect(differ.code).toBe(2);
    expect(differ.stderr).toContain("the two passwords differ");
    const noTerminal = await t.cli(["admins", "create", "two@example.com"]);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain("--password-stdin");
    const weak = await t.cli(["admins", "create", "two@example.com", "--password-stdin"], { stdin: "short" });
    expect(weak.code).toBe(2);
    expect(weak.stderr).toMatch(/at least 8 characters/);
    const twice = await t.cli(["admins", "create", "OPS@example.com", "--password-stdin"], { stdin: PW });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("already exists");
    const list = JSON.parse((await t.cli(["admins", "list", "--json"])).stdout);
    expect(list.map((a: { email: string }) => a.email)).toEqual(["ops@example.com"]);
  });

  it("reset-password and reset-2fa end the admin's sessions; the old password and the old secret stop working; --remove leaves no second factor", async () => {
    const made = JSON.parse((await t.cli(["admins", "create", "root@example.com", "--password-stdin", "--json"], { stdin: PW, env: { AUTHSVC_SECRET: SECRET } })).stdout);
    expect(await signIn("root@example.com", PW, made.totpSecret, step() - 1)).toBe("OK");
    expect((await t.cli(["admins", "list"])).stdout).toMatch(/root@example\.com {2}2fa {2}1 session\(s\)/);

    const pw = await t.cli(["admins", "reset-password", "root@example.com", "--password-stdin"], { stdin: "a new admin passphrase" });
    expect(pw.stdout).toBe("password changed for admin root@example.com; 1 session(s) ended\n");
    expect(await signIn("root@example.com", PW, made.totpSecret, step())).toBe("WRONG_CREDENTIALS");

    const twoFa = await t.cli(["admins", "reset-2fa", "root@example.com", "--json"], { env: { AUTHSVC_SECRET: SECRET } });
    const fresh = JSON.parse(twoFa.stdout).totpSecret as string;
    expect(fresh).not.toBe(made.totpSecret);
    expect(await signIn("root@example.com", "a new admin passphrase", made.totpSecret, step() + 1)).toBe("WRONG_CREDENTIALS");
    expect(await signIn("root@example.com", "a new admin passphrase", fresh, step() + 1)).toBe("OK");

    const removed = await t.cli(["admins", "reset-2fa", "root@example.com", "--remove"]);
    expect(removed.stdout).toBe("second factor removed for admin root@example.com; 1 session(s) ended\n");
    expect((await t.cli(["admins", "list"])).stdout).toContain("NO 2FA (cannot sign in)");
    expect(await signIn("root@example.com", "a new admin passphrase", fresh, step() + 1)).toBe("NO_SECOND_FACTOR");
  });

  it("remove needs --yes off a terminal, removes the admin and their sessions, keeps their events; unknown admins are named", async () => {
    await t.cli(["admins", "create", "root@example.com", "--password-stdin"], { stdin: PW });
    const unsure = await t.cli(["admins", "remove", "root@example.com"]);
    expect(unsure.code).toBe(2);
    const r = await t.cli(["admins", "remove", "root@example.com", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect((await t.cli(["admins", "list"])).stdout).toContain("no admins yet");
    const events = await listEvents(t.store().db, { type: "admin.removed" });
    expect(events).toHaveLength(1);
    expect(events[0].admin_id).not.toBeNull();
    const unknown = await t.cli(["admins", "reset-2fa", "nobody@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no admin with the address nobody@example.com");
  });
});

describe("authsvc admins as the built binary", () => {
  const t = useCliDatabase(backends[0]);
  it("creates an admin from stdin and lists it", async () => {
    await t.create();
    const made = await runBin(["admins", "create", "root@example.com", "--password-stdin", "--database", t.url()], { stdin: PW });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain("secret: ");
    const list = await runBin(["admins", "list", "--database", t.url()]);
    expect(list.stdout).toMatch(/root@example\.com {2}2fa {2}0 session\(s\)/);
  });
});
