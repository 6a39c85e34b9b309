import { DASHBOARD_PATH, type DashboardRoute } from "../kit.js";
import { showConfig } from "./config-page.js";
import { rotateKey, showKeys } from "./keys.js";
import { retryOutboxMessage, showOutbox } from "./outbox.js";
import { showOverview } from "./overview.js";

/** The operations room: overview, mail outbox, signing keys, configuration. */
export const opsRoutes: DashboardRoute[] = [
  { method: "GET", path: DASHBOARD_PATH, handler: showOverview },
  { method: "GET", path: `${DASHBOARD_PATH}/outbox`, handler: showOutbox },
  { method: "POST", path: `${DASHBOARD_PATH}/outbox/:id/retry`, handler: retryOutboxMessage },
  { method: "GET", path: `${DASHBOARD_PATH}/keys`, handler: showKeys },
  { method: "POST", path: `${DASHBOARD_PATH}/keys/rotate`, handler: rotateKey },
  { method: "GET", path: `${DASHBOARD_PATH}/config`, handler: showConfig },
];
