// Entry point of the single executable (scripts/build-binary.mjs): what bin/authsvc is to the npm
// install, and nothing more; the program is the same main(). It is loaded with import() so that a
// failure while loading (the native addons are prepared then: src/native/addons.ts) is one clear
// line and exit 1, not a stack trace from inside the bundle.
import("./main.js").then(
  (cli) => cli.main(process.argv).then((code) => { process.exitCode = code; }),
  (err: Error) => {
    process.stderr.write(`authsvc: cannot start: ${err.message}\n`);
    process.exitCode = 1;
  },
);
