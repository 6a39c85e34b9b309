import type { Room } from "../kernel/room.js";
import { lazy } from "../kernel/lazy.js";
import { CDI_PREFIX } from "./mount.js";
import { cdiSettings } from "./settings.js";

/**
 * A drop-in SuperTokens core (docs/supertokens-core.md): the Core Driver Interface the backend SDKs
 * (supertokens-node) speak, under /cdi on the API's listener, over authsvc's own store.
 */
export const cdiRoom: Room = {
  id: "cdi",
  settings: [cdiSettings],
  // The CDI's handlers load on the first request under /cdi: most servers never get one (docs/performance.md, "Memory").
  mount: lazy(() => import("./handlers.js").then((m) => m.cdiMount)),
  mountPath: CDI_PREFIX,
  // Its recipes over authsvc's own password accounts, provider identities and TOTP devices, once its API key switches it on.
  needs: (config) => (config.cdiApiKey ? ["password", "providerIdentities", "totpDevices"] : []),
};
