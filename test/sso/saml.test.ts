import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { otherSpMetadata, startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp.js";
import { jwtPayload } from "../helpers/session-client.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson } from "../organizations/helpers.js";
import { USER, patchOps, scim, scimToken } from "./helpers.js";

/**
 * SAML 2.0 connections with a real IdP that is not authsvc's code (samlify): SP-initiated sign-in
 * (HTTP-Redirect, then the POST to the ACS), IdP-initiated where the connection allows it, a new
 * member with the role from the IdP's groups, linking to a person who has the address verified;
 * and the refusals: another audience, an expired assertion, an unsigned one, a wrapped signature,
 * a replay, an IdP-initiated response to a connection that does not allow it.
 */
describe.each(backends)("SAML connections ($name)", (backend) => {
  let t: TestApp;
  let dir: string;
  let idp: TestSamlIdp;
  let org: { id: string; slug: string };
  let conn: { id: string; thirdPartyId: string; sp: { entityId: string; acsUrl: string } };
  let spMetadata: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-saml-"));
    idp = startSamlIdp(dir);
    t = await createTestApp({ backend, start: true, config: { mode: "development", mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY } });
    const owner = await newPerson(t, "owner@contoso.test");
    org = (await call(t, "POST", "/organizations", owner, { name: "Contoso" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/contoso.test`, {})).status).toBe(200);
    conn = await addConnection(idp.metadata);
    spMetadata = await (await fetch(`${t.url}/auth/saml/${conn.id}/metadata`)).text();
  });
  afterAll(async () => { await t?.close(); rmSync(dir, { recursive: true, force: true }); });

  async function addConnection(metadata: string, ...flags: string[]) {
    const file = join(dir, `metadata-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(file, metadata);
    const r = await runCli(["orgs", "sso", "add", org.slug, "--saml-metadata", file, ...flags, "--json", "--database", t.config.database]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).connection;
  }
  const acs = async (id: string, SAMLResponse: string, RelayState?: string) => {
    const res = await fetch(`${t.url}/auth/saml/${id}/acs`, { method: "POST", redirect: "manual", body: new URLSearchParams({ SAMLResponse, ...(RelayState ? { RelayState } : {}) }) });
    return { status: res.status, location: res.headers.get("location"), cookies: res.headers.getSetCookie(), json: (await res.json()) as Record<string, any> };
  };
  const roleOf = async (email: string) => (await admin(t, "GET", `/organizations/${org.id}/members`)).body.members.find((m: { email: string }) => m.email === email)?.role;
  const usersNamed = async (email: string) => (await admin(t, "GET", `/users?email=${encodeURIComponent(email)}`)).body.users ?? [];

  it("publishes SP metadata and lists the connection; bad metadata is refused", async () => {
    expect(conn).toMatchObject({ thirdPartyId: `saml-${conn.id}`, idpInitiated: false, sp: { acsUrl: expect.stringContaining(`/auth/saml/${conn.id}/acs`) } });
    expect(spMetadata).toContain(`entityID="${conn.sp.entityId}"`);
    expect(spMetadata).toContain('WantAssertionsSigned="true"');
    const list = await runCli(["orgs", "sso", "list", org.slug, "--json", "--database", t.config.database]);
    expect(JSON.parse(list.stdout).connections.map((c: { id: string }) => c.id)).toEqual([conn.id]);
    const file = join(dir, "bad.xml");
    writeFileSync(file, "<EntityDescriptor entityID='x'/>");
    const bad = await runCli(["orgs", "sso", "add", org.slug, "--saml-metadata", file, "--database", t.config.database]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("one identity provider");
  });

  it("SP-initiated: the redirect to the IdP, the signed response at the ACS, a session and a new member with the role from groups", async () => {
    const start = await fetch(`${t.url}/auth/saml/${conn.id}/login?redirectToPath=/dashboard`, { redirect: "manual" });
    expect(start.status).toBe(302);
    const location = start.headers.get("location")!;
    expect(location.startsWith("https://idp.contoso.test/sso?SAMLRequest=")).toBe(true);
    const requestId = await idp.requestIdOf(location, spMetadata);
    const response = await idp.respond(spMetadata, "Alex@Contoso.test", { inResponseTo: requestId, groups: ["admin", "Sales"] });
    const r = await acs(conn.id, response, "/dashboard");
    expect(r).toMatchObject({ status: 303, location: "http://localhost:3000/dashboard" });
    const access = r.cookies.find((c) => c.startsWith("sAccessToken="))!;
    expect(access).toBeDefined();
    const users = await usersNamed("alex@contoso.test");
    expect(users).toHaveLength(1);
    expect(users[0].loginMethods).toEqual([expect.objectContaining({ recipeId: "thirdparty", verified: true, thirdParty: expect.objectContaining({ id: `saml-${conn.id}` }) })]);
    expect(jwtPayload(access.split(";")[0].slice("sAccessToken=".length)).sub).toBe(users[0].id);
    expect(await roleOf("alex@contoso.test")).toBe("admin");
    // The same response again is refused (its request was answered already), no session.
    const again = await acs(conn.id, response);
    expect(again.status).toBe(400);
    expect(again.cookies.filter((c) => c.startsWith("sAccessToken="))).toEqual([]);
  });

  it("links to the person who has the address verified", async () => {
    const pat = await newPerson(t, "pat@contoso.test");
    const start = await fetch(`${t.url}/auth/saml/${conn.id}/login`, { redirect: "manual" });
    const requestId = await idp.requestIdOf(start.headers.get("location")!, spMetadata);
    const r = await acs(conn.id, await idp.respond(spMetadata, "pat@contoso.test", { inResponseTo: requestId }));
    expect(r.status).toBe(303);
    const users = await usersNamed("pat@contoso.test");
    expect(users).toHaveLength(1);
    expect(users[0].id).toBe(pat.id);
    expect(users[0].loginMethods.map((m: { recipeId: string }) => m.recipeId).sort()).toEqual(["emailpassword", "thirdparty"]);
    expect(await roleOf("pat@contoso.test")).toBe("member");
  });

  it("a person the organization's directory deprovisioned (SCIM) cannot sign in through its IdP", async () => {
    const token = await scimToken(t, org.slug);
    const u = await scim(t, token, "POST", "/Users", { schemas: [USER], userName: "gone@contoso.test", emails: [{ value: "gone@contoso.test", primary: true }] });
    expect(u.status).toBe(201);
    expect((await scim(t, token, "PATCH", `/Users/${u.json.id}`, patchOps({ op: "Replace", path: "active", value: "False" }))).status).toBe(200);
    const start = await fetch(`${t.url}/auth/saml/${conn.id}/login`, { redirect: "manual" });
    const requestId = await idp.requestIdOf(start.headers.get("location")!, spMetadata);
    const r = await acs(conn.id, await idp.respond(spMetadata, "gone@contoso.test", { inResponseTo: requestId }));
    expect(r).toMatchObject({ status: 400, json: { message: expect.stringContaining("deprovisioned") } });
    expect(r.cookies.filter((c) => c.startsWith("sAccessToken="))).toEqual([]);
    expect(await roleOf("gone@contoso.test")).toBeUndefined();
  });

  it("IdP-initiated only where the connection allows it", async () => {
    const refused = await acs(conn.id, await idp.respond(spMetadata, "idp1@contoso.test"));
    expect(refused.status).toBe(400);
    expect(await usersNamed("idp1@contoso.test")).toEqual([]);
    const open = await addConnection(idp.metadata, "--idp-initiated");
    expect(open.idpInitiated).toBe(true);
    const openSp = await (await fetch(`${t.url}/auth/saml/${open.id}/metadata`)).text();
    const unsolicited = await idp.respond(openSp, "idp1@contoso.test");
    const ok = await acs(open.id, unsolicited);
    expect(ok.status).toBe(303);
    expect(await roleOf("idp1@contoso.test")).toBe("member");
    // With no request to answer, only the remembered assertion id stops a replay of the same response.
    const replay = await acs(open.id, unsolicited);
    expect(replay).toMatchObject({ status: 400, json: { message: expect.stringContaining("replay") } });
    expect(replay.cookies.filter((c) => c.startsWith("sAccessToken="))).toEqual([]);
  });

  it("refuses another audience, an expired assertion, an unsigned one, a wrapped signature, and an address outside the proven domains", async () => {
    const fresh = async () => idp.requestIdOf((await fetch(`${t.url}/auth/saml/${conn.id}/login`, { redirect: "manual" })).headers.get("location")!, spMetadata);
    const cases: Array<[string, string]> = [];
    cases.push(["audience", await idp.respond(otherSpMetadata(conn.sp.acsUrl), "eve@contoso.test", { inResponseTo: await fresh() })]);
    const past = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    cases.push(["expired", await idp.respond(spMetadata, "eve@contoso.test", { inResponseTo: await fresh(), times: { notBefore: past(20), notOnOrAfter: past(10) } })]);
    const signed = Buffer.from(await idp.respond(spMetadata, "eve@contoso.test", { inResponseTo: await fresh() }), "base64").toString("utf8");
    const unsigned = signed.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "");
    expect(unsigned).not.toContain("Signature");
    cases.push(["unsigned", Buffer.from(unsigned).toString("base64")]);
    // Signature wrapping: an unsigned assertion for mallory beside (before) the signed one for eve
    // (from a response of its own: the unsigned one above used up its request id).
    const signed2 = Buffer.from(await idp.respond(spMetadata, "eve@contoso.test", { inResponseTo: await fresh() }), "base64").toString("utf8");
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed2)![0];
    const evil = assertion.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, "").replace(/eve@contoso\.test/g, "mallory@contoso.test").replace(/ID="[^"]+"/, 'ID="_evil"');
    cases.push(["wrapped", Buffer.from(signed2.replace(assertion, evil + assertion)).toString("base64")]);
    cases.push(["outside", await idp.respond(spMetadata, "eve@example.com", { inResponseTo: await fresh() })]);
    for (const [name, response] of cases) {
      const r = await acs(conn.id, response);
      expect({ name, status: r.status, cookies: r.cookies.filter((c) => c.startsWith("sAccessToken=")) }).toEqual({ name, status: 400, cookies: [] });
    }
    expect(await usersNamed("eve@contoso.test")).toEqual([]);
    expect(await usersNamed("mallory@contoso.test")).toEqual([]);
  });
});
