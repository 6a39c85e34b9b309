/** Where SCIM 2.0 is served (scim-http.ts); a module of its own so the room declares its mount without loading SCIM. */
export const SCIM_PREFIX = "/scim/v2";
