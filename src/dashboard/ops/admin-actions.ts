import type { DashboardRequest } from "../kit.js";

/**
 * The newest admin actions on the overview. Admin events carry the admin's id once the admin
 * accounts' migration (dash-auth) is in; until then the section says so.
 */
export async function renderRecentAdminActions(_r: DashboardRequest): Promise<string> {
  return `<section class="panel" aria-labelledby="recent"><h2 id="recent">Recent admin actions</h2><p class="muted">None recorded yet.</p></section>`;
}
