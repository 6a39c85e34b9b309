import { errorsFor } from "../http/openapi/components.js";
import { apiArea } from "../http/openapi/types.js";

/** The support session's hand-over link (routes.ts). */
export const supportOpenapi = apiArea("support-sessions", "Support sessions: the one-time link that hands a session an admin opened as a person (dashboard) to the admin's browser (docs/security.md)", {
  "/support-session": {
    get: {
      operationId: "supportSessionHandover", tags: ["support-sessions"],
      summary: "Set the support session's cookies and go to the app's website; the link works once, for 5 minutes, while its session lives",
      parameters: [{ name: "token", in: "query", required: true, schema: { type: "string", maxLength: 256 }, description: "the link's one-time token" }],
      responses: {
        303: { description: "the session cookies are set; Location is the website URL" },
        ...errorsFor(400),
      },
    },
  },
});
