// normalize() for replay.mjs --impl: toolnorm's reference, `toolnorm normalize` (the binary in
// $TOOLNORM, else toolnorm on the PATH) run on each vector's schema and arguments. For
// scripts/corpus-runners.sh.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KINDS = { ': arguments must be a JSON object': 'not-object', ': nesting too deep': 'too-deep', ': invalid JSON': 'invalid-json' };
const dir = mkdtempSync(join(tmpdir(), 'toolnorm-replay-')), schemaFile = join(dir, 'schema.json'), argsFile = join(dir, 'args.json');
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

export default function normalize(schema, args, options) {
  writeFileSync(schemaFile, schema);
  writeFileSync(argsFile, args);
  const flags = ['--profile', options.profile ?? 'text', '--max-passes', String(options.max_passes ?? 0)];
  if (options.max_depth) flags.push('--max-depth', String(options.max_depth));
  const r = spawnSync(process.env.TOOLNORM || 'toolnorm', ['normalize', '--schema', schemaFile, '--args', argsFile, ...flags], { encoding: 'utf8' });
  if (r.status === 0) return r.stdout;
  // "toolnorm: FILE: WHAT ...": the schema's file is invalid-schema whatever it says
  if (r.stderr.startsWith(`toolnorm: ${schemaFile}: `)) throw new Error('invalid-schema');
  throw new Error(Object.entries(KINDS).find(([needle]) => r.stderr.includes(needle))?.[1] ?? r.stderr);
}
