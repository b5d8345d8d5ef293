// A small backtracking matcher for ECMA-262 regular expressions, read with the `u` flag.
use std::cell::Cell;

#[derive(Debug, Clone)]
enum Node {
    Empty,
    Char(u32),
    Any,
    Class(Vec<(u32, u32)>, bool),
    Start,
    End,
    WordB(bool),
    Group(Box<Node>, Option<usize>),
    Look(Box<Node>, bool, bool), // ahead, negated
    BackRef(usize),
    NamedRef(String),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>, bool),
}

pub struct Regex {
    node: Node,
    ncap: usize,
}

struct P<'a> {
    s: &'a [u32],
    i: usize,
    ncap: usize,
    names: Vec<String>,
    depth: usize,
}

const SYNTAX: &str = "^$\\.*+?()[]{}|/";

fn ws_ranges() -> Vec<(u32, u32)> {
    vec![
        (9, 13),
        (32, 32),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
}
fn word_ranges() -> Vec<(u32, u32)> {
    vec![(48, 57), (65, 90), (95, 95), (97, 122)]
}
fn digit_ranges() -> Vec<(u32, u32)> {
    vec![(48, 57)]
}
fn negate(r: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut v = r.to_vec();
    v.sort();
    let mut out = Vec::new();
    let mut lo = 0u32;
    for (a, b) in v {
        if a > lo {
            out.push((lo, a - 1));
        }
        if b + 1 > lo {
            lo = b + 1;
        }
    }
    if lo <= 0x10FFFF {
        out.push((lo, 0x10FFFF));
    }
    out
}

enum ClassAtom {
    Ch(u32),
    Set(Vec<(u32, u32)>),
}

impl<'a> P<'a> {
    fn peek(&self) -> Option<u32> {
        self.s.get(self.i).cloned()
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c as u32) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn err<T>(&self, m: &str) -> Result<T, String> {
        Err(format!("{} at {}", m, self.i))
    }
    fn disj(&mut self) -> Result<Node, String> {
        let mut alts = vec![self.alt()?];
        while self.eat('|') {
            alts.push(self.alt()?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap() } else { Node::Alt(alts) })
    }
    fn alt(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' as u32 || c == ')' as u32 {
                break;
            }
            let (atom, quantifiable) = self.term()?;
            let atom = self.quant(atom, quantifiable)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap(),
            _ => Node::Concat(items),
        })
    }
    fn digits(&mut self) -> Option<u32> {
        let st = self.i;
        let mut v: u64 = 0;
        while let Some(c) = self.peek() {
            if (48..58).contains(&c) {
                v = (v * 10 + (c - 48) as u64).min(u32::MAX as u64);
                self.i += 1;
            } else {
                break;
            }
        }
        if self.i == st {
            None
        } else {
            Some(v as u32)
        }
    }
    fn quant(&mut self, atom: Node, quantifiable: bool) -> Result<Node, String> {
        let c = match self.peek() {
            Some(c) => c,
            None => return Ok(atom),
        };
        let (min, max) = if c == '*' as u32 {
            self.i += 1;
            (0, None)
        } else if c == '+' as u32 {
            self.i += 1;
            (1, None)
        } else if c == '?' as u32 {
            self.i += 1;
            (0, Some(1))
        } else if c == '{' as u32 {
            self.i += 1;
            let a = match self.digits() {
                Some(a) => a,
                None => return self.err("lone {"),
            };
            let b = if self.eat(',') {
                if self.peek() == Some('}' as u32) {
                    None
                } else {
                    match self.digits() {
                        Some(b) => Some(b),
                        None => return self.err("lone {"),
                    }
                }
            } else {
                Some(a)
            };
            if !self.eat('}') {
                return self.err("lone {");
            }
            if let Some(b) = b {
                if b < a {
                    return self.err("numbers out of order in quantifier");
                }
            }
            (a, b)
        } else {
            return Ok(atom);
        };
        if !quantifiable {
            return self.err("nothing to repeat");
        }
        let greedy = !self.eat('?');
        Ok(Node::Repeat(Box::new(atom), min, max, greedy))
    }
    fn term(&mut self) -> Result<(Node, bool), String> {
        let c = self.peek().unwrap();
        self.i += 1;
        match char::from_u32(c).unwrap_or('\0') {
            '^' => Ok((Node::Start, false)),
            '$' => Ok((Node::End, false)),
            '.' => Ok((Node::Any, true)),
            '*' | '+' | '?' => self.err("nothing to repeat"),
            '{' | '}' | ']' => self.err("lone brace or bracket"),
            '(' => {
                self.depth += 1;
                if self.depth > 1000 {
                    return self.err("groups nest too deep");
                }
                let r = if self.eat('?') {
                    if self.eat(':') {
                        (Node::Group(Box::new(self.disj()?), None), true)
                    } else if self.eat('=') {
                        (Node::Look(Box::new(self.disj()?), true, false), false)
                    } else if self.eat('!') {
                        (Node::Look(Box::new(self.disj()?), true, true), false)
                    } else if self.eat('<') {
                        if self.eat('=') {
                            (Node::Look(Box::new(self.disj()?), false, false), false)
                        } else if self.eat('!') {
                            (Node::Look(Box::new(self.disj()?), false, true), false)
                        } else {
                            let name = self.group_name()?;
                            if self.names.contains(&name) {
                                return self.err("duplicate group name");
                            }
                            self.names.push(name);
                            self.ncap += 1;
                            let idx = self.ncap;
                            (Node::Group(Box::new(self.disj()?), Some(idx)), true)
                        }
                    } else {
                        return self.err("invalid group");
                    }
                } else {
                    self.ncap += 1;
                    self.names.push(String::new());
                    let idx = self.ncap;
                    (Node::Group(Box::new(self.disj()?), Some(idx)), true)
                };
                if !self.eat(')') {
                    return self.err("missing )");
                }
                self.depth -= 1;
                Ok(r)
            }
            ')' => self.err("unmatched )"),
            '[' => Ok((self.class()?, true)),
            '\\' => self.escape(),
            _ => Ok((Node::Char(c), true)),
        }
    }
    fn group_name(&mut self) -> Result<String, String> {
        let mut name = String::new();
        loop {
            let c = match self.peek() {
                Some(c) => c,
                None => return self.err("bad group name"),
            };
            self.i += 1;
            if c == '>' as u32 {
                break;
            }
            let ch = char::from_u32(c).unwrap_or('\0');
            let ok = ch == '$' || ch == '_' || ch.is_alphabetic() || (!name.is_empty() && ch.is_alphanumeric());
            if !ok {
                return self.err("bad group name");
            }
            name.push(ch);
        }
        if name.is_empty() {
            return self.err("bad group name");
        }
        Ok(name)
    }
    fn hexn(&mut self, n: usize) -> Option<u32> {
        let mut v = 0;
        for k in 0..n {
            let c = *self.s.get(self.i + k)?;
            let d = char::from_u32(c)?.to_digit(16)?;
            v = v * 16 + d;
        }
        self.i += n;
        Some(v)
    }
    // character escapes shared by atoms and classes
    fn char_escape(&mut self, c: u32, in_class: bool) -> Result<u32, String> {
        let ch = char::from_u32(c).unwrap_or('\0');
        Ok(match ch {
            't' => 9,
            'n' => 10,
            'v' => 11,
            'f' => 12,
            'r' => 13,
            'c' => {
                let n = self.peek().unwrap_or(0);
                if (65..91).contains(&n) || (97..123).contains(&n) {
                    self.i += 1;
                    n % 32
                } else {
                    return self.err("invalid \\c escape");
                }
            }
            '0' => {
                if let Some(n) = self.peek() {
                    if (48..58).contains(&n) {
                        return self.err("invalid decimal escape");
                    }
                }
                0
            }
            'x' => match self.hexn(2) {
                Some(v) => v,
                None => return self.err("invalid \\x escape"),
            },
            'u' => {
                if self.eat('{') {
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while let Some(c) = self.peek() {
                        if let Some(d) = char::from_u32(c).and_then(|x| x.to_digit(16)) {
                            v = v.saturating_mul(16).saturating_add(d);
                            if v > 0x10FFFF {
                                return self.err("invalid \\u{} escape");
                            }
                            n += 1;
                            self.i += 1;
                        } else {
                            break;
                        }
                    }
                    if n == 0 || !self.eat('}') {
                        return self.err("invalid \\u{} escape");
                    }
                    v
                } else {
                    let v = match self.hexn(4) {
                        Some(v) => v,
                        None => return self.err("invalid \\u escape"),
                    };
                    if (0xD800..0xDC00).contains(&v)
                        && self.s.get(self.i) == Some(&('\\' as u32))
                        && self.s.get(self.i + 1) == Some(&('u' as u32))
                    {
                        let save = self.i;
                        self.i += 2;
                        if let Some(l) = self.hexn(4) {
                            if (0xDC00..0xE000).contains(&l) {
                                return Ok(0x10000 + ((v - 0xD800) << 10) + (l - 0xDC00));
                            }
                        }
                        self.i = save;
                    }
                    v
                }
            }
            '-' if in_class => 0x2d,
            'b' if in_class => 8,
            _ => {
                if c < 128 && SYNTAX.contains(ch) {
                    c
                } else {
                    return self.err("invalid escape");
                }
            }
        })
    }
    fn prop(&mut self, neg: bool) -> Result<Vec<(u32, u32)>, String> {
        if !self.eat('{') {
            return self.err("invalid property escape");
        }
        let mut name = String::new();
        loop {
            match self.peek() {
                None => return self.err("invalid property escape"),
                Some(c) => {
                    self.i += 1;
                    if c == '}' as u32 {
                        break;
                    }
                    name.push(char::from_u32(c).unwrap_or('\0'));
                }
            }
        }
        let r: Vec<(u32, u32)> = match prop_ranges(&name) {
            Some(r) => r,
            None => return self.err("unsupported or invalid Unicode property"),
        };
        Ok(if neg { negate(&r) } else { r })
    }
    fn escape(&mut self) -> Result<(Node, bool), String> {
        let c = match self.peek() {
            Some(c) => c,
            None => return self.err("trailing backslash"),
        };
        self.i += 1;
        let ch = char::from_u32(c).unwrap_or('\0');
        match ch {
            'd' => Ok((Node::Class(digit_ranges(), false), true)),
            'D' => Ok((Node::Class(digit_ranges(), true), true)),
            'w' => Ok((Node::Class(word_ranges(), false), true)),
            'W' => Ok((Node::Class(word_ranges(), true), true)),
            's' => Ok((Node::Class(ws_ranges(), false), true)),
            'S' => Ok((Node::Class(ws_ranges(), true), true)),
            'b' => Ok((Node::WordB(true), false)),
            'B' => Ok((Node::WordB(false), false)),
            'p' => Ok((Node::Class(self.prop(false)?, false), true)),
            'P' => Ok((Node::Class(self.prop(true)?, false), true)),
            'k' => {
                if !self.eat('<') {
                    return self.err("invalid \\k");
                }
                let n = self.group_name()?;
                Ok((Node::NamedRef(n), true))
            }
            '1'..='9' => {
                self.i -= 1;
                let n = self.digits().unwrap();
                Ok((Node::BackRef(n as usize), true))
            }
            _ => Ok((Node::Char(self.char_escape(c, false)?), true)),
        }
    }
    fn class_atom(&mut self) -> Result<ClassAtom, String> {
        let c = match self.peek() {
            Some(c) => c,
            None => return self.err("unterminated class"),
        };
        self.i += 1;
        if c != '\\' as u32 {
            return Ok(ClassAtom::Ch(c));
        }
        let e = match self.peek() {
            Some(e) => e,
            None => return self.err("unterminated class"),
        };
        self.i += 1;
        Ok(match char::from_u32(e).unwrap_or('\0') {
            'd' => ClassAtom::Set(digit_ranges()),
            'D' => ClassAtom::Set(negate(&digit_ranges())),
            'w' => ClassAtom::Set(word_ranges()),
            'W' => ClassAtom::Set(negate(&word_ranges())),
            's' => ClassAtom::Set(ws_ranges()),
            'S' => ClassAtom::Set(negate(&ws_ranges())),
            'p' => ClassAtom::Set(self.prop(false)?),
            'P' => ClassAtom::Set(self.prop(true)?),
            _ => ClassAtom::Ch(self.char_escape(e, true)?),
        })
    }
    fn class(&mut self) -> Result<Node, String> {
        let neg = self.eat('^');
        let mut ranges = Vec::new();
        loop {
            match self.peek() {
                None => return self.err("unterminated class"),
                Some(c) if c == ']' as u32 => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let a = self.class_atom()?;
            if self.peek() == Some('-' as u32) && self.s.get(self.i + 1) != Some(&(']' as u32)) && self.s.get(self.i + 1).is_some() {
                self.i += 1;
                let b = self.class_atom()?;
                match (a, b) {
                    (ClassAtom::Ch(x), ClassAtom::Ch(y)) => {
                        if x > y {
                            return self.err("class range out of order");
                        }
                        ranges.push((x, y));
                    }
                    _ => return self.err("class range with a class escape"),
                }
            } else {
                match a {
                    ClassAtom::Ch(x) => ranges.push((x, x)),
                    ClassAtom::Set(s) => ranges.extend(s),
                }
            }
            if ranges.len() > 65536 {
                return self.err("too many class ranges");
            }
        }
        Ok(Node::Class(ranges, neg))
    }
}

fn check_refs(n: &Node, ncap: usize, names: &[String]) -> Result<(), String> {
    match n {
        Node::BackRef(k) => {
            if *k > ncap {
                return Err("invalid backreference".into());
            }
        }
        Node::NamedRef(s) => {
            if !names.contains(s) {
                return Err("invalid named reference".into());
            }
        }
        Node::Group(x, _) | Node::Look(x, _, _) | Node::Repeat(x, _, _, _) => check_refs(x, ncap, names)?,
        Node::Concat(v) | Node::Alt(v) => {
            for x in v {
                check_refs(x, ncap, names)?
            }
        }
        _ => {}
    }
    Ok(())
}

fn resolve_named(n: &mut Node, names: &[String]) {
    match n {
        Node::NamedRef(s) => {
            let idx = names.iter().position(|x| x == s).unwrap() + 1;
            *n = Node::BackRef(idx);
        }
        Node::Group(x, _) | Node::Look(x, _, _) | Node::Repeat(x, _, _, _) => resolve_named(x, names),
        Node::Concat(v) | Node::Alt(v) => {
            for x in v {
                resolve_named(x, names)
            }
        }
        _ => {}
    }
}

pub fn compile(pat: &str) -> Result<Regex, String> {
    if pat.len() > 32 * 1024 {
        return Err("pattern too long".into());
    }
    let s: Vec<u32> = pat.chars().map(|c| c as u32).collect();
    let mut p = P { s: &s, i: 0, ncap: 0, names: Vec::new(), depth: 0 };
    let mut node = p.disj()?;
    if p.i != s.len() {
        return p.err("unmatched )");
    }
    check_refs(&node, p.ncap, &p.names)?;
    resolve_named(&mut node, &p.names);
    Ok(Regex { node, ncap: p.ncap })
}

pub struct Budget {
    pub steps: Cell<u64>,
    pub exceeded: Cell<bool>,
}

pub const BUDGET: u64 = 10_000_000;

type Caps = Vec<Option<(usize, usize)>>;

struct M<'a> {
    s: &'a [u32],
    b: &'a Budget,
}

fn is_word(c: u32) -> bool {
    c < 128 && ((c as u8).is_ascii_alphanumeric() || c == 95)
}

impl<'a> M<'a> {
    fn tick(&self) -> bool {
        let n = self.b.steps.get() + 1;
        self.b.steps.set(n);
        if n > BUDGET {
            self.b.exceeded.set(true);
            return false;
        }
        true
    }
    fn m(&self, n: &Node, i: usize, caps: &mut Caps, k: &mut dyn FnMut(usize, &mut Caps) -> bool) -> bool {
        if !self.tick() {
            return false;
        }
        let s = self.s;
        match n {
            Node::Empty => k(i, caps),
            Node::Char(c) => i < s.len() && s[i] == *c && k(i + 1, caps),
            Node::Any => i < s.len() && !matches!(s[i], 10 | 13 | 0x2028 | 0x2029) && k(i + 1, caps),
            Node::Class(r, neg) => {
                if i >= s.len() {
                    return false;
                }
                let c = s[i];
                let inr = r.iter().any(|&(a, b)| a <= c && c <= b);
                inr != *neg && k(i + 1, caps)
            }
            Node::Start => i == 0 && k(i, caps),
            Node::End => i == s.len() && k(i, caps),
            Node::WordB(want) => {
                let a = i > 0 && is_word(s[i - 1]);
                let b = i < s.len() && is_word(s[i]);
                ((a != b) == *want) && k(i, caps)
            }
            Node::Group(x, idx) => match idx {
                None => self.m(x, i, caps, k),
                Some(idx) => {
                    let idx = *idx;
                    self.m(x, i, caps, &mut |j, c: &mut Caps| {
                        let old = c[idx];
                        c[idx] = Some((i, j));
                        if k(j, c) {
                            return true;
                        }
                        c[idx] = old;
                        false
                    })
                }
            },
            Node::Look(x, ahead, neg) => {
                let mut c2 = caps.clone();
                let ok = if *ahead {
                    self.m(x, i, &mut c2, &mut |_, _| true)
                } else {
                    let mut found = false;
                    for st in (0..=i).rev() {
                        if self.m(x, st, &mut c2, &mut |j, _| j == i) {
                            found = true;
                            break;
                        }
                        if self.b.exceeded.get() {
                            return false;
                        }
                    }
                    found
                };
                if self.b.exceeded.get() {
                    return false;
                }
                if ok == *neg {
                    return false;
                }
                if !*neg {
                    k(i, &mut c2)
                } else {
                    k(i, caps)
                }
            }
            Node::BackRef(idx) => match caps.get(*idx).cloned().flatten() {
                None => k(i, caps),
                Some((a, b)) => {
                    let len = b - a;
                    if i + len <= s.len() && s[a..b] == s[i..i + len] {
                        k(i + len, caps)
                    } else {
                        false
                    }
                }
            },
            Node::NamedRef(_) => false,
            Node::Concat(v) => self.seq(v, 0, i, caps, k),
            Node::Alt(v) => {
                for x in v {
                    if self.m(x, i, caps, k) {
                        return true;
                    }
                    if self.b.exceeded.get() {
                        return false;
                    }
                }
                false
            }
            Node::Repeat(x, min, max, greedy) => self.rep(x, *min, *max, *greedy, 0, i, caps, k),
        }
    }
    fn seq(&self, v: &[Node], idx: usize, i: usize, caps: &mut Caps, k: &mut dyn FnMut(usize, &mut Caps) -> bool) -> bool {
        if idx == v.len() {
            return k(i, caps);
        }
        self.m(&v[idx], i, caps, &mut |j, c: &mut Caps| self.seq(v, idx + 1, j, c, k))
    }
    #[allow(clippy::too_many_arguments)]
    fn rep(&self, x: &Node, min: u32, max: Option<u32>, greedy: bool, count: u32, i: usize, caps: &mut Caps, k: &mut dyn FnMut(usize, &mut Caps) -> bool) -> bool {
        if !self.tick() {
            return false;
        }
        if count < min {
            return self.m(x, i, caps, &mut |j, c: &mut Caps| self.rep(x, min, max, greedy, count + 1, j, c, k));
        }
        if let Some(mx) = max {
            if count >= mx {
                return k(i, caps);
            }
        }
        if greedy {
            if self.m(x, i, caps, &mut |j, c: &mut Caps| j != i && self.rep(x, min, max, greedy, count + 1, j, c, k)) {
                return true;
            }
            if self.b.exceeded.get() {
                return false;
            }
            k(i, caps)
        } else {
            if k(i, caps) {
                return true;
            }
            if self.b.exceeded.get() {
                return false;
            }
            self.m(x, i, caps, &mut |j, c: &mut Caps| j != i && self.rep(x, min, max, greedy, count + 1, j, c, k))
        }
    }
}

impl Regex {
    /// Search anywhere in `s`. Err when the budget is spent.
    pub fn is_match(&self, s: &[u32], b: &Budget) -> Result<bool, String> {
        let m = M { s, b };
        let last = if crate::switch_on("s6") { 0 } else { s.len() };
        for st in 0..=last {
            let mut caps: Caps = vec![None; self.ncap + 1];
            if m.m(&self.node, st, &mut caps, &mut |_, _| true) {
                return Ok(true);
            }
            if b.exceeded.get() {
                return Err(format!("the call's {} pattern steps are spent", BUDGET));
            }
        }
        Ok(false)
    }
}

fn gc(short: &str) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (k, r) in crate::unicode_gc::GC {
        let m = if short.len() == 1 { k.starts_with(short) } else if short == "LC" { *k == "Lu" || *k == "Ll" || *k == "Lt" } else { *k == short };
        if m {
            out.extend_from_slice(r);
        }
    }
    out.sort();
    out
}

const GC_NAMES: &[(&str, &str)] = &[
    ("L", "Letter"), ("Lu", "Uppercase_Letter"), ("Ll", "Lowercase_Letter"), ("Lt", "Titlecase_Letter"),
    ("LC", "Cased_Letter"), ("Lm", "Modifier_Letter"), ("Lo", "Other_Letter"), ("M", "Mark"), ("M", "Combining_Mark"),
    ("Mn", "Nonspacing_Mark"), ("Mc", "Spacing_Mark"), ("Me", "Enclosing_Mark"), ("N", "Number"),
    ("Nd", "Decimal_Number"), ("Nd", "digit"), ("Nl", "Letter_Number"), ("No", "Other_Number"), ("P", "Punctuation"),
    ("P", "punct"), ("Pc", "Connector_Punctuation"), ("Pd", "Dash_Punctuation"), ("Ps", "Open_Punctuation"),
    ("Pe", "Close_Punctuation"), ("Pi", "Initial_Punctuation"), ("Pf", "Final_Punctuation"), ("Po", "Other_Punctuation"),
    ("S", "Symbol"), ("Sm", "Math_Symbol"), ("Sc", "Currency_Symbol"), ("Sk", "Modifier_Symbol"), ("So", "Other_Symbol"),
    ("Z", "Separator"), ("Zs", "Space_Separator"), ("Zl", "Line_Separator"), ("Zp", "Paragraph_Separator"),
    ("C", "Other"), ("Cc", "Control"), ("Cc", "cntrl"), ("Cf", "Format"), ("Cs", "Surrogate"), ("Co", "Private_Use"),
    ("Cn", "Unassigned"),
];

fn gc_value(v: &str) -> Option<Vec<(u32, u32)>> {
    for (a, b) in GC_NAMES {
        if v == *a || v == *b {
            return Some(gc(a));
        }
    }
    None
}

fn by_pred(f: fn(char) -> bool) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for cp in 0..=0x10FFFFu32 {
        if let Some(c) = char::from_u32(cp) {
            if f(c) {
                match out.last_mut() {
                    Some(l) if l.1 + 1 == cp => l.1 = cp,
                    _ => out.push((cp, cp)),
                }
            }
        }
    }
    out
}

fn prop_ranges(name: &str) -> Option<Vec<(u32, u32)>> {
    if let Some((k, v)) = name.split_once('=') {
        if k == "General_Category" || k == "gc" {
            return gc_value(v);
        }
        return None;
    }
    if let Some(r) = gc_value(name) {
        return Some(r);
    }
    Some(match name {
        "ASCII" => vec![(0, 127)],
        "Any" => vec![(0, 0x10FFFF)],
        "Assigned" => negate(&gc("Cn")),
        "ASCII_Hex_Digit" | "AHex" => vec![(48, 57), (65, 70), (97, 102)],
        "Alphabetic" | "Alpha" => by_pred(|c| c.is_alphabetic()),
        "White_Space" | "space" => by_pred(|c| c.is_whitespace()),
        "Lowercase" | "Lower" => by_pred(|c| c.is_lowercase()),
        "Uppercase" | "Upper" => by_pred(|c| c.is_uppercase()),
        _ => return None,
    })
}
