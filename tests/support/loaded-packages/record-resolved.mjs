// Module hooks (node:module register) that append every URL the ESM loader resolves to the file
// named in `data.file`: which modules a process has loaded, ESM ones included, which
// require.cache does not list. Runs on the loader's thread, so it writes synchronously.
import { appendFileSync } from "node:fs";

let file = "";

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(file, `${result.url}\n`);
  return result;
}
