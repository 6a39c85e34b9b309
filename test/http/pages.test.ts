import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { toNodeListener } from "../../src/http/app.js";
import { backends } from "../helpers/backends.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { credentials, postJson } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { shippedWords } from "../helpers/words.js";

const pagePaths = ["/auth", "/auth/verify-email", "/auth/reset-password", "/auth/callback/google"];
const devPaths = ["/", "/_dev/mail", "/_dev/mail/messages", "/_dev/mail/messages/1", "/_dev/mail/messages/1/html", "/_dev/mail/events", "/_dev/assets/pages.css"];

/** Signs up in header mode and returns the access token. */
async function signUp(t: TestApp, email: string): Promise<string> {
  const res = await postJson(`${t.url}/auth/signup`, credentials(email), { "st-auth-mode": "header" });
  expect(res.status).toBe(200);
  return res.headers.get("st-access-token")!;
}

/** The pages' refusal kinds as the kernel's refusal-words.js listed them before the rooms declared their codes: the codes, the sentence. */
const refusalsBefore: Record<string, [string[], string]> = {
  taken: [["006", "007", "025"], "This address already has an account. Sign in to it instead: with the way you used before, with a code we email to the address, or choose a password with “Forgot your password?”."],
  noCode: [["002", "003"], "This address cannot sign in with a code here: another account uses it. Sign in the way you used before."],
  unverified: [["008"], "Verify your address first: another account uses this address too. We email you a link; opening it shows the address is yours, and you choose your password there."],
  elsewhere: [["004"], "Your provider does not confirm this address, and another account already uses this address. Sign in the way you did before, or with a code we email to the address."],
  verifyFirst: [["009", "013", "017", "020", "026", "031"], "Verify your email address first, then try again: we email you a link to confirm it."],
  methodTaken: [["010", "014", "018", "021", "027", "032"], "This sign-in method already belongs to another account. Sign in to that account to use it."],
  addressTaken: [["011", "015", "019", "022", "028", "033"], "Another account already uses this address, so it cannot be added to this one. Sign in to that account instead."],
  passkey: [["030"], "Another account uses this passkey’s address too. Recover your account by email to sign in."],
  other: [[], "This sign-in is not allowed for this account. Try another way to sign in."],
};

describe.each(backends)("hosted pages and development pages over HTTP ($name)", (backend) => {
  describe("production mode", () => {
    let t: TestApp;
    beforeAll(async () => { t = await createTestApp({ backend, config: { mode: "production", hostedPages: true, pagesProductName: "Acme <Shop>", pagesLogoUrl: "https://cdn.example.com/logo.svg" } }); });
    afterAll(async () => { await t?.close(); });

    it("serves no development inbox and no home page: every development path is the API's 404 JSON", async () => {
      for (const path of devPaths) {
        const res = await fetch(`${t.url}${path}`);
        expect(res.status, path).toBe(404);
        expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
        expect(await res.json(), path).toEqual({ message: "Not Found" });
      }
      expect((await fetch(`${t.url}/_dev/mail/delete`, { method: "POST", headers: { "authsvc-dev": "1" } })).status).toBe(404);
    });

    it("serves the hosted pages with a strict CSP, no framing, no referrer and no inline script or style", async () => {
      for (const path of pagePaths) {
        const res = await fetch(`${t.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
        const csp = res.headers.get("content-security-policy") ?? "";
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("style-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain("unsafe");
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("referrer-policy")).toBe("no-referrer");
        expect(res.headers.get("cache-control")).toBe("no-store");
        const html = await res.text();
        // Every script is a file of this origin; no inline handler or style attribute either.
        // …but the page's words for its scripts, a JSON block no browser runs.
        for (const tag of html.match(/<script[^>]*>/g) ?? []) if (tag !== '<script type="application/json" id="page-words">') expect(tag).toMatch(/ src="\/auth\/_assets\/[a-z-]+\.js\?v=[\w-]+"/);
        expect(html.match(/<script type="application\/json"/g) ?? []).toHaveLength(1);
        expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
        // The referenced assets exist, are not empty, and say what they are.
        for (const [, src] of html.matchAll(/(?:src|href)="(\/auth\/_assets\/[^"]+)"/g)) {
          const a = await fetch(`${t.url}${src}`);
          expect(a.status, src).toBe(200);
          expect(a.headers.get("content-type")).toMatch(/^text\/(javascript|css); charset=utf-8$/);
          expect((await a.text()).length, src).toBeGreaterThan(100);
          // Revalidated, not refetched: the ETag answers 304.
          expect((await fetch(`${t.url}${src}`, { headers: { "if-none-match": a.headers.get("etag")! } })).status).toBe(304);
        }
      }
      expect((await fetch(`${t.url}/auth/_assets/nope.js`)).status).toBe(404);
    });

    it("the pages' refusal words: every ERR_CODE the kind and sentence it had in the kernel's list, now declared by the rooms", async () => {
      const dir = await mkdtemp(join(tmpdir(), "refusal-words-"));
      await writeFile(join(dir, "refusal-words.mjs"), await (await fetch(`${t.url}/auth/_assets/refusal-words.js`)).text());
      const words = (await import(/* @vite-ignore */ pathToFileURL(join(dir, "refusal-words.mjs")).href)) as { classifyRefusal(j: unknown): string; refusalWordId(j: unknown): string };
      await rm(dir, { recursive: true });
      // A kind names the id of its sentence, which the page says in its locale (text that is no id is said as it is).
      const say = (id: string, locale = "en") => (shippedWords.of(locale).has(id) ? shippedWords.of(locale).t(id) : id);
      const refused = (code: string) => ({ status: "SIGN_IN_UP_NOT_ALLOWED", reason: `Cannot sign in / up due to security reasons. Please contact support. (ERR_CODE_${code})` });
      for (let n = 1; n <= 40; n++) {
        const code = String(n).padStart(3, "0");
        const kind = Object.keys(refusalsBefore).find((k) => refusalsBefore[k][0].includes(code)) ?? "other";
        expect([words.classifyRefusal(refused(code)), say(words.refusalWordId(refused(code)))], code).toEqual([kind, refusalsBefore[kind][1]]);
      }
      expect(say(words.refusalWordId(refused("006")), "de")).toMatch(/^Für diese Adresse gibt es schon ein Konto/);
      expect(words.refusalWordId({ status: "OK" })).toBe("");
    });

    it("every form of every hosted page posts: a submit before its script runs never puts a password or code in the address", async () => {
      const paths = [...pagePaths, "/auth/sign-out", "/auth/account", "/auth/mfa", "/auth/second-factor", "/auth/passkeys", "/auth/webauthn/recover", "/auth/sign-in-code", "/auth/verify", "/auth/my-organizations", "/auth/accept-invitation"];
      let forms = 0;
      for (const path of paths) {
        const res = await fetch(`${t.url}${path}`);
        expect(res.status, path).toBe(200);
        for (const tag of (await res.text()).match(/<form[^>]*>/g) ?? []) {
          forms++;
          expect(tag, path).toMatch(/ method="post"/);
        }
      }
      expect(forms).toBeGreaterThanOrEqual(12);
      // Such a submit (scripts blocked, say) reaches the page's path, which takes no POST: nothing is done.
      const res = await fetch(`${t.url}/auth`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40example.com&password=secret-password" });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await res.text()).not.toContain("secret-password");
    });

    it("shows the configured product name (escaped) and logo, whose origin alone joins img-src", async () => {
      const res = await fetch(`${t.url}/auth`);
      const html = await res.text();
      expect(html).toContain("Acme &lt;Shop&gt;");
      expect(html).not.toContain("<Shop>");
      expect(html).toContain('<img class="logo" src="https://cdn.example.com/logo.svg" alt=""');
      expect(res.headers.get("content-security-policy")).toContain("img-src 'self' data: https://cdn.example.com;");
    });

    it("a page that takes a token loads the script that removes it from the address bar first", async () => {
      for (const path of ["/auth/verify-email?token=abc", "/auth/reset-password?token=abc"]) {
        const html = await (await fetch(`${t.url}${path}`)).text();
        const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
        expect(scripts[0]).toMatch(/^\/auth\/_assets\/token\.js/);
        expect(html).not.toContain("abc");
        const js = await (await fetch(`${t.url}${scripts[0]}`)).text();
        expect(js).toContain("history.replaceState");
      }
    });
  });

  describe("hosted pages off (the website is another origin)", () => {
    let t: TestApp;
    beforeAll(async () => { t = await createTestApp({ backend }); });
    afterAll(async () => { await t?.close(); });

    it("serves no page, and the mail links point at the website", async () => {
      expect(t.config.hostedPages).toBe(false);
      for (const path of pagePaths) expect((await fetch(`${t.url}${path}`)).status, path).toBe(404);
      const access = await signUp(t, "links@example.com");
      const r = await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${access}` } });
      expect(r.status).toBe(200);
      const mail = await t.app.store.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", "links@example.com").executeTakeFirstOrThrow();
      expect(mail.text_body).toContain(`${t.config.websiteUrl}/auth/verify-email?token=`);
    });
  });

  describe("development mode with hosted pages and the inbox", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ backend, start: true, config: { hostedPages: true, publicUrl: "http://127.0.0.1:9", websiteUrl: "http://localhost:3000", mailCatcher: true, mailCatcherPort: 0 } });
    });
    afterAll(async () => { await t?.close(); });

    it("points mail links at the hosted pages on the public URL", async () => {
      const access = await signUp(t, "hosted@example.com");
      await fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${access}` } });
      const mail = await waitForCaughtMail(t.app, "hosted@example.com");
      expect(mail.link).toMatch(/^http:\/\/127\.0\.0\.1:9\/auth\/verify-email\?token=/);
    });

    it("the inbox tells a valid token from a used and an expired one, and deletes all mail only with its header", async () => {
      let access = await signUp(t, "states@example.com");
      const ask = () => fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${access}` } });
      await ask();
      const first = await waitForCaughtMail(t.app, "states@example.com");
      const list = async () => ((await (await fetch(`${t.url}/_dev/mail/messages?to=states@example.com&action=verify-email`)).json()) as { messages: Array<{ id: number; tokenState: string; token: string }> }).messages;
      expect((await list()).map((m) => m.tokenState)).toEqual(["valid"]);
      // A mail scanner fetching the link (a bare GET) uses nothing up.
      const page = await fetch(first.link!.replace("http://127.0.0.1:9", t.url));
      expect(page.status).toBe(200);
      expect((await list()).map((m) => m.tokenState)).toEqual(["valid"]);

      t.clock.advance(t.config.emailVerificationTokenLifetimeMs + 1);
      expect((await list()).map((m) => m.tokenState)).toEqual(["expired"]);

      // A day later the access token has expired too: sign in again for the new link.
      const signIn = await postJson(`${t.url}/auth/signin`, credentials("states@example.com"), { "st-auth-mode": "header" });
      access = signIn.headers.get("st-access-token")!;
      await ask();
      await waitForCaughtMail(t.app, "states@example.com", { afterId: first.id });
      const [newest] = await list();
      expect(newest.tokenState).toBe("valid");
      const v = await postJson(`${t.url}/auth/user/email/verify`, { method: "token", token: newest.token }, { authorization: `Bearer ${access}` });
      expect(((await v.json()) as { status: string }).status).toBe("OK");
      expect((await list()).map((m) => m.tokenState)).toEqual(["used", "expired"]);
      // The recipient filter matches any part of the address; the action filter is exact.
      const part = async (q: string) => ((await (await fetch(`${t.url}/_dev/mail/messages?${q}`)).json()) as { messages: Array<{ to: string }> }).messages.map((m) => m.to);
      expect(await part("to=STATES@")).toEqual(["states@example.com", "states@example.com"]);
      expect(await part("to=states@&action=reset-password")).toEqual([]);

      const detail = (await (await fetch(`${t.url}/_dev/mail/messages/${newest.id}`)).json()) as { text: string };
      expect(detail).toMatchObject({ id: newest.id, to: "states@example.com", action: "verify-email", tokenState: "used", hasHtml: true });
      expect(detail.text).toContain(newest.token);
      const html = await fetch(`${t.url}/_dev/mail/messages/${newest.id}/html`);
      expect(html.headers.get("content-security-policy")).toContain("sandbox");
      expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await html.text()).toContain("verify-email?token=");
      expect((await fetch(`${t.url}/_dev/mail/messages/999999`)).status).toBe(404);
      expect((await fetch(`${t.url}/_dev/mail/messages/abc`)).status).toBe(404);

      // Without the custom header (a cross-site form could send that much): refused, nothing deleted.
      expect((await fetch(`${t.url}/_dev/mail/delete`, { method: "POST" })).status).toBe(403);
      expect((await list()).length).toBe(2);
      const del = await fetch(`${t.url}/_dev/mail/delete`, { method: "POST", headers: { "authsvc-dev": "1" } });
      expect(del.status).toBe(200);
      expect(((await del.json()) as { deleted: number }).deleted).toBeGreaterThanOrEqual(2);
      expect(await list()).toEqual([]);
    });

    it("streams a change event when mail arrives (Server-Sent Events)", async () => {
      const ac = new AbortController();
      const res = await fetch(`${t.url}/_dev/mail/events`, { signal: ac.signal });
      expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      const reader = res.body!.getReader();
      let text = "";
      const readUntil = async (count: number) => {
        while ((text.match(/event: change/g) ?? []).length < count) {
          const { value, done } = await reader.read();
          if (done) throw new Error("stream ended");
          text += new TextDecoder().decode(value);
        }
      };
      await readUntil(2); // the greeting, then the poller's first version
      const before = (text.match(/event: change/g) ?? []).length;
      await signUp(t, "live@example.com").then((access) => fetch(`${t.url}/auth/user/email/verify/token`, { method: "POST", headers: { authorization: `Bearer ${access}` } }));
      await waitForCaughtMail(t.app, "live@example.com");
      await readUntil(before + 1);
      ac.abort();
    });

    it("serves the development home page with what runs and the last events, escaped", async () => {
      const res = await fetch(`${t.url}/`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      const html = await res.text();
      expect(html).toContain("development");
      expect(html).toContain('href="/_dev/mail"');
      expect(html).toContain("user.email_verified");
      // Signed in here: the account page, the pages the rooms link from it (on the public URL), sign-out.
      const links = [.../<div id="signed-in"[\s\S]*?<\/ul>/.exec(html)![0].matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => `${m[2]} ${m[1]}`);
      expect(links).toEqual([
        "My account http://127.0.0.1:9/auth/account", "My organizations http://127.0.0.1:9/auth/my-organizations",
        "Second factor (authenticator app) http://127.0.0.1:9/auth/second-factor", "Passkeys http://127.0.0.1:9/auth/passkeys",
        "Connected apps http://127.0.0.1:9/auth/connected-apps", "Sign out http://127.0.0.1:9/auth/sign-out",
      ]);
    });

    it("refuses clients that are not on this machine, and Host names that are not loopback (DNS rebinding)", async () => {
      // The same app behind a listener that reports the peer as a remote address.
      const remote: Server = createServer((req, res) => {
        Object.defineProperty(req.socket, "remoteAddress", { value: "192.0.2.10", configurable: true });
        return toNodeListener(t.app.http)(req, res);
      });
      await new Promise<void>((r) => remote.listen(0, "127.0.0.1", () => r()));
      const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
      // The refusals print nothing of h3's own into the server's JSON log (its statusMessage warning).
      const warn = vi.spyOn(console, "warn");
      try {
        for (const path of devPaths) {
          const res = await fetch(`${remoteUrl}${path}`);
          expect(res.status, path).toBe(403);
          expect(((await res.json()) as { message: string }).message).toMatch(/loopback/);
        }
        expect((await fetch(`${remoteUrl}/_dev/mail/delete`, { method: "POST", headers: { "authsvc-dev": "1" } })).status).toBe(403);
        const noHeader = await fetch(`${t.url}/_dev/mail/delete`, { method: "POST" });
        expect([noHeader.status, ((await noHeader.json()) as { message: string }).message]).toEqual([403, "Send the authsvc-dev: 1 header"]);
        expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("[h3]"))).toEqual([]);
        // The hosted pages and the API are not development pages: they answer.
        expect((await fetch(`${remoteUrl}/auth`)).status).toBe(200);
      } finally {
        warn.mockRestore();
        remote.closeAllConnections();
        await new Promise<void>((r) => remote.close(() => r()));
      }
      const { request } = await import("node:http");
      const status = await new Promise<number>((resolve, reject) => {
        request(`${t.url}/_dev/mail/messages`, { headers: { host: "attacker.example:80" } }, (res) => { res.resume(); resolve(res.statusCode!); }).on("error", reject).end();
      });
      expect(status).toBe(403);
    });
  });
});
