import type { Kysely } from "kysely";
import type { CoreContext } from "../../core/context.js";
import { queueMail, websiteLink } from "../../core/mail-queue.js";
import { insertEvent } from "../../store/events.js";
import type { DB } from "../../store/schema.js";
import { findIdentitiesByEmail } from "./store.js";

/**
 * A password reset asked for an address that has no password but provider logins
 * (LoginKind.recoveryNotice): no token; a mail naming the provider(s) it signs in with instead,
 * and the `password_reset.third_party_notice` event, in the request's transaction.
 */
export async function providerResetNotice(tx: Kysely<DB>, ctx: CoreContext, p: { email: string; now: number; source: string }): Promise<string | undefined> {
  const identities = await findIdentitiesByEmail(tx, p.email);
  if (identities.length === 0) return undefined;
  const provider = [...new Set(identities.map((i) => providerName(ctx, i.provider_id)))].join(" or ");
  await insertEvent(tx, { at: p.now, type: "password_reset.third_party_notice", userId: identities[0].user_id, data: { email: p.email, providers: identities.map((i) => i.provider_id), source: p.source } });
  await queueMail(tx, ctx, { kind: "third_party_account", to: p.email, vars: { link: websiteLink(ctx, ""), provider } });
  return "third_party_notice";
}

/**
 * Display name of a provider for mails: the registry's (configured `name`, else the preset's, e.g.
 * "GitHub"); an identity whose provider is no longer configured gets its id capitalised.
 */
function providerName(ctx: CoreContext, id: string): string {
  return ctx.thirdParty.find(id)?.name ?? id.charAt(0).toUpperCase() + id.slice(1);
}
