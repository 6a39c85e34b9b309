import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeDeadData } from "../../src/core/purge.js";
import { backends } from "../helpers/backends.js";
import { runCli } from "../helpers/cli.js";
import { startSamlIdp, type TestSamlIdp } from "../helpers/saml-idp.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { admin, KEY } from "../http/admin/admin-client.js";
import { call, newPerson } from "../organizations/helpers.js";

/**
 * SAML connections run by several instances over one database: an AuthnRequest one instance sent
 * is answered at another (the request ids live in the database, not in a process), once, and not
 * after it expired; AuthnRequests signed with --saml-signing-key, whose certificate the SP metadata
 * publishes and a samlify IdP that wants signed requests checks; and IdP metadata given as a URL,
 * read again in the background (a new signing certificate taken, a failed read keeping the last
 * good copy and shown in `orgs sso list`).
 */
describe.each(backends)("SAML connections across instances ($name)", (backend) => {
  let t: TestApp;
  let other: TestApp;
  let dir: string;
  let idp: TestSamlIdp;
  let org: { id: string; slug: string };
  let conn: { id: string; sp: { entityId: string } };
  let spMetadata: string;
  let cert: string;
  let metadataServer: Server;
  let served: { status: number; body: string } = { status: 200, body: "" };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "authsvc-saml-inst-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "sp.key"), "-out", join(dir, "sp.crt"), "-days", "30", "-subj", "/CN=authsvc-sp"], { stdio: "ignore" });
    cert = readFileSync(join(dir, "sp.crt"), "utf8");
    idp = startSamlIdp(dir, "idp", { wantAuthnRequestsSigned: true });
    const config = { mode: "development" as const, mailCatcher: true, mailCatcherPort: 0, rateLimits: false, adminApiKey: KEY, samlSigningKey: join(dir, "sp.key"), samlSigningCert: join(dir, "sp.crt") };
    t = await createTestApp({ backend, start: true, config });
    // A second instance over the same database (its own process state, as after a restart or behind a load balancer).
    other = await createTestApp({ backend, config: { ...config, mailCatcher: false, database: t.config.database } });
    const owner = await newPerson(t, "owner@contoso.test");
    org = (await call(t, "POST", "/organizations", owner, { name: "Contoso" })).json.organization;
    expect((await admin(t, "PUT", `/organizations/${org.id}/domains/contoso.test`, {})).status).toBe(200);
    conn = await addConnection(join(dir, "idp.xml"), idp.metadata);
    spMetadata = await (await fetch(`${t.url}/auth/saml/${conn.id}/metadata`)).text();
    metadataServer = createServer((_req, res) => { res.writeHead(served.status, { "content-type": "application/xml" }); res.end(served.body); });
    await new Promise<void>((r) => metadataServer.listen(0, "127.0.0.1", () => r()));
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await new Promise<void>((r) => (metadataServer ? metadataServer.close(() => r()) : r()));
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runCli([...args, "--database", t.config.database, "--saml-signing-key", join(dir, "sp.key"), "--saml-signing-cert", join(dir, "sp.crt")]);
  async function addConnection(source: string, metadata: string | undefined, ...flags: string[]) {
    if (metadata !== undefined) writeFileSync(source, metadata);
    const r = await cli("orgs", "sso", "add", org.slug, "--saml-metadata", source, ...flags, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).connection;
  }
  const acs = async (app: TestApp, id: string, SAMLResponse: string) => {
    const res = await fetch(`${app.url}/auth/saml/${id}/acs`, { method: "POST", redirect: "manual", body: new URLSearchParams({ SAMLResponse }) });
    return { status: res.status, json: (await res.json()) as Record<string, any>, session: res.headers.getSetCookie().some((c) => c.startsWith("sAccessToken=")) };
  };
  const login = async (app: TestApp) => (await fetch(`${app.url}/auth/saml/${conn.id}/login`, { redirect: "manual" })).headers.get("location")!;

  it("signs its AuthnRequests; the metadata publishes the certificate, and an IdP that checks the signature accepts them and refuses a tampered one", async () => {
    expect(spMetadata).toContain('AuthnRequestsSigned="true"');
    const body = cert.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
    expect(spMetadata.replace(/\s+/g, "")).toContain(body);
    const location = await login(t);
    const url = new URL(location);
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    expect(url.searchParams.get("Signature")).toBeTruthy();
    await expect(idp.requestIdOf(location, spMetadata)).resolves.toMatch(/^_/);
    url.searchParams.set("RelayState", "/somewhere-else");
    await expect(idp.requestIdOf(url.toString(), spMetadata)).rejects.toThrow(/SIGNATURE/);
  });

  it("a request sent by one instance is answered at another, once; an expired one is refused", async () => {
    const requestId = await idp.requestIdOf(await login(t), spMetadata);
    const stored = await t.app.ctx.store.db.selectFrom("sso_requests").select("request_id").where("connection_id", "=", conn.id).where("request_id", "=", requestId).execute();
    expect(stored).toHaveLength(1);
    const response = await idp.respond(spMetadata, "ana@contoso.test", { inResponseTo: requestId });
    const r = await acs(other, conn.id, response);
    expect(r).toMatchObject({ status: 303, session: true });
    // Answered: gone from the database, so neither instance takes another answer to it.
    const again = await acs(t, conn.id, await idp.respond(spMetadata, "ana@contoso.test", { inResponseTo: requestId }));
    expect(again).toMatchObject({ status: 400, session: false });
    // A request older than its lifetime (an hour) is no longer answered.
    const late = await idp.requestIdOf(await login(t), spMetadata);
    t.clock.advance(61 * 60_000);
    const expired = await acs(t, conn.id, await idp.respond(spMetadata, "late@contoso.test", { inResponseTo: late }));
    expect(expired).toMatchObject({ status: 400, session: false, json: { message: expect.stringContaining("InResponseTo") } });
    expect((await admin(t, "GET", "/users?email=late%40contoso.test")).body.users ?? []).toEqual([]);
    // A request never answered is deleted by the purge once it has expired.
    const unanswered = await idp.requestIdOf(await login(t), spMetadata);
    const rows = () => t.app.ctx.store.db.selectFrom("sso_requests").select("request_id").where("request_id", "=", unanswered).execute();
    // (The late request above has expired already: this purge takes it, and leaves the live one.)
    expect((await purgeDeadData(t.app.ctx)).samlRequests).toBe(1);
    expect(await rows()).toHaveLength(1);
    t.clock.advance(61 * 60_000);
    expect((await purgeDeadData(t.app.ctx)).samlRequests).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it("reads IdP metadata from a URL again: takes the IdP's new certificate; a failed read keeps the last good copy and is shown", async () => {
    for (const d of ["old", "new"]) mkdirSync(join(dir, d), { recursive: true });
    const old = startSamlIdp(join(dir, "old"), "rollover", {});
    const rolled = startSamlIdp(join(dir, "new"), "rollover", {});
    const url = `http://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/metadata`;
    served = { status: 200, body: old.metadata };
    const c = await addConnection(url, undefined, "--idp-initiated");
    expect(c).toMatchObject({ metadataSource: url, metadataError: null });
    const sp = await (await fetch(`${t.url}/auth/saml/${c.id}/metadata`)).text();
    expect((await acs(t, c.id, await old.respond(sp, "old@contoso.test"))).status).toBe(303);
    expect((await acs(t, c.id, await rolled.respond(sp, "new@contoso.test"))).status).toBe(400);
    // The IdP rolled its key over: the next refresh (after --sso-metadata-refresh, 6 h) takes it.
    served = { status: 200, body: rolled.metadata };
    expect(await t.app.background.flush("sso-metadata")).toEqual({ sent: 0, failed: 0 }); // not due yet
    t.clock.advance(6 * 3_600_000 + 10 * 60_000); // the CLI added it on the real clock, a little ahead of the test's
    expect(await t.app.background.flush("sso-metadata")).toEqual({ sent: 1, failed: 0 });
    expect((await acs(t, c.id, await rolled.respond(sp, "new@contoso.test"))).status).toBe(303);
    // The URL fails: the last good copy stays in use, the failure is shown.
    served = { status: 500, body: "down" };
    t.clock.advance(6 * 3_600_000 + 10 * 60_000); // the CLI added it on the real clock, a little ahead of the test's
    expect(await t.app.background.flush("sso-metadata")).toEqual({ sent: 0, failed: 1 });
    const list = await cli("orgs", "sso", "list", org.slug);
    expect(list.stdout).toContain(`${c.id}  saml  ${old.entityId}  idp-initiated  metadata refresh failed: HTTP 500`);
    expect(JSON.parse((await cli("orgs", "sso", "list", org.slug, "--json")).stdout).connections.find((x: { id: string }) => x.id === c.id)).toMatchObject({ metadataError: "HTTP 500" });
    expect((await acs(t, c.id, await rolled.respond(sp, "new2@contoso.test"))).status).toBe(303);
  });
});
