import { errorResponse, errorsFor, json } from "../http/openapi/components.js";
import { apiArea } from "../http/openapi/types.js";

const str = { type: "string" };

/** The bot check's challenge route (captcha/routes.ts). */
export const protectionOpenapi = apiArea("protection", "Bot check: the proof-of-work challenge whose solution sign-up, sign-in, sign-in codes and reset mails carry in the authsvc-captcha header (docs/security.md)", {
  "/captcha/challenge": {
    get: {
      operationId: "captchaChallenge", tags: ["protection"],
      summary: "A new proof-of-work challenge (ALTCHA v2; only with --captcha pow, else 404). Its solution goes, base64 JSON {challenge, solution}, in the authsvc-captcha header of a guarded request, once",
      responses: {
        200: json("the challenge, signed; valid 10 minutes", {
          type: "object", required: ["parameters", "signature"],
          properties: {
            parameters: { type: "object", required: ["algorithm", "nonce", "salt", "cost", "keyLength", "keyPrefix"], properties: { algorithm: str, nonce: str, salt: str, cost: { type: "integer" }, keyLength: { type: "integer" }, keyPrefix: str, keySignature: str, expiresAt: { type: "integer" } } },
            signature: str,
          },
        }),
        404: errorResponse("the bot check is not the proof of work (--captcha is not pow)"),
        ...errorsFor(),
      },
    },
  },
});
