import type { ConfigRow } from "../../config/types.js";
import { DASHBOARD_PATH, escapeHtml, type DashboardRequest, type DashboardResult } from "../kit.js";
import { renderDashboardPage } from "../layout.js";
import { tableRow, tableWrap } from "./parts.js";

const PATH = `${DASHBOARD_PATH}/config`;
const SOURCE_TEXT: Record<string, string> = { flag: "flag", env: "environment", file: "config file", default: "default", derived: "derived" };

/**
 * GET /admin/config: the effective settings as `authsvc config` prints them (describeConfig), with
 * where each came from. Masking happens there, once, for both: a secret is "********", a URL's
 * password "****", a provider's or webhook's secret fields "********".
 */
export async function showConfig(r: DashboardRequest): Promise<DashboardResult> {
  const settings = r.deps.settings?.();
  const main = !settings
    ? `<p class="error" role="alert">This server was built without its settings description.</p>`
    : `<p class="muted">What this server runs with, secrets masked. Change a setting where it came from (flag, environment or config file) and restart; <code>authsvc config</code> prints the same list.${settings.configFile ? ` Config file: <span class="mono">${escapeHtml(settings.configFile)}</span>.` : ""}</p>
${tableWrap("Effective settings", ["Setting", "Value", "Source", "Environment variable", "What it is"], settings.rows.map(renderRow), "No settings.")}`;
  return renderDashboardPage(r, { title: "Configuration", section: PATH, main });
}

function renderRow(s: ConfigRow): string {
  const value = s.value === undefined ? `<span class="muted">unset</span>` : `<span class="mono">${escapeHtml(typeof s.value === "string" ? s.value : JSON.stringify(s.value))}</span>`;
  return tableRow([
    `<span class="mono">${escapeHtml(s.key)}</span>`, value,
    escapeHtml(s.source ? SOURCE_TEXT[s.source] ?? s.source : "not recorded"), `<span class="mono">${escapeHtml(s.env)}</span>`, `<span class="muted">${escapeHtml(s.doc)}</span>`,
  ]);
}
