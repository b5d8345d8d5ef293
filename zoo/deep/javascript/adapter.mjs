#!/usr/bin/env node
// The deep zoo's JavaScript normalizer behind toolnorm's protocol, with the
// bugs ZOO_SWITCHES names:
//
//   ZOO_SWITCHES=deep-quote-fallback toolnorm fuzz --impl 'node zoo/deep/javascript/adapter.mjs' ...
//
// Coverage: the kit's default, every script under the working directory
// (run from the repository's root: this directory's and the zoo's).
import { serve } from '../../../kits/javascript/toolnorm-kit.mjs';
import { Unsupported } from '../../javascript/zoo-normalizer.mjs';
import { createDeepNormalizer, SWITCHES } from './deep-normalizer.mjs';

const switches = (process.env.ZOO_SWITCHES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const unknown = switches.filter((s) => !Object.hasOwn(SWITCHES, s));
if (unknown.length) {
  console.error(`deep zoo adapter: unknown switches ${unknown.join(', ')}; it has ${Object.keys(SWITCHES).join(', ')}`);
  process.exit(2);
}

serve({
  info: { name: 'zoo-deep-javascript', language: 'JavaScript', version: switches.join(',') || 'clean' },
  declares: { profile: 'text', max_passes: 0, depth: 'all', repairs: ['json', 'entities'] },
  normalize: createDeepNormalizer(switches),
  unsupported: (e) => e instanceof Unsupported,
});
