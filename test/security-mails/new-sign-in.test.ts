import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listEvents } from "../../src/store/events.js";
import { listOutboxMessages } from "../../src/store/outbox.js";
import { backends } from "../helpers/backends.js";
import { CookieJar, signUpInto, startOauthServer, verifyInto, type OauthServer } from "../helpers/oauth.js";
import { credentials, postJson, readTokens, refresh, type Tokens } from "../helpers/session-client.js";
import { PASSWORD } from "../helpers/ways-in.js";

/**
 * Security mails (docs/security.md, "Security mails") through HTTP on both databases: a sign-in
 * from a device and network not seen for the person mails them once (not their first), and the
 * mail's "this wasn't me" ends every way in and sends them to choose a new password.
 */

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const signIn = async (s: OauthServer, email: string, ua: string): Promise<Tokens> => {
  const res = await postJson(`${s.url}/auth/signin`, credentials(email, PASSWORD), { rid: "emailpassword", "user-agent": ua, "st-auth-mode": "header" });
  expect(((await res.json()) as { status: string }).status).toBe("OK");
  return readTokens(res, "header");
};
const mails = (s: OauthServer, to: string) => listOutboxMessages(s.app.store.db, { kind: "new_sign_in", to });
const notMe = async (s: OauthServer, body: unknown) => {
  const res = await postJson(`${s.url}/auth/security/not-me`, body, { rid: "session" });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe.each(backends)("new sign-in mails ($name)", (backend) => {
  let s: OauthServer;
  beforeAll(async () => { s = await startOauthServer(backend, { newSignInMail: true }); });
  afterAll(async () => { await s?.close(); });

  it("a new device and network mails the person once, with the time and the browser; the first sign-in and a known device do not", async () => {
    const email = `devices-${backend.name}@example.com`;
    await signUpInto(new CookieJar(), s.url, email); // the first session: nothing known yet, no mail
    await signIn(s, email, FIREFOX);
    expect(await mails(s, email)).toHaveLength(1); // Firefox is new beside the sign-up's browser
    await signIn(s, email, FIREFOX);
    await signIn(s, email, FIREFOX);
    expect(await mails(s, email)).toHaveLength(1);
    await signIn(s, email, CHROME);
    const all = await mails(s, email);
    expect(all).toHaveLength(2);
    expect(all.map((m) => m.subject)).toEqual(["A new sign-in to your account", "A new sign-in to your account"]);
    const chrome = all.find((m) => m.text_body!.includes("Chrome on Windows"))!;
    expect(all.find((m) => m.text_body!.includes("Firefox on Linux"))).toBeDefined();
    expect(chrome.text_body).toContain(new Date(s.clock.now()).toISOString().slice(0, 10)); // the day it happened
    expect(chrome.text_body).toMatch(new RegExp(`${s.url}/auth/not-me\\?token=[A-Za-z0-9_-]{43}`));
  });

  it("the mail is written in the person's language: German for someone who signed up in German", async () => {
    const email = `devices-de-${backend.name}@example.com`;
    const jar = new CookieJar();
    const signedUp = await postJson(`${s.url}/auth/signup`, credentials(email, PASSWORD), { "accept-language": "de-DE,de;q=0.9" });
    expect(signedUp.status).toBe(200);
    jar.take(signedUp);
    await verifyInto(jar, s.url);
    await signIn(s, email, FIREFOX);
    const [mail] = await mails(s, email);
    expect(mail.subject).toBe("Neue Anmeldung bei deinem Konto");
    expect(mail.text_body).toContain(`jemand hat sich von einem Gerät oder Netzwerk, das wir noch nicht kannten, bei deinem Konto (${email}) angemeldet:`);
    expect(mail.text_body).toContain("Firefox unter Linux");
    expect(mail.text_body).toContain("Der Link funktioniert einmal, 7 Tage lang.");
    expect(mail.text_body).not.toMatch(/signed in|Firefox on|UTC,? Firefox on/);
    expect(JSON.parse(mail.headers!)["Content-Language"]).toBe("de");
    expect(mail.html_body).toContain('<html lang="de"');
    expect(mail.html_body).toContain("Das war ich nicht");
    // The not-me page it links to, in the browser's German.
    const link = /https?:\/\/\S+not-me\S+/.exec(mail.text_body!)![0];
    const page = await (await fetch(link, { headers: { "accept-language": "de" } })).text();
    expect(page).toContain("Hat sich jemand anderes angemeldet?");
    expect(page).toContain('"notMe.js.busy":"Alles wird abgemeldet …"');
  });

  it("\"this wasn't me\" ends every way in at once, once, and points at the new password", async () => {
    const email = `not-me-${backend.name}@example.com`;
    await signUpInto(new CookieJar(), s.url, email);
    const mine = await signIn(s, email, FIREFOX);
    const theirs = await signIn(s, email, CHROME);
    const mail = (await mails(s, email)).find((m) => m.text_body!.includes("Chrome on Windows"))!;
    const link = new URL(/https?:\/\/\S+not-me\S+/.exec(mail.text_body!)![0]);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign everything out");

    const r = await notMe(s, { token: link.searchParams.get("token") });
    expect(r.json).toEqual({ status: "OK", endedWaysIn: { sessions: 3, "support-sessions": 0, "oauth-grants": 0 }, resetPasswordUrl: `${s.url}/auth/reset-password` });
    expect((await refresh(s.url, mine)).status).toBe(401);
    expect((await refresh(s.url, theirs)).status).toBe(401);
    expect((await notMe(s, { token: link.searchParams.get("token") })).json).toEqual({ status: "INVALID_TOKEN_ERROR" });
    expect((await notMe(s, { token: "x".repeat(43) })).json).toEqual({ status: "INVALID_TOKEN_ERROR" });
    const bad = await notMe(s, {});
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("token is required: the one in the mail's link");
    const events = (await listEvents(s.app.store.db, { type: "user.not_me" })).filter((e) => e.user_id === r.json.userId || JSON.parse(e.data!).endedWaysIn.sessions === 3);
    expect(events.length).toBeGreaterThanOrEqual(1);
  });

  it("an expired link signs nothing out", async () => {
    const email = `not-me-late-${backend.name}@example.com`;
    await signUpInto(new CookieJar(), s.url, email);
    const theirs = await signIn(s, email, CHROME);
    const [mail] = await mails(s, email);
    const token = new URL(/https?:\/\/\S+not-me\S+/.exec(mail.text_body!)![0]).searchParams.get("token");
    s.clock.advance(7 * 86_400_000 + 1);
    expect((await notMe(s, { token })).json).toEqual({ status: "INVALID_TOKEN_ERROR" });
    s.clock.set(s.clock.now() - (7 * 86_400_000 + 1));
    expect((await refresh(s.url, theirs)).status).toBe(200);
  });
});

describe("--new-sign-in-mail off (development's default)", () => {
  it("mails nothing", async () => {
    const s = await startOauthServer(backends[0]);
    expect(s.app.config.newSignInMail).toBe(false);
    const known = async () => Number((await s.app.store.db.selectFrom("known_devices").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    try {
      await signUpInto(new CookieJar(), s.url, "quiet@example.com");
      await signIn(s, "quiet@example.com", CHROME);
      expect(await mails(s, "quiet@example.com")).toEqual([]);
      expect(await known()).toBe(2); // still remembered: switched on later, it knows them
    } finally {
      await s.close();
    }
  });
});
