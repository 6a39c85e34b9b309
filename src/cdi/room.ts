import type { Room } from "../kernel/room.js";
import { CDI_PREFIX, createCdiMount } from "./mount.js";
import { sessionRoutes } from "./session-routes.js";
import { cdiSettings } from "./settings.js";

/**
 * A drop-in SuperTokens core (docs/supertokens-core.md): the Core Driver Interface the backend SDKs
 * (supertokens-node) speak, under /cdi on the API's listener, over authsvc's own store.
 */
export const cdiRoom: Room = {
  id: "cdi",
  settings: [cdiSettings],
  mount: createCdiMount([...sessionRoutes]),
  mountPath: CDI_PREFIX,
};
