#!/usr/bin/env node
// toolnorm adapter (protocol version 1, docs/protocol.md) for the normalizer
// in src/. Requests are read with the normalizer's own lossless JSON reader,
// so number text, member order and duplicate members reach it as sent.
import { createInterface } from 'node:readline';
import { parseJson, stringifyJson } from './src/json.mjs';
import { compileToolSchema } from './src/normalize.mjs';

console.log = console.error;

const START = JSON.stringify({
  version: 1,
  implementation: { name: 'blind3-js-toolnorm', language: 'JavaScript', version: '0.1.0' },
  declares: { profile: 'text', max_passes: 0, depth: 'all', repairs: ['json', 'entities'] },
});

const out = [];
let scheduled = false;
const flush = () => {
  scheduled = false;
  if (out.length) process.stdout.write(out.splice(0).join(''));
};
const send = (line) => {
  out.push(line + '\n');
  if (!scheduled) { scheduled = true; setImmediate(flush); }
};

const member = (obj, k) => obj.m.find((m) => m.k === k)?.v;

function answer(req) {
  const idNode = member(req, 'id');
  const id = idNode?.r ?? 'null';
  try {
    const schema = member(req, 'schema');
    const args = member(req, 'arguments');
    if (!schema || !args) throw new Error('request without schema or arguments');
    const tool = compileToolSchema(schema);
    return `{"id":${id},"arguments":${stringifyJson(tool.normalizeNode(args))}}`;
  } catch (e) {
    return `{"id":${id},"error":${JSON.stringify(String(e?.message ?? e))}}`;
  }
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  let req;
  try {
    req = parseJson(line);
  } catch (e) {
    const m = /"id"\s*:\s*(-?[0-9]+)/.exec(line);
    if (m) send(`{"id":${m[1]},"error":${JSON.stringify(String(e.message))}}`);
    else console.error(`unreadable request: ${e.message}`);
    return;
  }
  if (req.t !== 'o') return;
  const cmd = member(req, 'cmd');
  const c = cmd?.t === 's' ? cmd.v : null;
  if (c === 'start') send(START);
  else if (c === 'normalize') send(answer(req));
  else if (c === 'stop') {
    rl.close();
    flush();
    process.stdout.write('', () => process.exit(0));
  }
});
rl.on('close', flush);
