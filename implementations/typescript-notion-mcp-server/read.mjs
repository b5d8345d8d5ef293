// deserializeParams, read out of @notionhq/notion-mcp-server's shipped
// bin/cli.mjs. The bundle is minified (the names are not kept) and starts
// the server when loaded, so it cannot be imported. In 2.5.2 the three
// functions of src/openapi-mcp-server/mcp/proxy.ts are one run of text:
//
//   function Kue(e){let t={};for(let[r,n]of Object.entries(e))t[r]=oh(n);return t}   deserializeParams
//   function oh(e){if(typeof e=="string")return Yue(e);...}                           deserializeValue
//   var Xue=3;function Yue(e){let t=e;for(let r=0;r<Xue;r++){...}return e}           MAX_UNWRAP_DEPTH, unwrapJsonString
//
// read finds that run by its shape (whatever the minifier named them),
// checks that it is exactly the text 2.5.2 ships (its SHA-256: a bundle
// whose text differs fails loudly, to be read again), and evaluates the
// text as it is, in strict mode as the module is.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

// The SHA-256 of the run of text in 2.5.2.
const sha256 = 'd0b3404dcecae3f7e556594153bae3448be6272121676edf044776a6fb9b8623';

const file = new URL('./node_modules/@notionhq/notion-mcp-server/bin/cli.mjs', import.meta.url);

export function read(text = readFileSync(file, 'utf8')) {
  const id = '[A-Za-z_$][\\w$]*';
  const start = new RegExp(
    `function (${id})\\(e\\)\\{let t=\\{\\};for\\(let\\[r,n\\]of Object\\.entries\\(e\\)\\)t\\[r\\]=(${id})\\(n\\);return t\\}` +
    `function \\2\\(e\\)\\{if\\(typeof e=="string"\\)return (${id})\\(e\\);`, 'g');
  const found = [...text.matchAll(start)];
  if (found.length !== 1) throw new Error(`${file.pathname}: ${found.length} runs of text shaped like deserializeParams, not 1: the package changed`);
  const { index, 1: params, 3: unwrap } = found[0];
  // The run ends with unwrapJsonString: from its start to the brace that
  // closes it, counting braces outside string literals.
  const u = text.indexOf(`function ${unwrap}(e){`, index);
  if (u < 0) throw new Error(`${file.pathname}: no function ${unwrap} after deserializeParams: the package changed`);
  let depth = 0;
  let end = text.indexOf('{', u);
  for (; end < text.length; end++) {
    const c = text[end];
    if (c === '"' || c === "'" || c === '`') {
      for (end++; text[end] !== c; end++) if (text[end] === '\\') end++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}' && --depth === 0) {
      break;
    }
  }
  const source = text.slice(index, end + 1);
  // Nothing else in the run: the three functions and one constant.
  const shape = new RegExp(`^function ${params}\\(e\\)\\{.*\\}function ${id}\\(e\\)\\{.*\\}var (${id})=3;function ${unwrap}\\(e\\)\\{let t=e;for\\(let r=0;r<\\1;r\\+\\+\\)\\{.*JSON\\.parse\\(n\\).*\\}return e\\}$`, 's');
  if (!shape.test(source)) throw new Error(`${file.pathname}: the text around ${params} is not deserializeParams as 2.5.2 has it: the package changed`);
  const sum = createHash('sha256').update(source).digest('hex');
  if (sum !== sha256) throw new Error(`${file.pathname}: deserializeParams is not the text 2.5.2 ships (sha256 ${sum}): the package changed`);
  return { source, deserializeParams: new Function(`"use strict";${source};return ${params};`)() };
}

export const { source, deserializeParams } = read();
