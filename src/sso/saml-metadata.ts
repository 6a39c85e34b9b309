import { parseStringPromise, processors } from "xml2js";
import { badInput } from "../core/errors.js";

/**
 * What authsvc needs from an IdP's SAML metadata: its entity id, its single sign-on URL for the
 * HTTP-Redirect binding, and its signing certificates. Read with xml2js, namespace prefixes
 * dropped (no signature is checked here: the operator vouches for the file or URL they give).
 */
export interface IdpMetadata { entityId: string; ssoUrl: string; certs: string[] }

const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
type Node = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const kids = (n: Node | undefined, name: string): Node[] => (n && Array.isArray(n[name]) ? (n[name] as Node[]) : []);

/** Every X509Certificate text under a node, at any depth. */
function certificates(n: unknown, out: string[] = []): string[] {
  if (Array.isArray(n)) for (const x of n) certificates(x, out);
  else if (n && typeof n === "object") {
    for (const [k, v] of Object.entries(n as Node)) {
      if (k === "X509Certificate") for (const c of v as Array<string | Node>) out.push(String(typeof c === "string" ? c : c._ ?? "").replace(/\s+/g, ""));
      else if (k !== "$") certificates(v, out);
    }
  }
  return out;
}

export async function readIdpMetadata(xml: string): Promise<IdpMetadata> {
  let doc: Record<string, Node>;
  try {
    doc = await parseStringPromise(xml, { tagNameProcessors: [processors.stripPrefix], explicitArray: true });
  } catch {
    throw badInput("the metadata is not well-formed XML");
  }
  const roots = doc?.EntityDescriptor ? [doc.EntityDescriptor] : kids(doc?.EntitiesDescriptor, "EntityDescriptor");
  const idps = roots.filter((e) => kids(e, "IDPSSODescriptor").length > 0);
  if (idps.length !== 1) throw badInput("the metadata must describe one identity provider (an EntityDescriptor with an IDPSSODescriptor)");
  const entityId = idps[0].$?.entityID ?? "";
  const descriptor = kids(idps[0], "IDPSSODescriptor")[0];
  const sso = kids(descriptor, "SingleSignOnService").find((s) => s.$?.Binding === REDIRECT)?.$?.Location ?? "";
  const certs = kids(descriptor, "KeyDescriptor").filter((k) => !k.$?.use || k.$.use === "signing").flatMap((k) => certificates(k)).filter((c) => c !== "");
  if (!entityId) throw badInput("the metadata's EntityDescriptor has no entityID");
  if (!/^https?:\/\//.test(sso)) throw badInput("the metadata has no SingleSignOnService for the HTTP-Redirect binding");
  if (certs.length === 0) throw badInput("the metadata has no signing certificate: authsvc only accepts signed assertions");
  return { entityId, ssoUrl: sso, certs: [...new Set(certs)] };
}

