// A small JSON reader/writer that keeps the text of what it read.

#[derive(Clone, Debug)]
pub struct JStr {
    pub raw: Option<String>, // the text between the quotes as read; None once changed
    pub cps: Vec<u32>,       // decoded code points (a lone surrogate kept as its value)
}

impl JStr {
    pub fn from_cps(cps: Vec<u32>) -> JStr {
        JStr { raw: None, cps }
    }
    pub fn to_string_lossy(&self) -> String {
        self.cps.iter().map(|&c| char::from_u32(c).unwrap_or('\u{FFFD}')).collect()
    }
}

#[derive(Clone, Debug)]
pub enum V {
    Null,
    Bool(bool),
    Num(String),
    Str(JStr),
    Arr(Vec<V>),
    Obj(Vec<(JStr, V)>),
}

impl V {
    pub fn kind(&self) -> u8 {
        match self {
            V::Null => T_NULL,
            V::Bool(_) => T_BOOL,
            V::Num(_) => T_NUM,
            V::Str(_) => T_STR,
            V::Arr(_) => T_ARR,
            V::Obj(_) => T_OBJ,
        }
    }
    pub fn get(&self, key: &str) -> Option<&V> {
        if let V::Obj(m) = self {
            for (k, v) in m {
                if k.to_string_lossy() == key {
                    return Some(v);
                }
            }
        }
        None
    }
}

pub const T_NULL: u8 = 1;
pub const T_BOOL: u8 = 2;
pub const T_OBJ: u8 = 4;
pub const T_ARR: u8 = 8;
pub const T_NUM: u8 = 16;
pub const T_STR: u8 = 32;
pub const T_INT: u8 = 64;

pub struct Parser<'a> {
    pub b: &'a [u8],
    pub i: usize,
    pub max_depth: usize,
}

fn is_ws(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\n' || c == b'\r'
}

impl<'a> Parser<'a> {
    pub fn new(b: &'a [u8], max_depth: usize) -> Self {
        Parser { b, i: 0, max_depth }
    }
    fn err<T>(&self, m: &str) -> Result<T, String> {
        Err(format!("invalid JSON: {} at offset {}", m, self.i))
    }
    fn ws(&mut self) {
        while self.i < self.b.len() && is_ws(self.b[self.i]) {
            self.i += 1;
        }
    }
    pub fn parse_all(&mut self) -> Result<V, String> {
        self.ws();
        let v = self.value(1)?;
        self.ws();
        if self.i != self.b.len() {
            return self.err("trailing text after value");
        }
        Ok(v)
    }
    pub fn value(&mut self, depth: usize) -> Result<V, String> {
        if self.i >= self.b.len() {
            return self.err("unexpected end");
        }
        match self.b[self.i] {
            b'{' => {
                if depth > self.max_depth {
                    return self.err("nesting too deep");
                }
                self.i += 1;
                let mut m = Vec::new();
                self.ws();
                if self.i < self.b.len() && self.b[self.i] == b'}' {
                    self.i += 1;
                    return Ok(V::Obj(m));
                }
                loop {
                    self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b'"' {
                        return self.err("expected string key");
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.i >= self.b.len() || self.b[self.i] != b':' {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    m.push((k, v));
                    self.ws();
                    if self.i >= self.b.len() {
                        return self.err("unexpected end in object");
                    }
                    match self.b[self.i] {
                        b',' => {
                            self.i += 1;
                            if crate::switch_on("s3") {
                                self.ws();
                                if self.i < self.b.len() && self.b[self.i] == b'}' {
                                    self.i += 1;
                                    return Ok(V::Obj(m));
                                }
                            }
                        }
                        b'}' => {
                            self.i += 1;
                            return Ok(V::Obj(m));
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            b'[' => {
                if depth > self.max_depth {
                    return self.err("nesting too deep");
                }
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.i < self.b.len() && self.b[self.i] == b']' {
                    self.i += 1;
                    return Ok(V::Arr(a));
                }
                loop {
                    self.ws();
                    a.push(self.value(depth + 1)?);
                    self.ws();
                    if self.i >= self.b.len() {
                        return self.err("unexpected end in array");
                    }
                    match self.b[self.i] {
                        b',' => {
                            self.i += 1;
                            if crate::switch_on("s3") {
                                self.ws();
                                if self.i < self.b.len() && self.b[self.i] == b']' {
                                    self.i += 1;
                                    return Ok(V::Arr(a));
                                }
                            }
                        }
                        b']' => {
                            self.i += 1;
                            return Ok(V::Arr(a));
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            b'"' => Ok(V::Str(self.string()?)),
            b't' => self.lit("true", V::Bool(true)),
            b'f' => self.lit("false", V::Bool(false)),
            b'n' => self.lit("null", V::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.err("invalid character looking for beginning of value"),
        }
    }
    fn lit(&mut self, s: &str, v: V) -> Result<V, String> {
        if self.b[self.i..].starts_with(s.as_bytes()) {
            self.i += s.len();
            Ok(v)
        } else {
            self.err("invalid literal")
        }
    }
    fn number(&mut self) -> Result<V, String> {
        let st = self.i;
        let b = self.b;
        if b[self.i] == b'-' {
            self.i += 1;
        }
        if self.i >= b.len() {
            return self.err("bad number");
        }
        if b[self.i] == b'0' {
            self.i += 1;
        } else if b[self.i].is_ascii_digit() {
            while self.i < b.len() && b[self.i].is_ascii_digit() {
                self.i += 1;
            }
        } else {
            return self.err("bad number");
        }
        if self.i < b.len() && b[self.i] == b'.' {
            self.i += 1;
            let s2 = self.i;
            while self.i < b.len() && b[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == s2 {
                return self.err("bad fraction");
            }
        }
        if self.i < b.len() && (b[self.i] == b'e' || b[self.i] == b'E') {
            self.i += 1;
            if self.i < b.len() && (b[self.i] == b'+' || b[self.i] == b'-') {
                self.i += 1;
            }
            let s2 = self.i;
            while self.i < b.len() && b[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == s2 {
                return self.err("bad exponent");
            }
        }
        Ok(V::Num(String::from_utf8_lossy(&b[st..self.i]).into_owned()))
    }
    fn hex4(&mut self) -> Result<u32, String> {
        if self.i + 4 > self.b.len() {
            return self.err("bad \\u escape");
        }
        let mut v = 0u32;
        for k in 0..4 {
            let c = self.b[self.i + k];
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return self.err("bad \\u escape"),
            };
            v = v * 16 + d as u32;
        }
        self.i += 4;
        Ok(v)
    }
    pub fn string(&mut self) -> Result<JStr, String> {
        self.i += 1; // opening quote
        let st = self.i;
        let mut cps = Vec::new();
        loop {
            if self.i >= self.b.len() {
                return self.err("unterminated string");
            }
            let c = self.b[self.i];
            if c == b'"' {
                let raw = String::from_utf8_lossy(&self.b[st..self.i]).into_owned();
                self.i += 1;
                return Ok(JStr { raw: Some(raw), cps });
            }
            if c < 0x20 {
                return self.err("control character in string");
            }
            if c == b'\\' {
                self.i += 1;
                if self.i >= self.b.len() {
                    return self.err("unterminated string");
                }
                let e = self.b[self.i];
                self.i += 1;
                let v = match e {
                    b'"' => 0x22,
                    b'\\' => 0x5c,
                    b'/' => 0x2f,
                    b'b' => 8,
                    b'f' => 12,
                    b'n' => 10,
                    b'r' => 13,
                    b't' => 9,
                    b'u' => {
                        let h = self.hex4()?;
                        if (0xD800..0xDC00).contains(&h)
                            && self.i + 6 <= self.b.len()
                            && self.b[self.i] == b'\\'
                            && self.b[self.i + 1] == b'u'
                        {
                            let save = self.i;
                            self.i += 2;
                            let l = self.hex4()?;
                            if (0xDC00..0xE000).contains(&l) {
                                0x10000 + ((h - 0xD800) << 10) + (l - 0xDC00)
                            } else {
                                self.i = save;
                                h
                            }
                        } else {
                            h
                        }
                    }
                    _ => return self.err("invalid escape"),
                };
                cps.push(v);
                continue;
            }
            // UTF-8 sequence
            let (cp, n) = match decode_utf8(&self.b[self.i..]) {
                Some(x) => x,
                None => return self.err("invalid UTF-8"),
            };
            cps.push(cp);
            self.i += n;
        }
    }
}

pub fn decode_utf8(b: &[u8]) -> Option<(u32, usize)> {
    let c = b[0];
    if c < 0x80 {
        return Some((c as u32, 1));
    }
    let (n, min, init) = if c & 0xE0 == 0xC0 {
        (2, 0x80, (c & 0x1F) as u32)
    } else if c & 0xF0 == 0xE0 {
        (3, 0x800, (c & 0x0F) as u32)
    } else if c & 0xF8 == 0xF0 {
        (4, 0x10000, (c & 0x07) as u32)
    } else {
        return None;
    };
    if b.len() < n {
        return None;
    }
    let mut v = init;
    for k in 1..n {
        if b[k] & 0xC0 != 0x80 {
            return None;
        }
        v = (v << 6) | (b[k] & 0x3F) as u32;
    }
    if v < min || v > 0x10FFFF || (0xD800..0xE000).contains(&v) {
        return None;
    }
    Some((v, n))
}

pub fn write_cps(out: &mut String, cps: &[u32]) {
    out.push('"');
    for &c in cps {
        match c {
            0x22 => out.push_str("\\\""),
            0x5c => out.push_str("\\\\"),
            0x0A => out.push_str("\\n"),
            0x0D => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0C => out.push_str("\\f"),
            c if c < 0x20 || (0xD800..0xE000).contains(&c) => {
                out.push_str(&format!("\\u{:04x}", c));
            }
            c => out.push(char::from_u32(c).unwrap_or('\u{FFFD}')),
        }
    }
    out.push('"');
}

pub fn write_str(out: &mut String, s: &JStr) {
    match &s.raw {
        Some(r) => {
            out.push('"');
            out.push_str(r);
            out.push('"');
        }
        None => write_cps(out, &s.cps),
    }
}

pub fn write(out: &mut String, v: &V) {
    match v {
        V::Null => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Num(n) => out.push_str(n),
        V::Str(s) => write_str(out, s),
        V::Arr(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, x);
            }
            out.push(']');
        }
        V::Obj(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write(out, x);
            }
            out.push('}');
        }
    }
}

#[allow(dead_code)]
pub fn depth_of(v: &V) -> usize {
    match v {
        V::Arr(a) => 1 + a.iter().map(depth_of).max().unwrap_or(0),
        V::Obj(m) => 1 + m.iter().map(|(_, x)| depth_of(x)).max().unwrap_or(0),
        _ => 0,
    }
}
