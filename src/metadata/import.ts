import { refuseImport as refuse, type ImportPart } from "../core/import-parts.js";
import { insertRows } from "../store/user-import.js";

/** How long a record's metadata may be as JSON text, whatever the server's byte limit (a line holds at most as much). */
const MAX_METADATA_CHARS = 65_536;

/**
 * The app's metadata in `users import` (core/import-parts.ts): the record's "metadata", an object
 * as `PUT /admin/v1/users/{id}/metadata` would set it, kept as its JSON text. It is the person's
 * own data, so it is read before the other rooms' fields at the top; an empty object writes no row.
 * It must also fit this server's metadataMaxBytes, checked once the rest of the record is read.
 */
export const metadataImport: ImportPart<string> = {
  id: "metadata",
  topFirst: true,
  top(o) {
    if (o.metadata === undefined || o.metadata === null) return undefined;
    if (typeof o.metadata !== "object" || Array.isArray(o.metadata)) refuse("metadata must be a JSON object");
    const text = JSON.stringify(o.metadata);
    if (text.length > MAX_METADATA_CHARS) refuse(`metadata is longer than ${MAX_METADATA_CHARS} characters of JSON`);
    return text === "{}" ? undefined : text;
  },
  checkSettings(text, config) {
    const bytes = Buffer.byteLength(text);
    if (bytes > config.metadataMaxBytes) refuse(`metadata is ${bytes} bytes of JSON; the limit is ${config.metadataMaxBytes} (--metadata-max-bytes)`);
  },
  insert: (tx, people, { now }) => insertRows(tx, "user_metadata", people.map(({ id, part: data }) => ({ user_id: id, data, updated_at: now }))),
};
