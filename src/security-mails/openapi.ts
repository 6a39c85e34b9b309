import { bodyErrors, json } from "../http/openapi/components.js";
import { apiArea } from "../http/openapi/types.js";

/** "This wasn't me" (not-me.ts): what the new sign-in mail's page calls. */
export const securityMailsOpenapi = apiArea("security-mails", "Security mails: \"this wasn't me\" after a new sign-in mail ends every way in of the person (docs/security.md)", {
  "/security/not-me": {
    post: {
      operationId: "notMe", tags: ["security-mails"],
      summary: "Sign every device and app of the person out, with the token of the new sign-in mail's link (it works once, for 7 days); then choose a new password",
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["token"], properties: { token: { type: "string", maxLength: 256 } } } } } },
      responses: {
        200: json("OK (with what ended and where to choose a new password), or INVALID_TOKEN_ERROR (unknown, used or expired; nothing ended)", {
          oneOf: [
            { type: "object", required: ["status", "endedWaysIn", "resetPasswordUrl"], properties: { status: { const: "OK" }, endedWaysIn: { type: "object", additionalProperties: { type: "integer" } }, resetPasswordUrl: { type: "string" } } },
            { type: "object", required: ["status"], properties: { status: { const: "INVALID_TOKEN_ERROR" } } },
          ],
        }),
        ...bodyErrors(),
      },
    },
  },
});
