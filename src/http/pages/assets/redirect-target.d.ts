/** Types of redirect-target.js (a browser module the unit tests import too). */
export function resolveRedirectTarget(requested: unknown, allowedPaths: readonly string[], websiteUrl: string): string;
