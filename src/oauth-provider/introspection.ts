import { jwtVerify, type JWTPayload } from "jose";
import type { OidcProvider } from "oidc-provider";
import type { CoreContext } from "../core/context.js";
import { requestScope } from "./client-documents.js";
import { routes } from "./provider.js";

/**
 * Token introspection (RFC 7662, POST /oauth/introspect) for every token the provider issued:
 * refresh tokens and opaque access tokens (its records), and JWT access tokens (RFC 9068), which it
 * keeps no record of. Only a client that authenticates may ask (a public client gets 401
 * invalid_client): about its own tokens, or, as a resource server, about tokens for a resource the
 * operator allowed it (its `--resources`). A JWT of a person is live while its grant is: it names
 * its grant (`grant_id`), so it is inactive at once when any security event ended that grant.
 */

/** The claim that names a person's JWT access token's grant. */
export const GRANT_CLAIM = "grant_id";

/** What a JWT access token carries beyond RFC 9068's claims (oidc-provider's extraTokenClaims): a person's token, its grant. */
export function grantClaimOf(token: { kind?: string; grantId?: string; resourceServer?: { accessTokenFormat?: string } }): Record<string, string> | undefined {
  return token.kind === "AccessToken" && token.resourceServer?.accessTokenFormat === "jwt" && token.grantId ? { [GRANT_CLAIM]: token.grantId } : undefined;
}

type Client = { clientId: string; clientAuthMethod: string; metadata(): Record<string, unknown> };

/** Whether `client` may learn about `token`: its own confidential client, or a resource server the operator allowed every audience of it. */
export function introspectionAllowed(_c: unknown, client: Client, token: { clientId?: string; aud?: unknown }): boolean {
  if (client.clientAuthMethod === "none") return false;
  if (token.clientId === client.clientId) return true;
  const audiences = Array.isArray(token.aud) ? token.aud : typeof token.aud === "string" ? [token.aud] : [];
  const allowed = client.metadata().authsvc_resources;
  return audiences.length > 0 && Array.isArray(allowed) && audiences.every((a) => allowed.includes(a));
}

/**
 * Koa middleware: an introspection answered to a public client becomes 401 invalid_client. The
 * provider checks a public client's PKCE elsewhere, but has no secret to check here, so anyone may
 * claim to be one: whatever it found, nothing is said (introspection changes nothing, so answering
 * after the lookup is safe).
 */
export async function refusePublicIntrospection(c: any, next: () => Promise<void>): Promise<void> {
  await next();
  if (c.oidc?.route !== "introspection" || c.status !== 200 || c.oidc.client?.clientAuthMethod !== "none") return;
  c.status = 401;
  c.body = { error: "invalid_client", error_description: "introspection needs client authentication: only a confidential client (a client secret) may introspect tokens" };
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Lets introspection find JWT access tokens: on that route only, a token of JWT shape is verified
 * (our keys, RS256, our issuer, `typ: at+jwt`, not expired) and read back as the provider's token
 * model, which the provider then checks as it checks its records (the grant still there and the
 * same account and client, the policy above). A person's token without its grant claim (one from
 * before the claim existed) is not live: nothing could say whether its grant ended.
 */
export function useJwtIntrospection(provider: OidcProvider, ctx: CoreContext): void {
  const models = provider as unknown as Record<"AccessToken" | "ClientCredentials", { find(v: unknown, o?: unknown): Promise<unknown>; instantiate(p: Record<string, unknown>): unknown }>;
  for (const kind of ["AccessToken", "ClientCredentials"] as const) {
    const model = models[kind];
    const find = model.find.bind(model);
    model.find = async (value: unknown, opts?: unknown) => {
      if (typeof value !== "string" || !JWT_SHAPE.test(value) || requestScope.getStore()?.path !== routes.introspection) return find(value, opts);
      const p = await verifyJwtAccessToken(ctx, provider.issuer, value);
      if (!p) return undefined;
      const person = p.sub !== p.client_id;
      if (person !== (kind === "AccessToken") || (person && typeof p[GRANT_CLAIM] !== "string")) return undefined;
      return model.instantiate({
        jti: p.jti, iat: p.iat, exp: p.exp, clientId: p.client_id, aud: p.aud, scope: p.scope, extra: {},
        ...(person ? { accountId: p.sub, grantId: p[GRANT_CLAIM] } : {}),
      });
    };
  }
}

async function verifyJwtAccessToken(ctx: CoreContext, issuer: string, token: string): Promise<(JWTPayload & Record<string, unknown>) | undefined> {
  try {
    const { payload } = await jwtVerify(token, async (header) => {
      const key = typeof header.kid === "string" ? await ctx.keys.verificationKey(header.kid) : undefined;
      if (!key) throw new Error("unknown key");
      return key;
    }, { issuer, typ: "at+jwt", algorithms: ["RS256"], requiredClaims: ["exp", "iat", "jti", "client_id", "sub", "aud"] });
    return typeof payload.client_id === "string" ? payload : undefined;
  } catch {
    return undefined;
  }
}
