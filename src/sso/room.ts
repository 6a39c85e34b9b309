import type { Room } from "../kernel/room.js";
import { ssoCommands } from "./commands.js";
import { createScimMount, SCIM_PREFIX } from "./scim-http.js";

/**
 * Enterprise sign-in per organization (docs/enterprise-sso.md): SCIM 2.0 provisioning under
 * /scim/v2, one bearer token per organization; the directory's Users are members, its Groups give
 * organization roles, and deprovisioning ends every way in of the person.
 */
export const ssoRoom: Room = {
  id: "sso",
  events: {
    "organization.scim_token_created": { type: "organization.scim_token_created" },
    "organization.scim_user_provisioned": { type: "organization.scim_user_provisioned" },
    "organization.scim_user_updated": { type: "organization.scim_user_updated" },
    "organization.scim_user_reactivated": { type: "organization.scim_user_reactivated" },
    "organization.scim_user_deprovisioned": { type: "organization.scim_user_deprovisioned" },
    "organization.scim_group_created": { type: "organization.scim_group_created" },
    "organization.scim_group_updated": { type: "organization.scim_group_updated" },
    "organization.scim_group_deleted": { type: "organization.scim_group_deleted" },
  },
  mount: createScimMount,
  mountPath: SCIM_PREFIX,
  commands: [ssoCommands],
};
