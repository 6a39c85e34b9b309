import type { Kysely } from "kysely";
import type { DB } from "../store/schema.js";
import { isSealed, openText, sealText } from "../util/sealed-text.js";
import * as repo from "./store.js";

/**
 * Endpoint signing secrets at rest. The server must read them back to sign, so they cannot be
 * hashed; with a server secret (AUTHSVC_SECRET, required in production) they are sealed like the
 * signing keys, bound to their endpoint's id, so a copy of the database alone does not let anyone
 * forge the server's webhooks. Without one (development) they are stored as given.
 */
const sealKey = (serverSecret: string) => ({ secret: serverSecret, purpose: "webhook-secret v1" });

export function sealEndpointSecret(secret: string, serverSecret: string | undefined, endpointId: string): string {
  return serverSecret ? sealText(secret, sealKey(serverSecret), endpointId) : secret;
}

/** The whsec_ secret of a stored endpoint; throws a message an operator can act on when it cannot be read. */
export function openEndpointSecret(stored: string, serverSecret: string | undefined, endpointId: string): string {
  if (!isSealed(stored)) return stored; // stored before a server secret was set; sealed at the next start
  if (!serverSecret) throw new Error(`the secret of webhook endpoint ${endpointId} is encrypted but no server secret (AUTHSVC_SECRET) is configured`);
  try {
    return openText(stored, sealKey(serverSecret), endpointId);
  } catch {
    throw new Error(`the secret of webhook endpoint ${endpointId} cannot be decrypted: the server secret differs from the one it was stored with`);
  }
}

/** At start, with a server secret: seals every secret still stored in plain text (in the caller's transaction). */
export async function sealPlainEndpointSecrets(tx: Kysely<DB>, serverSecret: string | undefined): Promise<number> {
  if (!serverSecret) return 0;
  let sealed = 0;
  for (const row of await repo.listEndpoints(tx)) {
    if (isSealed(row.secret)) continue;
    await repo.updateEndpoint(tx, row.id, { secret: sealEndpointSecret(row.secret, serverSecret, row.id) });
    sealed++;
  }
  return sealed;
}
