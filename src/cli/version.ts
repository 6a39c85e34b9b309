// Set by the builds (scripts/build.mjs, scripts/build-binary.mjs): package version and the git commit.
declare const __VERSION__: string | undefined;
declare const __COMMIT__: string | undefined;

/** This authsvc in a message: "authsvc 0.1.0, commit 74faee7" ("dev" when run from the sources). */
export function authsvcVersion(): string {
  const version = typeof __VERSION__ === "string" ? __VERSION__ : "dev";
  const commit = typeof __COMMIT__ === "string" ? __COMMIT__ : "unknown";
  return `authsvc ${version}, commit ${commit}`;
}
