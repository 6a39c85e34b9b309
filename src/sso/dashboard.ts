import type { CoreContext } from "../core/context.js";
import { AuthError } from "../core/errors.js";
import type { DashboardActionResult, DashboardSectionKit, DashboardSectionPart } from "../http/dashboard-sections.js";
import { organizationByRef } from "./organization-lookups.js";
import { isSsoRequired, setSsoRequired } from "./routing.js";
import { addSamlConnection, listConnections, removeConnection } from "./saml-connections.js";
import { findTokenCreatedAt } from "./scim-token-state.js";
import { rotateScimToken } from "./scim-tokens.js";

/**
 * The dashboard's Enterprise SSO section (/admin/sso): every organization's connections, whether it
 * requires SSO, its SCIM token's state; an operator adds a SAML connection (its IdP's metadata URL or
 * file contents), removes one, switches "SSO required", and makes a SCIM token (shown once, in the
 * answer to the POST itself). Every change is the same core function as the CLI's and the admin
 * API's, recorded with the admin as its source (the audit log's entry).
 */

/** The metadata as given: fetched from an http(s) URL (10 s at most) or the pasted file contents. */
async function metadataFrom(form: URLSearchParams): Promise<{ xml: string; source: string }> {
  const url = (form.get("metadataUrl") ?? "").trim();
  const xml = (form.get("metadataXml") ?? "").trim();
  if (url && xml) throw new AuthError("BAD_INPUT", "give the metadata's URL or its contents, not both");
  if (xml) return { xml, source: "dashboard (pasted)" };
  if (!/^https?:\/\/\S+$/.test(url)) throw new AuthError("BAD_INPUT", "give the IdP's metadata URL (http or https) or paste its contents");
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch((err: Error) => { throw new AuthError("BAD_INPUT", `could not fetch ${url}: ${err.message}`); });
  if (!res.ok) throw new AuthError("BAD_INPUT", `could not fetch ${url}: HTTP ${res.status}`);
  return { xml: await res.text(), source: url };
}

async function organizationOf(ctx: CoreContext, ref: string | null | undefined) {
  const o = ref ? await organizationByRef(ctx, ctx.store.db, ref.trim()) : undefined;
  if (!o) throw new AuthError("BAD_INPUT", `no organization ${ref ?? ""} (give its id or slug)`);
  return o;
}

/** The organizations that have any enterprise sign-in: a connection, a SCIM token, or the setting. */
async function organizationIds(ctx: CoreContext): Promise<string[]> {
  const db = ctx.store.db;
  const [a, b, c] = await Promise.all([
    db.selectFrom("sso_connections").select("organization_id").execute(),
    db.selectFrom("scim_tokens").select("organization_id").execute(),
    db.selectFrom("sso_settings").select("organization_id").execute(),
  ]);
  return [...new Set([...a, ...b, ...c].map((r) => r.organization_id))];
}

// SAML's libraries load when the section is first used, not at start (docs/performance.md, "Memory").
const saml = () => import("./saml-sign-in.js");
const metadataReader = () => import("./saml-metadata.js");

const field = (kit: DashboardSectionKit, id: string, label: string, input: string, hint = "") =>
  `<p><label for="${id}">${kit.escape(label)}</label>${hint ? `<span class="muted" id="${id}-hint">${kit.escape(hint)}</span>` : ""}${input}</p>`;

async function tokenShown(ctx: CoreContext, ref: string | null | undefined, source: string): Promise<DashboardActionResult> {
  const o = await organizationOf(ctx, ref);
  const token = await rotateScimToken(ctx, o.id, source);
  const base = `${ctx.config.publicUrl.replace(/\/+$/, "")}/scim/v2`;
  const esc = (t: string) => t.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return {
    kind: "ok", text: `New SCIM token for ${o.name}`,
    page: {
      title: "SCIM token",
      main: `<section class="panel" aria-labelledby="token-title"><h2 id="token-title">New SCIM token for ${esc(o.name)}</h2>
<p role="status">Shown once: copy it into the directory now. The previous token no longer works.</p>
<dl><dt>SCIM base URL</dt><dd class="mono">${esc(base)}</dd><dt>Bearer token</dt><dd class="mono" id="scim-token">${esc(token)}</dd></dl>
</section>`,
    },
  };
}

export const ssoDashboard: DashboardSectionPart = {
  path: "sso",
  label: "Enterprise SSO",
  after: "organizations",
  auditPrefixes: ["organization.sso_", "organization.scim_token"],
  pages: [
    {
      path: "",
      title: "Enterprise SSO",
      render: async (ctx, _params, kit) => {
        const { escape, row, table, time, badge, button } = kit;
        const { acsUrl, spEntityId } = await saml();
        const orgs = (await Promise.all((await organizationIds(ctx)).map((id) => organizationByRef(ctx, ctx.store.db, id)))).filter((o) => o !== undefined);
        orgs.sort((a, b) => a.name.localeCompare(b.name));
        const states = await Promise.all(orgs.map(async (o) => ({ o, connections: await listConnections(ctx, o.id), required: await isSsoRequired(ctx, o.id), token: await findTokenCreatedAt(ctx.store.db, o.id) })));
        const orgLink = (o: { id: string; name: string }) => `<a href="${kit.href(`organizations/${encodeURIComponent(o.id)}`)}">${escape(o.name)}</a>`;
        const connectionRows = states.flatMap(({ o, connections }) => connections.map((c) => row([
          orgLink(o), `<span class="mono">${escape(c.thirdPartyId)}</span>`, `${escape(c.idpEntityId)}${c.idpInitiated ? " (IdP-initiated too)" : ""}`,
          `<span class="mono">${escape(acsUrl(ctx.config, c.id))}</span><br><span class="mono">${escape(spEntityId(ctx.config, c.id))}</span>`, time(c.createdAt),
          button(`sso/connections/${encodeURIComponent(o.id)}/${encodeURIComponent(c.id)}/remove`, "Remove", `connection ${c.thirdPartyId} of ${o.name}`, { danger: true }),
        ])));
        const orgRows = states.map(({ o, connections, required, token }) => row([
          orgLink(o), String(connections.length),
          `${badge(required ? "required" : "not required", required ? "ok" : "")} ${button(`sso/required/${encodeURIComponent(o.id)}/${required ? "off" : "on"}`, required ? "Stop requiring" : "Require SSO", `for ${o.name}`)}`,
          `${token === undefined ? "none" : `made ${time(token)}`} ${button(`sso/scim-token/${encodeURIComponent(o.id)}`, token === undefined ? "Make SCIM token" : "Rotate SCIM token", `for ${o.name}`)}`,
        ]));
        return `<section class="panel" aria-labelledby="sso-orgs"><h2 id="sso-orgs">Organizations</h2>
${table("Organizations with enterprise sign-in", ["Organization", "Connections", "SSO", "SCIM token"], orgRows, "No organization has a connection or a SCIM token yet.")}
</section>
<section class="panel" aria-labelledby="sso-connections"><h2 id="sso-connections">Connections</h2>
${table("SAML connections, by organization", ["Organization", "Third-party id", "IdP", "ACS URL / entity id", "Added", "Action"], connectionRows, "No connections.")}
</section>
<section class="panel" aria-labelledby="sso-add"><h2 id="sso-add">Add a SAML connection</h2>
<p class="muted">The organization must have proven its domain first. Give the IdP the ACS URL and entity id shown above once it is added.</p>
${kit.form("sso/connections", "Add connection", [
  field(kit, "sso-org", "Organization (id or slug)", `<input id="sso-org" name="organization" required autocomplete="off">`),
  field(kit, "sso-url", "IdP metadata URL", `<input id="sso-url" name="metadataUrl" type="url" autocomplete="off" aria-describedby="sso-url-hint">`, "or paste the metadata file below"),
  field(kit, "sso-xml", "IdP metadata (file contents)", `<textarea id="sso-xml" name="metadataXml" rows="4" spellcheck="false"></textarea>`),
  `<p><label><input type="checkbox" name="idpInitiated" value="1"> Accept sign-ins the IdP starts (IdP-initiated)</label></p>`,
].join("\n"))}
</section>
<section class="panel" aria-labelledby="sso-scim"><h2 id="sso-scim">SCIM token for another organization</h2>
${kit.form("sso/scim-token", "Make SCIM token", field(kit, "scim-org", "Organization (id or slug)", `<input id="scim-org" name="organization" required autocomplete="off">`))}
</section>`;
      },
    },
  ],
  actions: [
    {
      path: "/connections",
      run: async (ctx, _params, { form, source }) => {
        const o = await organizationOf(ctx, form.get("organization"));
        const m = await metadataFrom(form);
        const [{ readIdpMetadata }, { acsUrl, spEntityId }] = await Promise.all([metadataReader(), saml()]);
        const c = await addSamlConnection(ctx, o.id, { metadata: await readIdpMetadata(m.xml), source: m.source, idpInitiated: form.get("idpInitiated") === "1", actor: source });
        return { kind: "ok", text: `Added connection ${c.thirdPartyId} to ${o.name}. Give its IdP the ACS URL ${acsUrl(ctx.config, c.id)} and the entity id ${spEntityId(ctx.config, c.id)}.` };
      },
    },
    {
      path: "/connections/:org/:id/remove",
      run: async (ctx, params, { source }) => {
        const o = await organizationOf(ctx, params.org);
        await removeConnection(ctx, o.id, params.id ?? "", source);
        return { kind: "ok", text: `Removed connection ${params.id} of ${o.name}.` };
      },
    },
    {
      path: "/required/:org/:value",
      run: async (ctx, params, { source }) => {
        const o = await organizationOf(ctx, params.org);
        if (params.value !== "on" && params.value !== "off") throw new AuthError("BAD_INPUT", "on or off");
        await setSsoRequired(ctx, o.id, params.value === "on", source);
        return { kind: "ok", text: params.value === "on" ? `${o.name} now requires SSO for its proven domains.` : `${o.name} no longer requires SSO.` };
      },
    },
    { path: "/scim-token", run: (ctx, _params, { form, source }) => tokenShown(ctx, form.get("organization"), source) },
    { path: "/scim-token/:org", run: (ctx, params, { source }) => tokenShown(ctx, params.org, source) },
  ],
};
