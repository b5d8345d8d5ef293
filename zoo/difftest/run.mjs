// run.mjs SWITCHES: the JavaScript zoo on JSON lines {"schema": TEXT,
// "arguments": TEXT}, one answer line each: {"arguments": TEXT},
// {"error": MESSAGE} or {"unsupported": MESSAGE}. For difftest.py.
import { createInterface } from 'node:readline';
import { call } from '../../kits/javascript/toolnorm-kit.mjs';
import { createNormalizer, Unsupported } from '../javascript/zoo-normalizer.mjs';

const normalize = createNormalizer((process.argv[2] ?? '').split(',').filter(Boolean));
const out = [];
createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    const c = JSON.parse(line);
    try {
      out.push(JSON.stringify({ arguments: call(normalize, c.schema, c.arguments) }));
    } catch (e) {
      out.push(JSON.stringify(e instanceof Unsupported ? { unsupported: e.message } : { error: String(e?.message ?? e) }));
    }
  })
  .on('close', () => process.stdout.write(out.join('\n') + '\n'));
