// A Node.js module loader hook that exposes a function (or a module-level
// variable or class) a package defines but does not export, without
// changing the package's files: when the module whose URL matches the
// pattern is loaded, an export line is added to its source as Node reads
// it. register(pattern, names) from the adapter, before it imports the
// package.
//
//   import { expose } from '../lib/expose.mjs';
//   expose(/\/@openclaw\/ai\/dist\/validation-[^/]+\.mjs$/, ['coerceWithJsonSchema']);
//   const m = await import('@openclaw/ai/validation');
import { register } from 'node:module';

export function expose(pattern, names) {
  const hook = `
    const pattern = new RegExp(${JSON.stringify(pattern.source)});
    const names = ${JSON.stringify(names)};
    export async function load(url, context, next) {
      const result = await next(url, context);
      if (!pattern.test(url)) return result;
      const source = String(result.source);
      for (const n of names) {
        if (!new RegExp('(?:function|var|let|const|class) ' + n + '\\\\b').test(source)) {
          throw new Error(url + ' defines no function or variable ' + n + ': the package changed');
        }
      }
      const exports = names.map((n) => n + ' as __toolnorm_' + n).join(', ');
      return { ...result, source: source + '\\nexport { ' + exports + ' };\\n' };
    }`;
  register('data:text/javascript,' + encodeURIComponent(hook));
}
