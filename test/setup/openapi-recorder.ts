import { afterEach, expect } from "vitest";
import { checkAnswer, describedPath } from "../helpers/openapi-check.js";

/**
 * Every answer any test gets through fetch from an authsvc server (one whose baseline headers it
 * carries) is checked against the OpenAPI document, so the document cannot drift from the code:
 * a mismatch fails the test that received the answer, naming method, path, status and the problem.
 */
const problems: string[] = [];
const realFetch = globalThis.fetch;

globalThis.fetch = async function recordingFetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  const res = await realFetch(input, init);
  const request = input instanceof Request ? input : undefined;
  const url = new URL(request ? request.url : String(input));
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  // Other servers in tests (the mock OpenID provider) are not ours: our answers carry this baseline.
  if (!describedPath(url.pathname) || res.headers.get("referrer-policy") !== "no-referrer") return res;
  const text = method === "HEAD" || res.status === 303 ? "" : await res.clone().text();
  problems.push(...checkAnswer(method, url.pathname, res.status, res.headers.get("content-type"), text, res.headers));
  return res;
};

afterEach(() => {
  const found = problems.splice(0);
  expect(found, "answers that do not match src/http/openapi (the OpenAPI document)").toEqual([]);
});
