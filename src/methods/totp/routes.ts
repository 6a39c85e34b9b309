import type { Route } from "../../http/route.js";
import { totpDeviceCreate } from "./handlers/device-create.js";
import { totpDeviceList } from "./handlers/device-list.js";
import { totpDeviceRemove } from "./handlers/device-remove.js";
import { totpDeviceVerify } from "./handlers/device-verify.js";
import { recoveryCodeVerify } from "./handlers/recovery-code-verify.js";
import { recoveryCodesCreate } from "./handlers/recovery-codes-create.js";
import { totpVerify } from "./handlers/verify.js";

/**
 * TOTP's slice of the route table (FDI 1.19 `/totp/...`, plus authsvc's recovery codes). Every
 * route needs a live session and works while the second factor is still missing; wrong codes are
 * limited per person in the handlers (5, then 15 minutes), on top of the per-IP token buckets.
 */
export const totpRoutes: readonly Route[] = [
  { method: "POST", path: "/totp/device", session: "required+db", support: "refused", secondFactor: "may be incomplete", handler: totpDeviceCreate },
  { method: "GET", path: "/totp/device/list", session: "required+db", secondFactor: "may be incomplete", handler: totpDeviceList },
  { method: "POST", path: "/totp/device/remove", session: "required+db", support: "refused", secondFactor: "may be incomplete", handler: totpDeviceRemove },
  { method: "POST", path: "/totp/device/verify", session: "required+db", support: "refused", secondFactor: "may be incomplete", handler: totpDeviceVerify, limits: ["token-ip"] },
  { method: "POST", path: "/totp/verify", session: "required+db", secondFactor: "may be incomplete", handler: totpVerify, limits: ["token-ip"] },
  { method: "POST", path: "/totp/recovery-code/verify", session: "required+db", secondFactor: "may be incomplete", handler: recoveryCodeVerify, limits: ["token-ip"] },
  { method: "POST", path: "/totp/recovery-codes", session: "required+db", support: "refused", handler: recoveryCodesCreate },
];
