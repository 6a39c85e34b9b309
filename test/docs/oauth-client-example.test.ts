import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { backends } from "../helpers/backends.js";
import { authorizeInBrowser, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { readBlocks } from "../helpers/readme-blocks.js";
// @ts-expect-error: a plain .mjs example, run as the docs show it
import { authorizeUrl, connect, finishSignIn, refresh, userInfo } from "../../examples/oauth-client/client.mjs";

const ROOT = resolve(import.meta.dirname, "../..");
const API = "https://api.example.com/notes";

it("docs/oauth-provider.md shows examples/oauth-client/client.mjs verbatim", () => {
  const blocks = readBlocks(join(ROOT, "docs/oauth-provider.md"));
  expect(blocks.filter((b) => b.lang === "js").map((b) => b.code)).toContain(readFileSync(join(ROOT, "examples/oauth-client/client.mjs"), "utf8"));
});

/** The example client app against a real authsvc: a person signs in through it, then it refreshes. */
describe.each(backends)("examples/oauth-client against authsvc ($name)", (backend) => {
  let s: OauthServer;
  beforeAll(async () => { s = await startOauthServer(backend); });
  afterAll(async () => { await s?.close(); });

  it("authorize URL with PKCE, the token request, userinfo and a refresh; the ID token, access token and userinfo say what docs/oauth-provider.md says", async () => {
    await createResource(s.app.ctx, { resource: API, name: "Notes API", scopes: ["notes:read"] }, "test");
    const registered = await createClient(s.app.ctx, { name: "YourApp", type: "confidential", redirectUris: [`${s.url}/cb`], resources: [API] }, "test");
    const config = await connect({ issuer: s.url, clientId: registered.clientId, clientSecret: registered.clientSecret, allowHttp: true });

    const jar = new CookieJar();
    await signUpInto(jar, s.url, "reader@example.com");
    const payload = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString());

    // Signing in to the app itself: openid, the address and a refresh token; userinfo answers.
    const started = await authorizeUrl(config, { redirectUri: `${s.url}/cb` });
    expect(started.url.searchParams.get("code_challenge_method")).toBe("S256");
    const { callback } = await authorizeInBrowser(jar, s.url, started.url.toString());
    const { tokens, idToken } = await finishSignIn(config, callback.toString(), started);
    const userinfo = await userInfo(config, tokens);
    // The ID token: who, when and how they signed in, for this client; the address is userinfo's.
    expect(idToken).toMatchObject({ iss: s.url, aud: registered.clientId, sub: expect.any(String), auth_time: expect.any(Number), amr: ["pwd"] });
    expect(idToken.email).toBeUndefined();
    expect(userinfo).toEqual({ sub: idToken.sub, email: "reader@example.com", email_verified: true });
    // Without a resource the access token is opaque (for userinfo only), with a refresh token beside it.
    expect(tokens.access_token.split(".")).toHaveLength(1);
    expect(tokens.scope).toBe("openid email offline_access");
    const again = await refresh(config, tokens.refresh_token);
    expect(again.access_token).not.toBe(tokens.access_token);
    expect((await userInfo(config, again)).sub).toBe(idToken.sub);

    // For an API: the access token is a JWT for that API (its audience), which userinfo does not take.
    const forApi = await authorizeUrl(config, { redirectUri: `${s.url}/cb`, resource: API, scope: "openid email notes:read" });
    const second = await finishSignIn(config, (await authorizeInBrowser(jar, s.url, forApi.url.toString())).callback.toString(), forApi);
    expect(payload(second.tokens.access_token)).toMatchObject({ iss: s.url, aud: API, sub: idToken.sub, client_id: registered.clientId, scope: "notes:read" });
    expect(payload(second.tokens.access_token).email).toBeUndefined();
    // Then the ID token carries the address itself: there is no access token for userinfo.
    expect(second.idToken).toMatchObject({ sub: idToken.sub, email: "reader@example.com", email_verified: true, amr: ["pwd"] });
    await expect(userInfo(config, second.tokens)).rejects.toThrow();
  });
});
