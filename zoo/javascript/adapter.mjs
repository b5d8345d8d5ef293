#!/usr/bin/env node
// The bug zoo's JavaScript normalizer behind toolnorm's protocol, with the
// bugs ZOO_SWITCHES names:
//
//   ZOO_SWITCHES=js-replace-once,js-no-ref toolnorm check --impl 'node zoo/javascript/adapter.mjs'
//
// The kit (kits/javascript/toolnorm-kit.mjs, imported where it stands in this
// repository, as the adapters toolnorm init writes import theirs) speaks the
// protocol. ZOO_DECLARES, a JSON object, changes what the adapter declares
// (docs/protocol.md, "Declares"): with it, a switch whose bug is a reading
// toolnorm can be told about is checked against the reference read that way.
import { serve } from '../../kits/javascript/toolnorm-kit.mjs';
import { createNormalizer, SWITCHES, Unsupported } from './zoo-normalizer.mjs';

const switches = (process.env.ZOO_SWITCHES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const unknown = switches.filter((s) => !Object.hasOwn(SWITCHES, s));
if (unknown.length) {
  console.error(`zoo adapter: unknown switches ${unknown.join(', ')}; the JavaScript zoo has ${Object.keys(SWITCHES).join(', ')}`);
  process.exit(2);
}
const declares = { profile: 'text', max_passes: 0, depth: 'all', repairs: ['json', 'entities'], ...JSON.parse(process.env.ZOO_DECLARES || '{}') };

serve({
  info: { name: 'zoo-javascript', language: 'JavaScript', version: switches.join(',') || 'clean' },
  declares,
  normalize: createNormalizer(switches),
  unsupported: (e) => e instanceof Unsupported,
});
