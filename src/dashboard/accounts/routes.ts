import type { DashboardRoute } from "../kit.js";
import { ACCOUNT_PATH, showAccount, signOutOthers } from "./account-page.js";

/** The admin's own account pages (sign-in and sign-out are the mount's). */
export const accountRoutes: DashboardRoute[] = [
  { method: "GET", path: ACCOUNT_PATH, handler: showAccount },
  { method: "POST", path: `${ACCOUNT_PATH}/sign-out-others`, handler: signOutOthers },
];
