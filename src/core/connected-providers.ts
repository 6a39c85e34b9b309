import type { CoreContext } from "./context.js";

/**
 * Third-party providers that exist at run time rather than in the configuration: an
 * organization's enterprise OpenID Connect connections (`oidc-<id>`, added with `authsvc orgs sso
 * add`). The room that keeps them offers them in its declaration (Room.connectedProviders; the
 * composition root puts them in the context once, kernel/offers.ts); the sign-in with providers
 * asks `ctx.connectedProviders` for a thirdPartyId it has not configured, so the SDKs' third-party flows
 * (GET /authorisationurl, POST /signinup) work for them unchanged. Neither room names the other.
 */
export interface ConnectedProvider {
  /** The SDKs' thirdPartyId (`oidc-<connection id>`). */
  id: string;
  name: string;
  /** The OpenID provider: its issuer (discovery at `<issuer>/.well-known/openid-configuration`) and our client there. */
  oidc: { issuer: string; clientId: string; clientSecret: string; scope: readonly string[] };
  /**
   * Who signed in, as the provider's checked ID token and user info say, before any account is
   * touched: the address to sign in with and whether it counts as verified. Throws an AuthError
   * (a 400 naming the reason) to refuse the sign-in.
   */
  admit(ctx: CoreContext, who: { userId: string; email?: string; emailVerified: boolean; claims: Readonly<Record<string, unknown>> }): Promise<{ email: string; emailVerified: boolean }>;
  /** After the account is signed in or up, before the session: what the connection's owner does with them (membership). Throws to refuse. */
  signedIn(ctx: CoreContext, p: { recipeUserId: string; claims: Readonly<Record<string, unknown>> }): Promise<void>;
}

export interface ConnectedProviders {
  /** The provider of a thirdPartyId, or undefined when it names none of these. */
  find(ctx: CoreContext, thirdPartyId: string): Promise<ConnectedProvider | undefined>;
}
