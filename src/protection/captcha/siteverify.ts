import { createHash } from "node:crypto";
import type { CoreContext } from "../../core/context.js";
import type { CheckedSolution } from "./verdict.js";

/**
 * Cloudflare Turnstile's and hCaptcha's server-side check: both take the widget's token at their
 * siteverify endpoint (a form POST of secret, response and the client's IP; hCaptcha also the site
 * key) and answer JSON with `success`. Their tokens are single use at the provider too; ours
 * remembers each one for as long as the provider honours it (Turnstile: 300 s), so a replay is
 * refused here without asking. The provider unreachable or slow is "unavailable" (503): the request
 * is not let through unchecked.
 */
const TOKEN_LIFETIME_MS = 300_000;
const TIMEOUT_MS = 5_000;

export async function checkSiteverifyToken(ctx: CoreContext, token: string, clientIp: string): Promise<CheckedSolution> {
  const { config } = ctx;
  if (token.length > 4096 || !/^[\x21-\x7e]+$/.test(token)) return { ok: false, why: "invalid" };
  const form = new URLSearchParams({ secret: config.captchaSecret ?? "", response: token });
  if (clientIp) form.set("remoteip", clientIp);
  if (config.captcha === "hcaptcha" && config.captchaSiteKey) form.set("sitekey", config.captchaSiteKey);
  let answer: { success?: unknown; "error-codes"?: unknown };
  try {
    const res = await fetch(config.captchaVerifyUrl!, { method: "POST", body: form, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    answer = (await res.json()) as typeof answer;
  } catch (err) {
    ctx.logger.warn("bot check: siteverify did not answer", { provider: config.captcha, err: (err as Error).message });
    return { ok: false, why: "unavailable" };
  }
  if (answer?.success !== true) {
    ctx.logger.debug("bot check: siteverify refused the token", { provider: config.captcha, errors: answer?.["error-codes"] });
    return { ok: false, why: "invalid" };
  }
  return { ok: true, id: createHash("sha256").update(`${config.captcha}:${token}`).digest("hex"), expiresAt: ctx.clock.now() + TOKEN_LIFETIME_MS };
}
