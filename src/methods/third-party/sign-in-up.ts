import { recordLoginAdded, type LinkingSession } from "../../core/login-policy.js";
import { isUniqueViolation } from "../../store/database.js";
import { insertEvent } from "../../store/events.js";
import { setPersonLocale } from "../../store/person-locales.js";
import * as identities from "./store.js";
import { insertUser, markEmailVerified } from "../../store/users.js";
import { createId } from "../../util/random.js";
import type { CoreContext } from "../../core/context.js";
import type { ProviderIdentities } from "../../core/account-operations.js";
import type { Kysely } from "kysely";
import type { DB } from "../../store/schema.js";
import { badInput } from "../../core/errors.js";
import { decideSignInUp, joinPerson } from "../../core/linking.js";
import { LINK_REFUSED, SIGN_IN_NOT_ALLOWED, SIGN_UP_NOT_ALLOWED } from "./refusals.js";
import { canonicalEmail, isValidEmail } from "../../core/emails.js";
import { getUser, type UserView } from "../../core/users.js";
import { findProviderClient } from "./authorisation-url.js";
import { resolveClientConfig } from "./client-config.js";
import { verifyIdToken } from "./id-token.js";
import { exchangeCode, fetchProviderUser, type OAuthTokens } from "./provider-user.js";

export interface SignInUpInput {
  thirdPartyId: string;
  clientType?: string;
  /** Authorization-code flow: what the provider sent back to the redirect URI. */
  redirectURIInfo?: { redirectURIOnProviderDashboard: string; redirectURIQueryParams: Record<string, unknown>; pkceCodeVerifier?: string };
  /** Tokens the frontend (e.g. a native SDK) already holds. */
  oAuthTokens?: OAuthTokens;
  /** shouldTryLinkingWithSessionUser: the signed-in user to add this identity to. */
  session?: LinkingSession;
  /** The locale a new person reads (the sign-in page's), stored for their mail. */
  locale?: string;
}

export type SignInUpResult = UpsertResult | { status: "NO_EMAIL_GIVEN_BY_PROVIDER" };

/**
 * Third-party sign-in or sign-up (PROTOCOL.md §9, FDI notes §10.2): every network call first (code
 * exchange, ID-token check, user info), then one transaction keyed by (provider, provider user id).
 * A provider-verified email is marked verified; account linking decides in upsertThirdPartyUser.
 */
export async function signInUp(ctx: CoreContext, input: SignInUpInput): Promise<SignInUpResult> {
  const { provider, client } = findProviderClient(ctx, input.thirdPartyId, input.clientType);
  const config = await resolveClientConfig(ctx, provider, client);
  const { issuer, jwks_uri: jwksURI } = config.serverMetadata();
  let tokens: OAuthTokens;
  let idClaims: Record<string, unknown> | undefined;
  if (input.redirectURIInfo) {
    const q = input.redirectURIInfo.redirectURIQueryParams;
    if (typeof q.error === "string") throw badInput(`The provider ${provider.id} returned an error: ${/^[a-z0-9_.-]{1,64}$/i.test(q.error) ? q.error : "unknown"}`);
    if (typeof q.code !== "string" || q.code === "") throw badInput("Please provide the code in redirectURIQueryParams");
    ({ tokens, idClaims } = await exchangeCode(ctx, provider, client, config, {
      code: q.code, redirectURI: input.redirectURIInfo.redirectURIOnProviderDashboard, codeVerifier: input.redirectURIInfo.pkceCodeVerifier,
      iss: typeof q.iss === "string" ? q.iss : undefined,
    }));
  } else {
    tokens = input.oAuthTokens ?? {};
    const idTokenUsable = tokens.id_token !== undefined && jwksURI !== undefined;
    // A bare access token may have been issued to any app that uses this provider; only an ID
    // token proves it was issued to our client (aud), unless the operator accepts that risk.
    if (!idTokenUsable && !(provider.allowAccessTokenOnly && tokens.access_token)) {
      throw badInput(jwksURI
        ? `The provider ${provider.id} needs an id_token in oAuthTokens`
        : `The provider ${provider.id} does not accept oAuthTokens (allowAccessTokenOnly is off)`);
    }
    if (idTokenUsable) idClaims = await verifyIdToken(ctx, provider, { issuer, jwksURI }, client, tokens.id_token!);
  }
  const who = await fetchProviderUser(ctx, provider, config, tokens, idClaims);

  let email = who.email === undefined ? undefined : canonicalEmail(who.email);
  let verified = who.emailVerified;
  if (email !== undefined && !isValidEmail(email)) email = undefined;
  if (email === undefined) {
    if (provider.requireEmail) return { status: "NO_EMAIL_GIVEN_BY_PROVIDER" };
    // RFC 2606 reserves .invalid: no mail can ever be delivered to this stand-in address.
    email = `${who.userId.toLowerCase().replace(/[^a-z0-9]/g, "-")}.${provider.id.toLowerCase()}@fakeemail.invalid`;
    verified = true;
  }
  return upsertThirdPartyUser(ctx, { thirdPartyId: provider.id, thirdPartyUserId: who.userId, email, emailVerified: verified, session: input.session, locale: input.locale });
}

export type UpsertResult =
  | { status: "OK"; user: UserView; recipeUserId: string; createdNewRecipeUser: boolean }
  | { status: "SIGN_IN_UP_NOT_ALLOWED"; reason: string };

/**
 * Signs in the user of (thirdPartyId, thirdPartyUserId), or creates them, in one transaction; the
 * stored email follows the provider's. With account linking (core/linking.ts) the decision comes
 * first, so a refusal changes nothing: a new identity joins the person who has its address
 * verified when the provider verified it too, else is refused if someone else has the address
 * (ERR_CODE_006); an existing identity whose address is unverified and belongs to someone else is
 * refused (ERR_CODE_004); `session` asks to add the identity to the signed-in person. A new person's
 * `locale` is stored for their mail (one joined to a person keeps theirs), as a password sign-up does. Two
 * concurrent first sign-ins of one identity end with one user: the loser hits the primary key and
 * retries as a sign-in.
 */
export async function upsertThirdPartyUser(ctx: CoreContext, p: { thirdPartyId: string; thirdPartyUserId: string; email: string; emailVerified: boolean; session?: LinkingSession; locale?: string }): Promise<UpsertResult> {
  const reasons = { signUp: SIGN_UP_NOT_ALLOWED, signIn: SIGN_IN_NOT_ALLOWED, link: LINK_REFUSED };
  const decide = (tx: Kysely<DB>, recipeUserId: string | undefined) =>
    decideSignInUp(tx, ctx, { session: p.session, email: p.email, verified: p.emailVerified, recipeUserId }, reasons);
  const source = `thirdparty:${p.thirdPartyId}`;
  for (let attempt = 0; ; attempt++) {
    const now = ctx.clock.now();
    try {
      const outcome = await ctx.store.writeTx(async (tx) => {
        const existing = await identities.findIdentity(tx, p.thirdPartyId, p.thirdPartyUserId);
        const d = await decide(tx, existing?.user_id);
        if (d.kind === "refused") return d;
        if (existing) {
          if (existing.email !== p.email) {
            await identities.updateIdentityEmail(tx, p.thirdPartyId, p.thirdPartyUserId, p.email, now);
            await identities.replaceUserEmail(tx, existing.user_id, existing.email, p.email, now);
            await insertEvent(tx, { at: now, type: "user.email_changed", userId: existing.user_id, data: { method: "thirdparty", provider: p.thirdPartyId } });
          }
          if (p.emailVerified || (d.kind === "join" && d.verified)) await markEmailVerified(tx, existing.user_id, p.email, now);
          await insertEvent(tx, { at: now, type: "user.signed_in", userId: existing.user_id, data: { method: "thirdparty", provider: p.thirdPartyId } });
          if (d.kind === "join") await joinPerson(tx, ctx, existing.user_id, d.personId, source);
          return { kind: "done" as const, userId: existing.user_id, created: false };
        }
        const id = createId();
        const personId = d.kind === "join" ? d.personId : null;
        await insertUser(tx, { id, email: p.email, time_joined: now, updated_at: now, primary_user_id: personId });
        await identities.insertIdentity(tx, { provider_id: p.thirdPartyId, provider_user_id: p.thirdPartyUserId, user_id: id, email: p.email, created_at: now, updated_at: now });
        // Joining needs the address verified on the person's side: it counts for the identity too.
        if (p.emailVerified || personId !== null) await markEmailVerified(tx, id, p.email, now);
        await insertEvent(tx, { at: now, type: "user.signed_up", userId: personId ?? id, data: { method: "thirdparty", provider: p.thirdPartyId, recipeUserId: id } });
        if (personId !== null) await recordLoginAdded(tx, ctx, { personId: personId, recipeUserId: id, source });
        else if (p.locale) await setPersonLocale(tx, id, p.locale, now);
        return { kind: "done" as const, userId: id, created: true };
      });
      if (outcome.kind === "refused") return { status: "SIGN_IN_UP_NOT_ALLOWED", reason: outcome.reason };
      const user = await getUser(ctx, outcome.userId);
      if (!user && attempt < 3) continue; // deleted in between: sign up afresh
      if (!user) throw new Error("third-party user vanished during sign-in");
      return { status: "OK", user, recipeUserId: outcome.userId, createdNewRecipeUser: outcome.created };
    } catch (err) {
      if (isUniqueViolation(err) && attempt < 3) continue;
      throw err;
    }
  }
}

/** What other rooms may do with provider identities (Room.accounts.providerIdentities, core/account-operations.ts). */
export const providerIdentities: ProviderIdentities = {
  upsert: upsertThirdPartyUser,
  find: async (db, thirdPartyId, thirdPartyUserId) => {
    const identity = await identities.findIdentity(db, thirdPartyId, thirdPartyUserId);
    return identity && { userId: identity.user_id };
  },
};
