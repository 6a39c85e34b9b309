import { CdiError, obj, str, type CdiCall, type CdiRoute } from "./http.js";

const apps = (c: CdiCall) => {
  if (!c.apps) throw new CdiError(404, "Not found");
  return c.apps;
};

/**
 * The test mode's app routes (test-apps.ts), as supertokens-node's test utilities call them: with
 * no key and no cdi-version, outside any app.
 */
export const appRoutes: CdiRoute[] = [
  {
    method: "PUT", path: "/recipe/multitenancy/app/v2", testMode: true, unversioned: true,
    handler: async (c) => ({ status: "OK", ...(await apps(c).put(str(c, "appId"), obj(c, "coreConfig", { optional: true }) ?? {})) }),
  },
  {
    method: "POST", path: "/recipe/multitenancy/app/remove", testMode: true, unversioned: true,
    handler: async (c) => ({ status: "OK", didExist: await apps(c).remove(str(c, "appId")) }),
  },
];
