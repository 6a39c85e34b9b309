import { expect } from "vitest";
import type { TestApp } from "../helpers/test-app.js";
import { waitForCaughtMail } from "../helpers/mail.js";
import { authHeaders, decodeFrontToken, jwtPayload, readTokens, refresh, signUp, type Tokens } from "../helpers/session-client.js";

/** A signed-up person in a test, with the tokens they hold now. */
export interface Person { id: string; email: string; tokens: Tokens }

/** One call of the API with the person's session; the tokens are replaced when the answer re-issued them. */
export async function call(t: TestApp, method: string, path: string, who: Person | undefined, body?: unknown) {
  // Time moves between changes, so "oldest first" lists have one order.
  if (method !== "GET") t.clock.advance(1);
  const res = await fetch(`${t.url}/auth${path}`, {
    method,
    headers: { ...(who ? authHeaders(who.tokens) : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  const front = res.headers.get("front-token");
  if (who) who.tokens = readTokens(res, who.tokens.mode, json, who.tokens);
  return { status: res.status, json, front: front ? decodeFrontToken(front) : undefined };
}

/** Signs up, and with `verify` proves the address through the mailed link (the real catcher). */
export async function newPerson(t: TestApp, email: string, verify = true): Promise<Person> {
  const up = await signUp(t.url, email, "header");
  expect(up.res.status).toBe(200);
  const p: Person = { id: (up.json.user as { id: string }).id, email, tokens: up.tokens };
  if (verify) await verifyAddress(t, p);
  return p;
}

export async function verifyAddress(t: TestApp, p: Person): Promise<void> {
  expect((await call(t, "POST", "/user/email/verify/token", p)).status).toBe(200);
  const mail = await waitForCaughtMail(t.app, p.email, { action: "verify-email" });
  expect((await call(t, "POST", "/user/email/verify", p, { method: "token", token: mail.token })).json.status).toBe("OK");
}

/** The `org` claim of the access token the person holds. */
export const orgClaim = (p: Person) => jwtPayload(p.tokens.access).org;

/** Refreshes the person's session; returns the new `org` claim. */
export async function refreshOrg(t: TestApp, p: Person) {
  const res = await refresh(t.url, p.tokens);
  expect(res.status).toBe(200);
  p.tokens = readTokens(res, p.tokens.mode, undefined, p.tokens);
  return orgClaim(p);
}

/** Waits for the invitation mail to `email` after mail id `afterId`, and returns its token. */
export async function invitationToken(t: TestApp, email: string, afterId = 0): Promise<{ token: string; id: number; link: string }> {
  const mail = await waitForCaughtMail(t.app, email, { action: "organization-invitation", afterId });
  expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { token: mail.token!, id: mail.id, link: mail.link! };
}
