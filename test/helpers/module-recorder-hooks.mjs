// The loader hooks of module-recorder.mjs (they run on Node's loader thread).
import { appendFileSync } from "node:fs";

let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  if (out && url.startsWith("file:")) appendFileSync(out, `${url}\n`);
  return next(url, context);
}
