// HTML character reference decoding to a fixpoint.
//
// One pass is the HTML tokenizer's decoding in text content (the `entities`
// package's decodeHTML, legacy mode). Passes repeat until the value stops
// changing. A few whole-string passes settle almost every real value; a
// value still changing after them (`&amp;amp;amp;...`) is finished by an
// incremental pass loop that only looks again at the `&`s a pass wrote or
// whose look-ahead window a pass changed, so the work stays linear.
import { decodeHTML, DecodingMode } from 'entities';

const AMP = 0x26;
const WHOLE_PASSES = 4;
// How far the decision at an '&' may read: the longest name (32) and its
// ';', with room to spare.
const WINDOW = 64;
const LOOK_BACK = WINDOW + 1;

/**
 * @param {string} s
 * @param {{ attributeLike?: (s: string) => boolean }} [opts]
 * @returns {string}
 */
export function decodeEntities(s, opts = {}) {
  if (s.indexOf('&') < 0) return s;
  const mode = opts.attributeLike?.(s) ? DecodingMode.Attribute : DecodingMode.Legacy;
  let cur = s;
  for (let pass = 0; pass < WHOLE_PASSES; pass++) {
    const next = decodeHTML(cur, mode);
    if (next === cur) return cur;
    cur = next;
  }
  return incrementalFixpoint(cur, mode);
}

/**
 * Iterate passes until nothing changes, touching only what can change.
 * @param {string} s
 * @param {DecodingMode} mode
 */
export function incrementalFixpoint(s, mode) {
  const n = s.length;
  const HEAD = n;
  const TAIL = n + 1;
  /** @type {number[]} */ const ch = new Array(n + 2);
  /** @type {number[]} */ const nx = new Array(n + 2);
  /** @type {number[]} */ const pv = new Array(n + 2);
  /** @type {number[]} */ const stamp = new Array(n + 2).fill(0);
  /** @type {boolean[]} */ const dead = new Array(n + 2).fill(false);
  for (let i = 0; i < n; i++) {
    ch[i] = s.charCodeAt(i);
    nx[i] = i + 1;
    pv[i] = i - 1;
  }
  ch[HEAD] = -1; ch[TAIL] = -1;
  nx[HEAD] = n > 0 ? 0 : TAIL; pv[HEAD] = -1;
  pv[TAIL] = n > 0 ? n - 1 : HEAD; nx[TAIL] = -1;
  if (n > 0) { pv[0] = HEAD; nx[n - 1] = TAIL; }

  let candidates = [];
  for (let i = 0; i < n; i++) if (ch[i] === AMP) candidates.push(i);
  let pass = 0;
  const isDigit = (c, hex) => (c >= 0x30 && c <= 0x39) || (hex && ((c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)));

  while (candidates.length > 0) {
    pass++;
    /** @type {Array<{before:number, inserted:number[]}>} */
    const changes = [];
    for (const q of candidates) {
      if (dead[q]) continue;
      // The window: what the decision at q reads.
      const ids = [q];
      let w = '&';
      let p = nx[q];
      if (ch[p] === 0x23) { // '#': a numeric reference reads all its digits
        ids.push(p); w += '#'; p = nx[p];
        let hex = false;
        if (ch[p] === 0x78 || ch[p] === 0x58) { hex = true; ids.push(p); w += String.fromCharCode(ch[p]); p = nx[p]; }
        while (p !== TAIL && isDigit(ch[p], hex)) { ids.push(p); w += String.fromCharCode(ch[p]); p = nx[p]; }
        if (p !== TAIL) { ids.push(p); w += String.fromCharCode(ch[p]); }
      } else {
        while (p !== TAIL && ch[p] !== AMP && ids.length <= WINDOW) { ids.push(p); w += String.fromCharCode(ch[p]); p = nx[p]; }
      }
      const r = decodeHTML(w, mode);
      if (r === w) continue;
      let l = 0;
      while (l < r.length && l < w.length - 1 && r.charCodeAt(r.length - 1 - l) === w.charCodeAt(w.length - 1 - l)) l++;
      const consumed = w.length - l;
      const repl = r.slice(0, r.length - l);
      const before = pv[q];
      const after = nx[ids[consumed - 1]];
      for (let k = 0; k < consumed; k++) dead[ids[k]] = true;
      let prev = before;
      const inserted = [];
      for (let k = 0; k < repl.length; k++) {
        const id = ch.length;
        ch.push(repl.charCodeAt(k)); nx.push(-1); pv.push(prev); stamp.push(0); dead.push(false);
        nx[prev] = id;
        prev = id;
        inserted.push(id);
      }
      nx[prev] = after;
      pv[after] = prev;
      changes.push({ before, inserted });
    }
    const next = [];
    for (const { before, inserted } of changes) {
      const back = [];
      let p = before;
      for (let k = 0; k < LOOK_BACK && p !== HEAD && p >= 0; k++) { back.push(p); p = pv[p]; }
      for (let k = back.length - 1; k >= 0; k--) {
        const id = back[k];
        if (!dead[id] && ch[id] === AMP && stamp[id] !== pass) { stamp[id] = pass; next.push(id); }
      }
      for (const id of inserted) {
        if (!dead[id] && ch[id] === AMP && stamp[id] !== pass) { stamp[id] = pass; next.push(id); }
      }
    }
    candidates = next;
  }
  let out = '';
  let chunk = [];
  for (let p = nx[HEAD]; p !== TAIL; p = nx[p]) {
    chunk.push(ch[p]);
    if (chunk.length === 8192) { out += String.fromCharCode(...chunk); chunk = []; }
  }
  return out + String.fromCharCode(...chunk);
}

/** Naive reference iteration, for tests. */
export function decodeEntitiesNaive(s) {
  for (;;) {
    const next = decodeHTML(s, DecodingMode.Legacy);
    if (next === s) return s;
    s = next;
  }
}
