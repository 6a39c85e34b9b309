/** Fetching an IdP's metadata by URL, apart from saml-metadata.ts so that reading it (xml2js) loads only when needed. */
/** An IdP's metadata from its URL: 10 s at most, 1 MiB at most, HTTP 200 only. */
export async function fetchMetadata(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) { await res.body?.cancel(); throw new Error(`HTTP ${res.status}`); }
  const text = await res.text();
  if (text.length > 1024 * 1024) throw new Error("the metadata is larger than 1 MiB");
  return text;
}
