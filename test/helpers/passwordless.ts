import type { App } from "../../src/app.js";
import type { TestApp } from "./test-app.js";
import { waitForCaughtMail } from "./mail.js";
import { modeHeaders, postJson } from "./session-client.js";

/** POST <url>/auth<path> as the passwordless SDK sends it (header mode), with the JSON answer. */
export async function pwPost(t: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await postJson(`${t.url}/auth${path}`, body, { rid: "passwordless", ...modeHeaders("header"), ...headers });
  const json = (await res.json()) as Record<string, any>;
  await t.app.ctx.deferred.drain();
  return { res, status: res.status, json };
}

/** The newest mail to `email` after `afterId`: its id, code, link and the link code from the link's fragment. */
export async function readSignInMail(t: TestApp, email: string, afterId = 0) {
  const m = await waitForCaughtMail(t.app, email, { afterId, action: "passwordless" });
  const link = m.link ?? "";
  return { id: m.id, code: m.code ?? "", link, linkCode: link ? new URL(link).hash.slice(1) : "", mail: m };
}

/** Starts a flow for `email` and reads its mail: deviceId, preAuthSessionId, code, linkCode. */
export async function startFlow(t: TestApp, email: string) {
  const before = await lastMailId(t.app);
  const r = await pwPost(t, "/signinup/code", { email, shouldTryLinkingWithSessionUser: false });
  if (r.json.status !== "OK") throw new Error(`createCode: ${JSON.stringify(r.json)}`);
  const mail = await readSignInMail(t, email.trim().toLowerCase(), before);
  return { deviceId: r.json.deviceId as string, preAuthSessionId: r.json.preAuthSessionId as string, flowType: r.json.flowType as string, ...mail };
}

/** The highest caught-mail id so far (0 when none). */
export async function lastMailId(app: App): Promise<number> {
  const r = await app.store.db.selectFrom("caught_mail").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
  return Number(r?.id ?? 0);
}
