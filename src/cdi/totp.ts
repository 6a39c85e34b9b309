import { accountsOf } from "../core/account-operations.js";
import { CdiError, optStr, str, type CdiCall, type CdiRoute } from "./http.js";

/** A whole number field of the body in a range, the core's 400 otherwise. */
function int(c: CdiCall, name: string, min: number): number {
  const v = c.body[name];
  if (typeof v !== "number" || !Number.isInteger(v)) throw new CdiError(400, `Field name '${name}' is invalid in JSON input`);
  if (v < min) throw new CdiError(400, min === 0 ? `${name} should be non-negative` : `${name} should be > 0`);
  return v;
}

/** A six-digit code as the SDK sends it; anything else is a wrong code (counted), as the core does. */
const code = (c: CdiCall) => str(c, "totp");

/**
 * The TOTP recipe (supertokens-cdi-notes §1.9; MFA makes no calls of its own): a person's
 * authenticator-app devices through the totp room's offer (core/account-operations.ts
 * TotpDevices), the same devices, codes and attempt limits as authsvc's FDI and hosted pages.
 */
export const totpRoutes: CdiRoute[] = [
  {
    method: "POST", path: "/recipe/totp/device",
    handler: async (c) => {
      const name = optStr(c, "deviceName");
      if (name !== undefined && (name.trim() === "" || name.length > 256)) throw new CdiError(400, "deviceName must be a non-empty string of at most 256 characters");
      const r = await accountsOf(c.ctx, "totpDevices").create(c.ctx, str(c, "userId"), { name, skew: int(c, "skew", 0), period: int(c, "period", 1) });
      if (r.status === "UNKNOWN_USER") throw new CdiError(400, "Unknown user ID provided");
      return r;
    },
  },
  {
    method: "PUT", path: "/recipe/totp/device",
    handler: async (c) => {
      const to = str(c, "newDeviceName");
      if (to.trim() === "" || to.length > 256) throw new CdiError(400, "newDeviceName must be a non-empty string of at most 256 characters");
      return { status: await accountsOf(c.ctx, "totpDevices").rename(c.ctx, str(c, "userId"), str(c, "existingDeviceName"), to) };
    },
  },
  {
    method: "GET", path: "/recipe/totp/device/list",
    handler: async (c) => ({ status: "OK", devices: await accountsOf(c.ctx, "totpDevices").list(c.ctx, str(c, "userId")) }),
  },
  {
    method: "POST", path: "/recipe/totp/device/remove",
    handler: async (c) => ({ status: "OK", didDeviceExist: await accountsOf(c.ctx, "totpDevices").remove(c.ctx, str(c, "userId"), str(c, "deviceName")) }),
  },
  {
    method: "POST", path: "/recipe/totp/device/verify", tenant: true,
    handler: async (c) => accountsOf(c.ctx, "totpDevices").verifyDevice(c.ctx, str(c, "userId"), str(c, "deviceName"), code(c)),
  },
  {
    method: "POST", path: "/recipe/totp/verify", tenant: true,
    handler: async (c) => accountsOf(c.ctx, "totpDevices").verifyCode(c.ctx, str(c, "userId"), code(c)),
  },
];
