import { badInput } from "../../../core/errors.js";

/** A required id of the flow (preAuthSessionId, deviceId), with supertokens-node's 400 text when missing. */
export function readFlowId(body: Record<string, unknown>, name: "preAuthSessionId" | "deviceId"): string {
  const v = body[name];
  if (v === undefined || v === null || v === "") throw badInput(name === "deviceId" ? "Please provide a deviceId" : "Please provide preAuthSessionId");
  if (typeof v !== "string" || v.length > 256) throw badInput(`${name} must be a string`);
  return v;
}

/** An optional string field of at most 256 characters (a code), undefined when absent. */
export function readOptionalCode(body: Record<string, unknown>, name: "linkCode" | "userInputCode" | "deviceId"): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > 256) throw badInput(`${name} must be a string`);
  return v;
}
