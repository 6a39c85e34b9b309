import { body, bodyErrors, errorResponse, errorsFor, json, modeParameters, notAllowed, ref, sessionCreated, statusOnly, tokenHeaders } from "../../http/openapi/components.js";
import type { DescribedPart } from "../../http/openapi/types.js";
import { apiArea, type Json } from "../../http/openapi/types.js";

/** A provider failed (PROVIDER_ERROR): its own error answer, the only one the kernel's catalogue does not share. */
const providerFailed = errorResponse("the third-party provider failed (the message names it)");

const query = (name: string, required: boolean, description: string) => ({ name, in: "query", required, schema: { type: "string" }, description });

/** Its part of the login-methods answer: whether providers are on, and which. */
export const providersDescribed: DescribedPart = {
  fields: {
    thirdParty: { type: "object", required: ["enabled", "providers"], additionalProperties: false, properties: {
      enabled: { type: "boolean" },
      providers: { type: "array", items: { type: "object", required: ["id", "name"], additionalProperties: false, properties: { id: { type: "string" }, name: { type: "string" } } } },
    } },
  },
  required: ["thirdParty"],
  firstFactors: ["thirdparty"],
};

/**
 * Third-party sign-in (PROTOCOL.md §9) and the login-methods answer the prebuilt UI reads, whose
 * schema is every room's part (Room.describeSchema, in the rooms' order), this room's own last.
 */
export const thirdPartyArea = (parts: readonly DescribedPart[]) => apiArea("thirdparty", "Sign-in with OAuth2 / OpenID Connect providers", {
    "/authorisationurl": {
      get: {
        operationId: "getAuthorisationUrl", tags: ["thirdparty"], summary: "The provider URL to send the browser to (PKCE S256 where possible)",
        parameters: [
          query("thirdPartyId", true, "the configured provider"),
          query("redirectURIOnProviderDashboard", true, "absolute URL the provider redirects back to"),
          query("clientType", false, "which client, when the provider has several"),
        ],
        responses: {
          200: json("the URL, and the PKCE verifier to send back on /signinup", statusOnly("OK", {
            urlWithQueryParams: { type: "string", format: "uri" }, pkceCodeVerifier: { type: "string", minLength: 43 },
          }, ["urlWithQueryParams"])),
          ...errorsFor(400), 502: providerFailed,
        },
      },
    },
    "/signinup": {
      post: {
        operationId: "signInUp", tags: ["thirdparty"], summary: "Exchange a code (or check tokens), sign the user in or up",
        parameters: modeParameters,
        requestBody: body({
          type: "object", required: ["thirdPartyId"],
          properties: {
            thirdPartyId: { type: "string" }, clientType: { type: "string" },
            redirectURIInfo: {
              type: "object", required: ["redirectURIOnProviderDashboard", "redirectURIQueryParams"],
              properties: { redirectURIOnProviderDashboard: { type: "string" }, redirectURIQueryParams: { type: "object" }, pkceCodeVerifier: { type: "string" } },
            },
            oAuthTokens: { type: "object", properties: { access_token: { type: "string" }, id_token: { type: "string" } } },
            shouldTryLinkingWithSessionUser: { type: "boolean", description: "true: add this identity to the signed-in user (needs a session)" },
            locale: { type: "string", description: "authsvc's hosted callback page: the sign-in page's locale, stored for a new person's mail (one not offered is ignored; without it, the request's)" },
          },
        }),
        responses: {
          200: json("OK with a session, NO_EMAIL_GIVEN_BY_PROVIDER, or SIGN_IN_UP_NOT_ALLOWED (account linking: ERR_CODE_004, 006, 020–022)", {
            oneOf: [
              ref("ThirdPartySessionCreated"),
              statusOnly("NO_EMAIL_GIVEN_BY_PROVIDER"),
              notAllowed("SIGN_IN_UP_NOT_ALLOWED"),
            ],
          }, tokenHeaders),
          // 401: shouldTryLinkingWithSessionUser without a live session.
          ...bodyErrors(401, 403), 502: providerFailed,
        },
      },
    },
    "/loginmethods": {
      get: {
        operationId: "getLoginMethods", tags: ["thirdparty"], summary: "Which sign-in methods and providers are enabled",
        parameters: [query("clientType", false, "accepted and ignored")],
        responses: {
          200: json("the methods of the one tenant", loginMethodsAnswer(parts)),
          ...errorsFor(),
        },
      },
    },
    "/callback/apple": {
      post: {
        operationId: "appleCallback", tags: ["thirdparty"], summary: "Apple's form_post return, turned into a 303 to the website's callback page",
        requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: { code: { type: "string" }, state: { type: "string" }, error: { type: "string" } } } } } },
        responses: { 303: { description: "to {websiteUrl}{websiteBasePath}/callback/apple with code, state and error", headers: { location: { schema: { type: "string" } } } }, ...errorsFor(413, 415) },
      },
    },
}, { ThirdPartySessionCreated: sessionCreated({ createdNewRecipeUser: { type: "boolean" } }) }, {
  // Its part of the USER object: every provider identity at the top, and each login's own.
  recipeId: "thirdparty",
  fields: { thirdParty: { type: "array", items: ref("ThirdPartyIdentity") } },
  required: ["thirdParty"],
  loginMethodFields: { thirdParty: ref("ThirdPartyIdentity") },
  schemas: {
    ThirdPartyIdentity: {
      type: "object", required: ["id", "userId"], additionalProperties: false,
      properties: { id: { type: "string" }, userId: { type: "string" } },
    },
  },
});

/** The answer's schema: the other rooms' fields, then this room's, then the first factors of all. */
function loginMethodsAnswer(parts: readonly DescribedPart[]): Json {
  const fields = [...parts.filter((p) => p !== providersDescribed), providersDescribed].map((p) => p.fields);
  return statusOnly("OK", {
    ...Object.assign({}, ...fields),
    firstFactors: { type: "array", items: { enum: parts.flatMap((p) => p.firstFactors) } },
  }, [...parts.flatMap((p) => p.required ?? []), "firstFactors"]);
}
