import { describe, expect, it } from "vitest";
import { normaliseProviders } from "../../src/methods/third-party/provider-config.js";
import { ConfigError, resolveConfig, testConfig } from "../../src/config.js";
import { createApp } from "../../src/app.js";

const oidc = { thirdPartyId: "corp", oidcDiscoveryEndpoint: "https://idp.example.com/.well-known/openid-configuration", clientId: "cid", clientSecret: "very-secret-value" };

describe("provider configuration", () => {
  it("normalises a generic OIDC provider with defaults", () => {
    const [p] = normaliseProviders([oidc], "production");
    expect(p).toMatchObject({ id: "corp", name: "corp", clients: [{ clientId: "cid", clientSecret: "very-secret-value", scope: [], forcePKCE: false }], requireEmail: true, nonce: true, timeoutMs: 5000, tokenEndpointAuthMethod: "client_secret_post" });
    expect(p.userInfoMap.fromIdTokenPayload).toEqual({ userId: "sub", email: "email", emailVerified: "email_verified" });
  });

  it("fills presets by thirdPartyId prefix and lets the config override them", () => {
    const [gh, google, ms, discord] = normaliseProviders([
      { thirdPartyId: "github", clientId: "a", clientSecret: "b" },
      { thirdPartyId: "google-workspace", clientId: "a", clientSecret: "b", scope: ["openid", "email", "profile"] },
      { thirdPartyId: "microsoft", clientId: "a", clientSecret: "b", additionalConfig: { directoryId: "contoso" } },
      { thirdPartyId: "discord", name: "Chat", clientId: "a", clientSecret: "b" },
    ], "production");
    expect(gh).toMatchObject({ name: "GitHub", preset: "github", tokenEndpoint: "https://github.com/login/oauth/access_token", userInfoEndpoint: "https://api.github.com/user", userInfoMap: { fromUserInfoAPI: { userId: "id" } } });
    expect(google).toMatchObject({ name: "Google", oidcDiscoveryEndpoint: "https://accounts.google.com/.well-known/openid-configuration", clients: [{ scope: ["openid", "email", "profile"] }] });
    expect(ms.oidcDiscoveryEndpoint).toBe("https://login.microsoftonline.com/contoso/v2.0/.well-known/openid-configuration");
    expect(discord).toMatchObject({ name: "Chat", userInfoMap: { fromUserInfoAPI: { emailVerified: "verified" } } });
  });

  it("accepts the SuperTokens clients array and a flat userInfoMap", () => {
    const [p] = normaliseProviders([{ thirdPartyId: "x", authorizationEndpoint: "https://x.example/a", tokenEndpoint: "https://x.example/t", userInfoEndpoint: "https://x.example/u",
      clients: [{ clientType: "web", clientId: "w", clientSecret: "s" }, { clientType: "ios", clientId: "i" }], userInfoMap: { userId: "data.id", email: "data.mail" } }], "production");
    expect(p.clients.map((c) => c.clientType)).toEqual(["web", "ios"]);
    expect(p.userInfoMap.fromUserInfoAPI).toEqual({ userId: "data.id", email: "data.mail", emailVerified: "email_verified" });
  });

  it.each([
    [{ thirdPartyId: "corp", oidcDiscoveryEndpoint: oidc.oidcDiscoveryEndpoint }, 'provider "corp": clientId: is required'],
    [{ ...oidc, clientSecrett: "typo" }, 'provider "corp": clientSecrett: unknown field'],
    [{ ...oidc, oidcDiscoveryEndpoint: "not a url" }, 'provider "corp": oidcDiscoveryEndpoint: expected an absolute http(s) URL'],
    [{ thirdPartyId: "plain", clientId: "a", authorizationEndpoint: "https://p.example/a" }, 'provider "plain": tokenEndpoint: is required without oidcDiscoveryEndpoint'],
    [{ thirdPartyId: "plain", clientId: "a", authorizationEndpoint: "https://p.example/a", tokenEndpoint: "https://p.example/t" }, 'provider "plain": userInfoEndpoint: is required'],
    [{ thirdPartyId: "plain", clientId: "a", authorizationEndpoint: "https://p.example/a", tokenEndpoint: "https://p.example/t", jwksURI: "https://p.example/j" }, 'provider "plain": issuer: is required with jwksURI'],
    [{ ...oidc, oidcDiscoveryEndpoint: "http://idp.example.com/d" }, 'provider "corp": oidcDiscoveryEndpoint: must be https in production'],
    [{ ...oidc, userInfoMap: { email: "a..b" } }, 'provider "corp": userInfoMap.email: expected a dotted path'],
    [{ ...oidc, timeoutMs: 10 }, 'provider "corp": timeoutMs: expected a whole number of milliseconds'],
    [{ thirdPartyId: "apple", clientId: "a" }, 'provider "apple": additionalConfig.keyId: is required for Apple'],
    [{ thirdPartyId: "corp", oidcDiscoveryEndpoint: oidc.oidcDiscoveryEndpoint, clients: [{ clientId: "a" }, { clientId: "b" }] }, 'provider "corp": clients: with more than one client, each needs its own clientType'],
    [{ thirdPartyId: "bad id!" }, 'provider "bad id!": thirdPartyId: expected letters, digits and dashes'],
    [{ ...oidc, clients: [{ clientId: "a" }] }, 'provider "corp": clients: give either clients or clientId/clientSecret/scope/forcePKCE/additionalConfig, not both'],
  ])("rejects %j naming the provider and the field", (raw, message) => {
    expect(() => normaliseProviders([raw], "production")).toThrow(message);
  });

  it("allows plain http to loopback in production and anything in development", () => {
    expect(() => normaliseProviders([{ ...oidc, oidcDiscoveryEndpoint: "http://127.0.0.1:8080/d" }], "production")).not.toThrow();
    expect(() => normaliseProviders([{ ...oidc, oidcDiscoveryEndpoint: "http://idp.internal/d" }], "development")).not.toThrow();
  });

  it("rejects duplicate thirdPartyIds", () => {
    expect(() => normaliseProviders([oidc, oidc], "development")).toThrow('provider "corp": thirdPartyId: used more than once');
  });

  it("stops config resolution with a message naming provider and field, never the secret", () => {
    const env = { AUTHSVC_PROVIDERS: JSON.stringify([{ ...oidc, scope: 42 }]) };
    let err: unknown;
    try { resolveConfig({ env }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain('provider "corp": scope: expected an array of strings');
    expect((err as Error).message).not.toContain("very-secret-value");
  });

  it("stops createApp on an invalid provider before opening the database", async () => {
    await expect(createApp(testConfig({ database: "/nonexistent/dir/x.db", providers: [{ thirdPartyId: "corp" }] }))).rejects.toThrow(/provider "corp": clientId: is required/);
  });
});

describe("provider presets' hooks", () => {
  it("signs Apple's client secret as a short-lived ES256 JWT with the team's key", async () => {
    const { generateKeyPair, exportPKCS8, jwtVerify } = await import("jose");
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const [apple] = normaliseProviders([{ thirdPartyId: "apple", clientId: "com.example.web", additionalConfig: { keyId: "KEY123", teamId: "TEAM456", privateKey: await exportPKCS8(privateKey) } }], "production");
    const now = Date.UTC(2030, 0, 1);
    const secret = await apple.hooks.clientSecret!(apple.clients[0], now);
    const { payload, protectedHeader } = await jwtVerify(secret!, publicKey, { audience: "https://appleid.apple.com", issuer: "TEAM456", subject: "com.example.web", currentDate: new Date(now) });
    expect(protectedHeader).toMatchObject({ alg: "ES256", kid: "KEY123" });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it("fills Microsoft's multi-tenant issuer template from the token's tid", () => {
    const [ms] = normaliseProviders([{ thirdPartyId: "microsoft", clientId: "a", clientSecret: "b" }], "production");
    expect(ms.hooks.issuerFor!("https://login.microsoftonline.com/{tenantid}/v2.0", { tid: "t-1" })).toBe("https://login.microsoftonline.com/t-1/v2.0");
    expect(ms.hooks.issuerFor!("https://login.microsoftonline.com/{tenantid}/v2.0", {})).toBeUndefined();
  });
});
