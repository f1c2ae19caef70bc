// Loader hooks of module-log.mjs (they run on the loader's own thread): every URL an ESM import
// resolves to is appended to the log file.
import { appendFileSync } from 'node:fs';

let log = '';
export function initialize(data) {
  log = data.log;
}
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
