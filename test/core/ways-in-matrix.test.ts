import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listWaysIn } from "../../src/core/ways-in.js";
import { rooms } from "../../src/rooms.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { createTestAdmin, dashboardSession, type DashboardClient } from "../helpers/dashboard.js";
import { browse, CookieJar, signUpInto, startOauthServer, verifyInto, type OauthServer } from "../helpers/oauth.js";
import { refresh } from "../helpers/session-client.js";
import { PASSWORD, passkeyPerson, passwordPerson, passwordSignIn, probes, registerApps, webauthn, whoAmI, type Apps, type Person } from "../helpers/ways-in.js";
import { KEY } from "../http/admin/admin-client.js";

/**
 * Every declared way in (Room.waysIn, from the real room list) × every security event: the way in
 * is opened through HTTP as its holder opens it (a session by signing in, an app's grant by a real
 * authorization-code flow with consent), the event is fired through its real path (the account
 * page, the reset and recovery mails, the CLI, the admin API, the dashboard), and the way in must
 * no longer work (its refresh refused; an app's access token inactive at introspection). A room
 * that declares a way in without a probe in test/helpers/ways-in.ts, or whose way in an event
 * leaves working, fails here. The table in docs/security.md and docs/oauth-provider.md is checked
 * against the same lists.
 */

const NEW_PASSWORD = "a new and rather long passphrase";

type Subject = Person & { calling?: CookieJar };
interface SecurityEvent {
  /** Its row in the docs' table. */
  name: string;
  person(s: OauthServer, n: string): Promise<Subject>;
  fire(s: OauthServer, p: Subject): Promise<void>;
  /** The event's rule keeps the session it was made in (`calling`). */
  keepsCalling?: boolean;
}

const json = { "content-type": "application/json", rid: "session" };
const post = async (jar: CookieJar, url: string, body: unknown) => {
  const res = await browse(jar, url, { method: "POST", headers: json, body: JSON.stringify(body) });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200 || answer.status !== "OK") throw new Error(`${url} answered ${res.status} ${JSON.stringify(answer)}`);
  return answer;
};
const adminApi = async (s: OauthServer, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${s.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
};
const cli = async (s: OauthServer, args: string[], stdin?: string) => {
  const r = await runCli([...args, "--database", s.app.config.database], { stdin });
  if (r.code !== 0) throw new Error(`authsvc ${args.join(" ")}: ${r.stderr}`);
};
const withCalling = async (s: OauthServer, n: string): Promise<Subject> => {
  const p = await passwordPerson(s, `${n}@example.com`);
  return { ...p, calling: p.jar };
};
let dashboard: DashboardClient;

const events: SecurityEvent[] = [
  {
    name: "Password change (account page)", keepsCalling: true, person: withCalling,
    fire: async (s, p) => { await post(p.calling!, `${s.url}/auth/account/password`, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }); },
  },
  {
    name: "Password reset (mailed link)", person: withCalling,
    async fire(s, p) {
      const { token } = await post(new CookieJar(), `${s.url}/auth/user/password/reset/token`, { formFields: [{ id: "email", value: p.email }] });
      await post(new CookieJar(), `${s.url}/auth/user/password/reset`, { method: "token", token, formFields: [{ id: "password", value: NEW_PASSWORD }] });
    },
  },
  {
    // Someone signed up first with the address (unverified) and an operator joined a login of
    // theirs to it: the owner's first proof evicts that login, with everything signed in through it.
    name: "First proof of an address (verification evicts the other logins)", keepsCalling: true,
    async person(s, n) {
      const owner = new CookieJar();
      await signUpInto(owner, s.url, `${n}@example.com`, { verify: false });
      const intruder = await passwordPerson(s, `${n}-other@example.com`);
      const ownerId = await whoAmI(s, owner);
      await adminApi(s, "POST", `/users/${ownerId}/links`, { userId: intruder.userId });
      return { email: intruder.email, userId: ownerId, signIn: () => passwordSignIn(s, intruder.email), calling: owner };
    },
    fire: (s, p) => verifyInto(p.calling!, s.url),
  },
  {
    name: "Sign out everywhere (account page)", keepsCalling: true, person: withCalling,
    fire: async (s, p) => { await post(p.calling!, `${s.url}/auth/account/sessions/revoke`, { others: true }); },
  },
  { name: "Sign out everywhere (`authsvc sessions revoke`)", person: withCalling, fire: (s, p) => cli(s, ["sessions", "revoke", p.email]) },
  { name: "Sign out everywhere (admin API)", person: withCalling, fire: async (s, p) => { await adminApi(s, "DELETE", `/users/${p.userId}/sessions`); } },
  {
    name: "Sign out everywhere (dashboard)", person: withCalling,
    async fire(_s, p) {
      const res = await dashboard.post(`/admin/users/${p.userId}/sessions/revoke-all`, {});
      if (res.status !== 303) throw new Error(`the dashboard answered ${res.status}`);
    },
  },
  { name: "Operator sets a password (admin API, dashboard)", person: withCalling, fire: async (s, p) => { await adminApi(s, "PUT", `/users/${p.userId}/password`, { password: NEW_PASSWORD }); } },
  { name: "Operator resets a password (`authsvc reset-password`)", person: withCalling, fire: (s, p) => cli(s, ["reset-password", "--email", p.email, "--password-stdin"], `${NEW_PASSWORD}\n`) },
  {
    name: "Passkey recovery (mailed link)", person: (s, n) => passkeyPerson(s, `${n}@example.com`),
    async fire(s, p) {
      await webauthn(s, "/user/webauthn/reset/token", { email: p.email });
      await s.app.ctx.deferred.drain();
      const [mail] = await listOutboxMessages(s.app.store.db, { kind: "webauthn_recovery", to: p.email });
      const token = new URL(/https?:\/\/\S+/.exec(mail.text_body!)![0]).searchParams.get("token")!;
      const options = await webauthn(s, "/webauthn/options/register", { recoverAccountToken: token });
      const credential = (p as Awaited<ReturnType<typeof passkeyPerson>>).authenticator.register(options as never);
      await webauthn(s, "/user/webauthn/reset", { token, webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId, credential });
    },
  },
  { name: "Account deletion (account page)", person: withCalling, fire: async (s, p) => { await post(p.calling!, `${s.url}/auth/account/delete`, { password: PASSWORD }); } },
  { name: "Person deletion (admin API, `authsvc users delete`, dashboard)", person: withCalling, fire: async (s, p) => { await adminApi(s, "DELETE", `/users/${p.userId}`); } },
  { name: "Ban (admin API, `authsvc users ban`, dashboard)", person: withCalling, fire: async (s, p) => { await adminApi(s, "POST", `/users/${p.userId}/ban`, { reason: "matrix" }); } },
];

const declared = rooms.flatMap((r) => r.waysIn ?? []);

describe.each(backends)("every security event ends every way in ($name)", (backend) => {
  let s: OauthServer;
  let apps: Apps;
  beforeAll(async () => {
    s = await startOauthServer(backend, { adminApiKey: KEY });
    apps = await registerApps(s);
    dashboard = await dashboardSession(s.url, await createTestAdmin(s.app));
  });
  afterAll(async () => { await s?.close(); });

  it("every declared way in has a probe that opens and uses it", () => {
    expect(s.app.ctx.waysIn.map((w) => w.id)).toEqual(declared.map((w) => w.id));
    for (const w of s.app.ctx.waysIn) expect(probes[w.id], `no probe for the way in ${w.id}: add one to test/helpers/ways-in.ts`).toBeDefined();
  });

  events.forEach((e, i) => {
    it(e.name, async () => {
      const p = await e.person(s, `m${i}-${backend.name}`);
      const opened = [];
      for (const w of s.app.ctx.waysIn) {
        const probe = probes[w.id];
        const handle = await probe.open(s, apps, p);
        expect(Object.values(await probe.check(s, apps, handle)), `${w.id} works before the event`).not.toContain(false);
        opened.push({ w, probe, handle });
      }
      const live = await listWaysIn(s.app.store.db, s.app.ctx, p.userId);
      for (const w of s.app.ctx.waysIn) expect(live?.[w.id].length, `${w.id} lists the person's`).toBeGreaterThan(0);

      await e.fire(s, p);

      for (const { w, probe, handle } of opened) {
        const still = await probe.check(s, apps, handle);
        expect(Object.entries(still).filter(([, works]) => works).map(([what]) => what), `${e.name} × ${w.id}: still works`).toEqual([]);
      }
      if (e.keepsCalling) {
        const jar = p.calling!;
        const res = await refresh(s.url, { mode: "cookie", access: jar.values.get("sAccessToken")!, refresh: jar.values.get("sRefreshToken")! });
        expect(res.status, "the session the event was made in stays").toBe(200);
      }
    });
  });
});

describe("the docs' table of events × ways in", () => {
  for (const page of ["docs/security.md", "docs/oauth-provider.md"]) {
    it(`${page} lists every event and every declared way in, each ended`, () => {
      const lines = readFileSync(join(import.meta.dirname, "../..", page), "utf8").split("\n");
      const start = lines.findIndex((l) => l.startsWith("| Event |"));
      expect(start, `${page} has the table (a row starting "| Event |")`).toBeGreaterThan(0);
      const rows = lines.slice(start).filter((_, j, all) => all.slice(0, j + 1).every((l) => l.startsWith("|"))).map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
      const [header, , ...body] = rows;
      expect(header.slice(1)).toEqual(declared.map((w) => w.names.many.replace(/^./, (c) => c.toUpperCase())));
      expect(body.map((r) => r[0])).toEqual(events.map((e) => e.name));
      for (const r of body) for (const cell of r.slice(1)) expect(cell, `${r[0]}`).toMatch(/^ends/);
    });
  }
});
