import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * A real SAML identity provider that is not authsvc's code: samlify, as the IdP. Loaded untyped
 * (its type declarations pull the DOM library into the whole program), behind this small interface.
 * Its key and certificate are made with openssl per test run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const samlify: any = createRequire(import.meta.url)("samlify");
// The IdP side only reads our AuthnRequests; authsvc's side (node-saml) checks everything it receives.
samlify.setSchemaValidator({ validate: () => Promise.resolve("skipped") });

const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export interface TestSamlIdp {
  entityId: string;
  metadata: string;
  /** The AuthnRequest's id of an SP-initiated redirect (the Location authsvc sent the browser to). */
  requestIdOf(location: string, spMetadata: string): Promise<string>;
  /** A signed SAMLResponse (base64) for `email` to the SP of `spMetadata`, in response to `inResponseTo` (none: IdP-initiated). */
  respond(spMetadata: string, email: string, opts?: { inResponseTo?: string; groups?: string[]; times?: { notBefore: string; notOnOrAfter: string } }): Promise<string>;
}

/** `wantAuthnRequestsSigned`: the IdP refuses an AuthnRequest whose signature does not verify against the SP metadata's certificate. */
export function startSamlIdp(dir: string, name = "idp", opts: { wantAuthnRequestsSigned?: boolean } = {}): TestSamlIdp {
  const key = join(dir, `${name}.key`);
  const crt = join(dir, `${name}.crt`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", crt, "-days", "30", "-subj", `/CN=${name}`], { stdio: "ignore" });
  const entityId = `https://${name}.contoso.test/metadata`;
  const idp = samlify.IdentityProvider({
    entityID: entityId, privateKey: readFileSync(key, "utf8"), signingCert: readFileSync(crt, "utf8"),
    singleSignOnService: [{ Binding: REDIRECT, Location: `https://${name}.contoso.test/sso` }],
    nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
    ...(opts.wantAuthnRequestsSigned ? { wantAuthnRequestsSigned: true } : {}),
  });
  const spOf = (metadata: string) => samlify.ServiceProvider({ metadata });
  return {
    entityId,
    metadata: idp.getMetadata(),
    async requestIdOf(location, spMetadata) {
      const url = new URL(location);
      // What the SP signed (a signed request): the query as sent, without its Signature.
      const octetString = url.search.slice(1).split("&").filter((p) => !p.startsWith("Signature=")).join("&");
      const { extract } = await idp.parseLoginRequest(spOf(spMetadata), "redirect", { query: Object.fromEntries(url.searchParams), octetString });
      return extract.request.id as string;
    },
    async respond(spMetadata, email, opts = {}) {
      const sp = spOf(spMetadata);
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000);
      const times = opts.times ?? { notBefore: now.toISOString(), notOnOrAfter: later.toISOString() };
      const groups = (opts.groups ?? []).map((g) => `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${g}</saml:AttributeValue>`).join("");
      const attributes = `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>${groups ? `<saml:Attribute Name="groups">${groups}</saml:Attribute>` : ""}</saml:AttributeStatement>`;
      const acs = sp.entityMeta.getAssertionConsumerService(POST);
      const id = `_${Math.random().toString(36).slice(2)}${Date.now()}`;
      const { context } = await idp.createLoginResponse(sp, opts.inResponseTo ? { extract: { request: { id: opts.inResponseTo } } } : {}, "post", { email }, (template: string) => ({
        id,
        // Values are escaped by replaceTagsByValue: the attribute statement (XML) goes in first.
        context: samlify.SamlLib.replaceTagsByValue(template.replace("{AttributeStatement}", attributes), {
          ID: id, AssertionID: `_a${Math.random().toString(36).slice(2)}${Date.now()}`, Destination: acs, Audience: sp.entityMeta.getEntityID(), EntityID: sp.entityMeta.getEntityID(),
          SubjectRecipient: acs, Issuer: entityId, IssueInstant: now.toISOString(), AssertionConsumerServiceURL: acs,
          StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success", ConditionsNotBefore: times.notBefore, ConditionsNotOnOrAfter: times.notOnOrAfter,
          SubjectConfirmationDataNotOnOrAfter: times.notOnOrAfter, NameIDFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", NameID: email,
          InResponseTo: opts.inResponseTo ?? "", AuthnStatement: "",
        }),
      }));
      return context as string;
    },
  };
}

/** A second SP's metadata: another entity id (audience) with authsvc's ACS URL, as an attacker's SP would have. */
export function otherSpMetadata(acsUrl: string): string {
  return samlify.ServiceProvider({ entityID: "https://other-app.test/metadata", wantAssertionsSigned: true, assertionConsumerService: [{ Binding: POST, Location: acsUrl }] }).getMetadata();
}
