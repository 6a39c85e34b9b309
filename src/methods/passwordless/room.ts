import type { Room } from "../../http/room.js";
import { passwordlessFlow } from "./flow-type.js";
import { passwordlessArea } from "./openapi.js";
import { passwordlessRoutes } from "./routes.js";
import { passwordlessSettings } from "./settings.js";

/** Sign-in with a mailed code or link: the room's declaration (src/http/room.ts). */
export const passwordlessRoom: Room = {
  id: "passwordless",
  settings: [passwordlessSettings],
  routes: passwordlessRoutes,
  openapi: passwordlessArea,
  describe: (ctx) => {
    const flow = passwordlessFlow(ctx.config);
    return { answer: { passwordless: { enabled: flow !== undefined } }, firstFactors: flow?.factors ?? [] };
  },
};
