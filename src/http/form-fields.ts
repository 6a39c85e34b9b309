import { badInput } from "../core/errors.js";

/**
 * Parses `formFields` exactly as the SuperTokens SDKs expect (FDI notes §6.2): structural problems
 * are 400s with these exact messages; missing or empty values come back as "" so the business
 * function can answer FIELD_ERROR "Field is not optional". The email is trimmed.
 */
export function parseFormFields(body: Record<string, unknown>, expected: readonly ("email" | "password")[]): Record<string, string> {
  const raw = body.formFields;
  if (raw === undefined || raw === null) throw badInput("Missing input param: formFields");
  if (!Array.isArray(raw)) throw badInput("formFields must be an array");
  if (raw.length > expected.length) throw badInput("Are you sending too many formFields?");
  const values: Record<string, string> = {};
  for (const f of raw) {
    if (!f || typeof f !== "object" || Array.isArray(f)) throw badInput("All elements of formFields must be an object");
    const { id, value } = f as { id?: unknown; value?: unknown };
    if (typeof id !== "string" || value === undefined) throw badInput("All elements of formFields must contain an 'id' and 'value' field");
    if ((id === "email" || id === "password") && typeof value !== "string") throw badInput(`${id} value must be a string`);
    if (!expected.includes(id as "email" | "password")) continue; // unknown ids are ignored while the count fits
    values[id] = id === "email" ? (value as string).trim() : (value as string);
  }
  for (const id of expected) values[id] ??= "";
  return values;
}
