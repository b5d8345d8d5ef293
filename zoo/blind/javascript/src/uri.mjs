// RFC 3986 reference resolution (section 5.2), enough for JSON Schema ids.
const RE = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

export function parseUri(u) {
  const m = RE.exec(u);
  return { scheme: m[1], authority: m[2], path: m[3], query: m[4], fragment: m[5] };
}

function removeDots(path) {
  const out = [];
  let input = path;
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../')) { input = input.slice(3); out.pop(); }
    else if (input === '/..') { input = '/'; out.pop(); }
    else if (input === '.' || input === '..') input = '';
    else {
      const j = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const seg = j < 0 ? input : input.slice(0, j);
      out.push(seg);
      input = j < 0 ? '' : input.slice(j);
    }
  }
  return out.join('');
}

function recompose({ scheme, authority, path, query, fragment }) {
  let s = '';
  if (scheme !== undefined) s += scheme + ':';
  if (authority !== undefined) s += '//' + authority;
  s += path;
  if (query !== undefined) s += '?' + query;
  if (fragment !== undefined) s += '#' + fragment;
  return s;
}

/** Resolve ref against base (an absolute URI). */
export function resolveUri(base, ref) {
  const r = parseUri(ref);
  const b = parseUri(base);
  const t = {};
  if (r.scheme !== undefined) {
    t.scheme = r.scheme; t.authority = r.authority; t.path = removeDots(r.path); t.query = r.query;
  } else {
    if (r.authority !== undefined) {
      t.authority = r.authority; t.path = removeDots(r.path); t.query = r.query;
    } else {
      if (r.path === '') {
        t.path = b.path;
        t.query = r.query !== undefined ? r.query : b.query;
      } else {
        if (r.path.startsWith('/')) t.path = removeDots(r.path);
        else {
          let merged;
          if (b.authority !== undefined && b.path === '') merged = '/' + r.path;
          else {
            const k = b.path.lastIndexOf('/');
            merged = (k >= 0 ? b.path.slice(0, k + 1) : '') + r.path;
          }
          t.path = removeDots(merged);
        }
        t.query = r.query;
      }
      t.authority = b.authority;
    }
    t.scheme = b.scheme;
  }
  t.fragment = r.fragment;
  return recompose(t);
}

/** Split off the fragment: [uri without fragment, fragment ('' when none)]. */
export function splitFragment(u) {
  const k = u.indexOf('#');
  return k < 0 ? [u, ''] : [u.slice(0, k), u.slice(k + 1)];
}
