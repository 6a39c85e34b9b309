import { errorResponse, errorsFor, json, ref } from "../http/openapi/components.js";
import { apiArea } from "../http/openapi/types.js";
import { routingPaths } from "./routing-openapi.js";

const tags = ["enterprise-sso"];
const id = { name: "id", in: "path", required: true, schema: { type: "string" }, description: "the SAML connection's id (`authsvc orgs sso list <org>`)" };
const redirect = (description: string) => ({ description, headers: { location: { schema: { type: "string" } } } });

/** SAML connections per organization (src/sso/, docs/enterprise-sso.md): authsvc's own endpoints. SCIM is under /scim/v2, outside this document. */
export const ssoArea = apiArea("enterprise-sso", "Enterprise sign-in per organization: SAML 2.0 connections (docs/enterprise-sso.md). SCIM 2.0 is served under /scim/v2 with the organization's bearer token", {
  "/saml/{id}/metadata": {
    get: { operationId: "samlServiceProviderMetadata", tags, summary: "The SP metadata the organization's IdP is configured with (entity id, ACS URL)", parameters: [id],
      responses: { 200: { description: "the SP metadata, as application/samlmetadata+xml" }, 404: errorResponse("no such connection"), ...errorsFor() } },
  },
  "/saml/{id}/login": {
    get: { operationId: "samlStartSignIn", tags, summary: "SP-initiated sign-in: redirects to the IdP with an AuthnRequest (HTTP-Redirect); `redirectToPath` comes back as RelayState",
      parameters: [id, { name: "redirectToPath", in: "query", required: false, schema: { type: "string" } }],
      responses: { 302: redirect("to the IdP's sign-on URL"), 404: errorResponse("no such connection"), ...errorsFor() } },
  },
  "/saml/{id}/acs": {
    post: { operationId: "samlAssertionConsumerService", tags, summary: "The IdP posts its SAMLResponse here (HTTP-POST): a signed, fresh, unreplayed assertion for an address at the organization's proven domains signs the person in (cookies) as third-party login saml-<id>",
      parameters: [id],
      requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object", required: ["SAMLResponse"], properties: { SAMLResponse: { type: "string" }, RelayState: { type: "string" } } } } } },
      responses: { 303: redirect("signed in: to the website (at RelayState when it is a path)"), 400: json("refused: unsigned, wrapped, replayed, expired, another audience, an unsolicited response, or an address outside the proven domains", ref("Message")), 404: errorResponse("no such connection"), ...errorsFor(413, 415) } },
  },
  ...routingPaths,
});
