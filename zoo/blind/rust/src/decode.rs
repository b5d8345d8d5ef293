// HTML character reference decoding (WHATWG tokenizer, text content), to the fixpoint.
use crate::entities::ENTITIES;
use std::collections::HashMap;
use std::sync::OnceLock;

fn table() -> &'static HashMap<&'static str, &'static str> {
    static T: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    T.get_or_init(|| ENTITIES.iter().cloned().collect())
}

const WIN1252: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
];

fn is_alnum(c: u32) -> bool {
    c < 128 && (c as u8).is_ascii_alphanumeric()
}
fn hexval(c: u32) -> Option<u32> {
    if c >= 128 {
        return None;
    }
    (c as u8 as char).to_digit(16)
}

fn switch(name: &str) -> bool {
    crate::switch_on(name)
}

/// Decide what the `&` followed by `get(0), get(1), ...` is: None, or (chars consumed after
/// the `&`, replacement).
pub fn decide(get: &mut dyn FnMut(usize) -> Option<u32>) -> Option<(usize, Vec<u32>)> {
    let c0 = get(0)?;
    if c0 == '#' as u32 {
        let c1 = get(1)?;
        let (hex, start) = if c1 == 'x' as u32 || c1 == 'X' as u32 { (true, 2) } else { (false, 1) };
        let mut k = start;
        let mut val: u64 = 0;
        loop {
            let c = match get(k) {
                Some(c) => c,
                None => break,
            };
            let d = if hex {
                hexval(c)
            } else if c >= '0' as u32 && c <= '9' as u32 {
                Some(c - '0' as u32)
            } else {
                None
            };
            match d {
                Some(d) => {
                    val = val * if hex { 16 } else { 10 } + d as u64;
                    if val > 0x110000 {
                        val = 0x110000;
                    }
                    k += 1;
                }
                None => break,
            }
        }
        if k == start {
            return None;
        }
        if get(k) == Some(';' as u32) {
            k += 1;
        }
        let v = val as u32;
        let r = if v == 0 || v > 0x10FFFF || (0xD800..0xE000).contains(&v) {
            0xFFFD
        } else if (0x80..0xA0).contains(&v) {
            WIN1252[(v - 0x80) as usize]
        } else {
            v
        };
        return Some((k, vec![r]));
    }
    if !is_alnum(c0) {
        return None;
    }
    let mut run = String::new();
    let mut k = 0;
    while k < 40 {
        match get(k) {
            Some(c) if is_alnum(c) => {
                run.push(c as u8 as char);
                k += 1;
            }
            _ => break,
        }
    }
    let t = table();
    if get(k) == Some(';' as u32) {
        let mut s = run.clone();
        s.push(';');
        if let Some(r) = t.get(s.as_str()) {
            return Some((k + 1, r.chars().map(|c| c as u32).collect()));
        }
    }
    let mut len = run.len();
    while len > 0 {
        if let Some(r) = t.get(&run[..len]) {
            return Some((len, r.chars().map(|c| c as u32).collect()));
        }
        len -= 1;
    }
    None
}

/// One pass over the whole string (used for tests and comparison).
#[allow(dead_code)]
pub fn one_pass(s: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] == '&' as u32 {
            let mut g = |k: usize| s.get(i + 1 + k).cloned();
            if let Some((n, r)) = decide(&mut g) {
                out.extend(r);
                i += 1 + n;
                continue;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

const END: usize = usize::MAX;
const WINDOW: usize = 42;

/// Decode to the fixpoint. Returns None when nothing changed.
pub fn fixpoint(s: &[u32]) -> Option<Vec<u32>> {
    if !s.contains(&('&' as u32)) {
        return None;
    }
    let n = s.len();
    let mut ch = s.to_vec();
    let mut next: Vec<usize> = (1..=n).map(|i| if i == n { END } else { i }).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| if i == 0 { END } else { i - 1 }).collect();
    let mut alive = vec![true; n];
    let mut cands: Vec<usize> = (0..n).filter(|&i| ch[i] == '&' as u32).collect();
    let mut changed = false;
    let mut buf: Vec<u32> = Vec::new();
    while !cands.is_empty() {
        let mut dirty: Vec<(usize, usize)> = Vec::new();
        let mut consumed_end: Option<usize> = None;
        for &q in &cands {
            if let Some(e) = consumed_end {
                if q <= e {
                    continue;
                }
            }
            if !alive[q] || ch[q] != '&' as u32 {
                continue;
            }
            // lazily materialize the text after q
            buf.clear();
            let mut cur = next[q];
            let res = {
                let mut g = |k: usize| -> Option<u32> {
                    while buf.len() <= k {
                        if cur == END {
                            return None;
                        }
                        buf.push(ch[cur]);
                        cur = next[cur];
                    }
                    Some(buf[k])
                };
                decide(&mut g)
            };
            if let Some((cnt, rep)) = res {
                changed = true;
                // slots of the reference: q and cnt nodes after it
                let mut slots = Vec::with_capacity(cnt + 1);
                let mut p = q;
                slots.push(p);
                for _ in 0..cnt {
                    p = next[p];
                    slots.push(p);
                }
                let last = *slots.last().unwrap();
                let after = next[last];
                let r = rep.len();
                for (j, &c) in rep.iter().enumerate() {
                    ch[slots[j]] = c;
                }
                // unlink slots r..
                let keep_last = slots[r - 1];
                for &sl in &slots[r..] {
                    alive[sl] = false;
                }
                next[keep_last] = after;
                if after != END {
                    prev[after] = keep_last;
                }
                consumed_end = Some(last);
                dirty.push((q, r));
            }
        }
        let mut nc: Vec<usize> = Vec::new();
        for &(q, r) in &dirty {
            let mut p = q;
            for _ in 0..r {
                if ch[p] == '&' as u32 {
                    nc.push(p);
                }
                p = next[p];
            }
            let mut p = prev[q];
            let mut k = 0;
            let window = if switch("s2") { "#x10FFFF;".len() } else { WINDOW };
            while p != END && k < window {
                if ch[p] == '&' as u32 {
                    nc.push(p);
                }
                p = prev[p];
                k += 1;
            }
        }
        nc.sort_unstable();
        nc.dedup();
        cands = nc;
    }
    if !changed {
        return None;
    }
    let mut out = Vec::new();
    let mut p = if n > 0 { 0 } else { END };
    while p != END {
        out.push(ch[p]);
        p = next[p];
    }
    Some(out)
}
