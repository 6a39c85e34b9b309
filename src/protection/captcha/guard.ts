import { defineEventHandler, type EventHandler, type H3Event } from "h3";
import type { Config } from "../../config/types.js";
import type { CoreContext } from "../../core/context.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { AuthError } from "../../core/errors.js";
import { budgetSpent } from "../../core/limits.js";
import { readJsonBody } from "../../http/body.js";
import type { HttpDeps } from "../../http/deps.js";
import { readHeader } from "../../http/headers.js";
import { clientAddress, clientKey } from "../../http/limit-guard.js";
import type { Route } from "../../http/route.js";
import { useSolution } from "../store.js";
import { words } from "../words.js";
import { checkPowSolution } from "./pow.js";
import { checkSiteverifyToken } from "./siteverify.js";
import type { CheckedSolution } from "./verdict.js";

/** The request header that carries a solution: `<brand>-captcha` (authsvc-captcha by default). */
export const captchaHeader = (config: Readonly<Config>): string => `${config.brandPrefix}-captcha`;

/**
 * The bot check around every route that declares a `challenge` (sign-up, sign-in, a sign-in code,
 * a reset mail): runs after the route's per-IP limits counted the request and before its handler,
 * so a refusal (400 with a `reason`) changes nothing but that count. A solution sent is always
 * checked and used up, whether or not one was required; none sent is refused when required:
 * always, or (when-limited) once the client IP has spent half of one of the route's budgets, or the
 * submitted address half of one of its per-address budgets.
 */
export function guardWithCaptcha(deps: HttpDeps, route: Route, handler: EventHandler): EventHandler | undefined {
  const { config } = deps.ctx;
  const challenge = route.challenge;
  if (!challenge || config.captcha === "off" || config.captchaRequired === "never") return undefined;
  const header = captchaHeader(config);
  return defineEventHandler(async (event) => {
    const sent = readHeader(event, header);
    if (sent === undefined || sent === "") {
      if (config.captchaRequired === "always" || (await overHalfBudget(deps.ctx, event, route))) throw refusal("captcha_required", words.captchaRequired);
      return handler(event);
    }
    await useUp(deps.ctx, await checkSolution(deps.ctx, sent, event));
    return handler(event);
  });
}

function checkSolution(ctx: CoreContext, sent: string, event: H3Event): Promise<CheckedSolution> {
  if (sent.length > 8192) return Promise.resolve({ ok: false, why: "invalid" });
  return ctx.config.captcha === "pow" ? checkPowSolution(ctx, sent) : checkSiteverifyToken(ctx, sent, clientAddress(event, ctx.config));
}

/** A good solution is recorded as used (a replay is refused); a bad one refused with its reason. */
async function useUp(ctx: CoreContext, checked: CheckedSolution): Promise<void> {
  if (!checked.ok) {
    if (checked.why === "unavailable") throw new AuthError("UNAVAILABLE", words.captchaUnavailable, { retryAfterSeconds: 5, reason: "captcha_unavailable" });
    throw checked.why === "expired" ? refusal("captcha_expired", words.captchaExpired) : refusal("captcha_invalid", words.captchaInvalid);
  }
  if (!(await useSolution(ctx.store, checked.id, checked.expiresAt))) throw refusal("captcha_used", words.captchaUsed);
  ctx.logger.debug("bot check passed");
}

const refusal = (reason: string, message: string) => new AuthError("BAD_INPUT", message, { reason });

/**
 * when-limited: has this client spent half of a route's per-IP budget (the request itself was
 * counted already), or the submitted address half of one of its per-address budgets (not counted
 * yet: the handler counts it)? Reads only; a bucket that is off never asks.
 */
async function overHalfBudget(ctx: CoreContext, event: H3Event, route: Route): Promise<boolean> {
  if (!ctx.config.rateLimits) return false;
  const ip = clientKey(event, ctx.config);
  for (const bucket of route.limits ?? []) {
    const spent = await budgetSpent(ctx, bucket, ip);
    if (spent && (spent.count - 1) * 2 >= spent.limit) return true;
  }
  const perAddress = route.challenge?.perAddress ?? [];
  if (!perAddress.length) return false;
  const address = addressOf(await readJsonBody(event, ctx.config.bodyLimit));
  if (!address) return false;
  for (const bucket of perAddress) {
    const spent = await budgetSpent(ctx, bucket, address);
    if (spent && spent.count * 2 >= spent.limit) return true;
  }
  return false;
}

/** The canonical address a body submits: the `email` form field (the SDKs' formFields) or an `email` field. */
function addressOf(body: Record<string, unknown>): string | undefined {
  const fields = Array.isArray(body.formFields) ? body.formFields : [];
  const field = fields.find((f): f is { id: string; value: unknown } => !!f && typeof f === "object" && (f as { id?: unknown }).id === "email");
  const raw = field ? field.value : body.email;
  if (typeof raw !== "string") return undefined;
  const email = canonicalEmail(raw);
  return isValidEmail(email) ? email : undefined;
}
