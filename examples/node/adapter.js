#!/usr/bin/env node
// An RT-TOOL-8 normalizer written the way a Node.js developer would write it,
// with JSON.parse and the npm package "he", behind toolnorm's implementation
// protocol (docs/protocol.md).
//
//   (cd examples/node && npm ci)
//   toolnorm check --impl 'node examples/node/adapter.js'
//
// It is an example to check, not a reference: toolnorm finds where it differs
// from the rule (see docs/implementations.md).
'use strict';
const he = require('he');
const readline = require('readline');

function unescape(value) {
  if (typeof value === 'string') {
    for (;;) {
      const decoded = he.decode(value);
      if (decoded === value) return value;
      value = decoded;
    }
  }
  if (Array.isArray(value)) return value.map(unescape);
  if (value !== null && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = unescape(v); // keys untouched
    return out;
  }
  return value;
}

function normalize(schema, args) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new Error('arguments must be an object');
  }
  const props = (schema && schema.properties) || {};
  const out = {};
  for (const [key, value] of Object.entries(args)) {
    const declared = props[key] && props[key].type;
    let v = value;
    if (typeof v === 'string' && (declared === 'array' || declared === 'object')) {
      try {
        const parsed = JSON.parse(v);
        const isArray = Array.isArray(parsed);
        const isObject = parsed !== null && typeof parsed === 'object' && !isArray;
        if ((declared === 'array' && isArray) || (declared === 'object' && isObject)) v = parsed;
      } catch (e) { /* not JSON: leave it */ }
    }
    out[key] = unescape(v);
  }
  return out;
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  let answer;
  if (req.cmd === 'start') {
    answer = { version: 1, implementation: { name: 'node-he-example', language: 'JavaScript', version: process.version } };
  } else if (req.cmd === 'normalize') {
    try {
      answer = { id: req.id, arguments: normalize(req.schema, req.arguments) };
    } catch (e) {
      answer = { id: req.id, error: String(e && e.message || e) };
    }
  } else if (req.cmd === 'stop') {
    process.exit(0);
  } else {
    return;
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
});
