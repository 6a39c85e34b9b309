import { enabledPart } from "../../http/openapi/types.js";
import { PASSWORDLESS_REASONS } from "./refusals.js";
import type { SignInMethod } from "../../kernel/room.js";
import { passwordlessUserCreation } from "./commands.js";
import { passwordlessFlow } from "./flow-type.js";
import { passwordlessAdminArea, passwordlessArea } from "./openapi.js";
import { passwordlessUserCreator } from "./admin.js";
import { codeSignIn, signInCodePage, signInLinkPage } from "./pages.js";
import passwordlessJs from "./pages/passwordless.js?raw";
import signInCodeJs from "./pages/sign-in-code.js?raw";
import signInLinkJs from "./pages/sign-in-link.js?raw";
import passwordlessCss from "./pages/passwordless.css?raw";
import { passwordlessRoutes } from "./routes.js";
import { passwordlessSettings } from "./settings.js";
import { codeLogins } from "./logins.js";
import { codeLoginImport } from "./import.js";
import { provisionPasswordlessUser } from "./consume.js";
import { expiredCodes } from "./purge.js";
import { hostedPageRoutes } from "../../http/pages/route.js";
import { passwordlessMail } from "./mail.js";
import { passwordlessWords } from "./words/index.js";

/** A passwordless sign-in refused by a person gate (a ban): the SDKs' generic refusal. */
const refusal = { status: "SIGN_IN_UP_NOT_ALLOWED", reason: PASSWORDLESS_REASONS.signIn };

/** Sign-in with a mailed code or link: the room's declaration (src/kernel/room.ts). */
export const passwordlessRoom: SignInMethod = {
  id: "passwordless",
  // The SDK's phone factors are declared too (no phone numbers are kept): PUT /mfa/info lists them, empty.
  factors: [
    { id: "otp-email", proves: "email", amr: "otp", refusal }, { id: "link-email", proves: "email", amr: "otp", refusal },
    { id: "otp-phone", proves: "phone", amr: "sms", refusal }, { id: "link-phone", proves: "phone", amr: "sms", refusal },
  ],
  mail: passwordlessMail,
  words: passwordlessWords,
  logins: codeLogins,
  importer: codeLoginImport,
  // What other rooms (SCIM provisioning) may do with people known by their address alone.
  accounts: { addressOnly: { provision: provisionPasswordlessUser } },
  purge: [expiredCodes],
  settings: [passwordlessSettings],
  // Its codes count against the mail limits (per IP, and per address with their resends).
  settingWords: { limitMailIp: "passwordless codes", limitMailHourly: "passwordless codes" },
  routes: passwordlessRoutes,
  openapi: passwordlessArea,
  adminOpenapi: passwordlessAdminArea,
  adminUserCreator: passwordlessUserCreator,
  // The code and link pages, while the hosted pages are on and passwordless sign-in is.
  pages: (c) => (c.passwordlessFlowType !== "off" ? hostedPageRoutes(c, { "/sign-in-code": signInCodePage, "/verify": signInLinkPage }) : []),
  assets: { "passwordless.js": passwordlessJs, "sign-in-code.js": signInCodeJs, "sign-in-link.js": signInLinkJs },
  styles: passwordlessCss,
  signIn: codeSignIn,
  describe: (ctx) => {
    const flow = passwordlessFlow(ctx.config);
    return { answer: { passwordless: { enabled: flow !== undefined } }, firstFactors: flow?.factors ?? [] };
  },
  // Every first factor a flow type may offer (a code by mail, a link by mail).
  describeSchema: { fields: { passwordless: enabledPart() }, required: ["passwordless"], firstFactors: ["otp-email", "link-email"] },
  userCreation: passwordlessUserCreation,
};
