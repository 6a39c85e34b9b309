// Where a hosted sign-in may send the browser afterwards. A module of its own with no page state,
// so the rule is the same code in the page and in the unit tests.

/**
 * Resolve first, then check. The target is parsed as a URL against the website's URL, exactly as
 * the browser will parse it when it navigates; it must keep the website's origin (and carry no
 * user:password@), and the allow-list is matched on the resolved path. Checking the raw string was
 * not enough: the URL parser drops TAB/CR/LF and reads "\" as "/", so "/<TAB>/evil.example" passed a
 * "starts with one /" test and then left the site. Anything refused gives the first allowed path.
 */
export function resolveRedirectTarget(requested, allowedPaths, websiteUrl) {
  const site = new URL(websiteUrl);
  const fallback = new URL(allowedPaths[0].replace(/\*$/, ""), site).toString();
  if (typeof requested !== "string" || requested === "") return fallback;
  let url;
  try { url = new URL(requested, site); } catch { return fallback; }
  if (url.origin !== site.origin || url.username !== "" || url.password !== "") return fallback;
  const path = url.pathname;
  const allowed = allowedPaths.some((p) => (p.endsWith("*") ? path.startsWith(p.slice(0, -1)) : path === p));
  return allowed ? url.toString() : fallback;
}
