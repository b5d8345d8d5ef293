// The adapter side of toolnorm's line protocol (docs/protocol.md) for
// JavaScript libraries that take a tool's arguments as JavaScript values:
// the JavaScript adapter kit (kits/javascript/toolnorm-kit.mjs), one
// plumbing for these adapters and for every project toolnorm init sets up,
// and what only these adapters need.
//
// The kit reads each request's arguments with its own parser, answers
// "unsupported" where a JavaScript object cannot hold them as sent
// (duplicate members, integer keys not first and ascending), and writes the
// library's answer back with the exact text of every number the library
// left where it was.
import { readFileSync } from 'node:fs';

export { Unsupported, call, parse, serve, stringify } from '../../kits/javascript/toolnorm-kit.mjs';

// installedVersion is the version of the package name installed beside the
// adapter at dir (a file: URL), read from its package.json: packages that
// do not export it cannot be required for it.
export function installedVersion(dir, name) {
  const url = new URL(`node_modules/${name}/package.json`, dir);
  return JSON.parse(readFileSync(url, 'utf8')).version;
}
