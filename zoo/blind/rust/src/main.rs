mod decode;
mod entities;
mod json;
mod regex;
mod schema;
mod unicode_gc;
mod uri;

use json::*;
use schema::{Desc, Schema};
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::OnceLock;

pub fn switch_on(name: &str) -> bool {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    S.get_or_init(|| {
        std::env::var("BLIND_SWITCHES")
            .unwrap_or_default()
            .split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    })
    .iter()
    .any(|x| x == name)
}

const MAX_DEPTH: usize = 1000;

struct Norm {
    s: Schema,
}

fn shape_ok(t: Option<u8>) -> Option<u8> {
    let t = t?;
    if t & T_STR != 0 {
        return None;
    }
    if t & (T_ARR | T_OBJ) == 0 {
        return None;
    }
    Some(t)
}

impl Norm {
    fn try_json(&self, cps: &[u32], t: Option<u8>) -> Option<V> {
        let t = shape_ok(t)?;
        let mut text = String::with_capacity(cps.len());
        for &c in cps {
            text.push(char::from_u32(c)?); // a lone surrogate is no text
        }
        let v = Parser::new(text.as_bytes(), usize::MAX).parse_all().ok()?;
        match &v {
            V::Arr(_) if t & T_ARR != 0 => Some(v),
            V::Obj(_) if t & T_OBJ != 0 => Some(v),
            _ => None,
        }
    }

    fn norm(&mut self, v: V, d: &Desc, level: usize) -> Result<V, String> {
        match v {
            V::Str(s) => {
                let t = self.s.types(d)?;
                if let Some(p) = self.try_json(&s.cps, t) {
                    return self.norm(p, d, level);
                }
                match decode::fixpoint(&s.cps) {
                    None => Ok(V::Str(s)),
                    Some(dec) => {
                        if let Some(p) = self.try_json(&dec, t) {
                            return self.norm(p, d, level);
                        }
                        Ok(V::Str(JStr::from_cps(dec)))
                    }
                }
            }
            V::Arr(a) => {
                if level > MAX_DEPTH {
                    return Err(format!("nesting deeper than {} levels", MAX_DEPTH));
                }
                let mut out = Vec::with_capacity(a.len());
                for (i, x) in a.into_iter().enumerate() {
                    let cd = if matches!(x, V::Null | V::Bool(_) | V::Num(_)) { Desc::Nothing } else { self.s.child(d, T_ARR, None, i)? };
                    out.push(self.norm(x, &cd, level + 1)?);
                }
                Ok(V::Arr(out))
            }
            V::Obj(m) => {
                if level > MAX_DEPTH {
                    return Err(format!("nesting deeper than {} levels", MAX_DEPTH));
                }
                let mut out = Vec::with_capacity(m.len());
                for (k, x) in m.into_iter() {
                    let cd = if matches!(x, V::Null | V::Bool(_) | V::Num(_)) { Desc::Nothing } else { self.s.child(d, T_OBJ, Some(&k.cps), 0)? };
                    out.push((k, self.norm(x, &cd, level + 1)?));
                }
                Ok(V::Obj(out))
            }
            other => Ok(other),
        }
    }
}

pub fn normalize(schema: &V, args: V) -> Result<String, String> {
    if !matches!(args, V::Obj(_)) {
        return Err("arguments must be a JSON object".into());
    }
    let s = Schema::new(schema, 20)?;
    let mut n = Norm { s };
    let root = n.s.enter(0, 0);
    let out = n.norm(args, &Desc::Leaf(root), 1)?;
    let mut o = String::new();
    write(&mut o, &out);
    Ok(o)
}

fn esc(s: &str) -> String {
    let mut o = String::new();
    write_cps(&mut o, &s.chars().map(|c| c as u32).collect::<Vec<_>>());
    o
}

fn handle(line: &[u8]) -> Option<String> {
    let req = match Parser::new(line, usize::MAX).parse_all() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("unreadable request: {}", e);
            return None;
        }
    };
    let cmd = match req.get("cmd") {
        Some(V::Str(s)) => s.to_string_lossy(),
        _ => return None,
    };
    match cmd.as_str() {
        "start" => Some(
            "{\"version\":1,\"implementation\":{\"name\":\"blind5-rust\",\"language\":\"Rust\",\"version\":\"0.1.0\"}}".to_string(),
        ),
        "stop" => std::process::exit(0),
        "normalize" => {
            let id = match req.get("id") {
                Some(V::Num(n)) => n.clone(),
                _ => {
                    eprintln!("request without a numeric id");
                    return None;
                }
            };
            let schema = req.get("schema").cloned().unwrap_or(V::Null);
            let args = req.get("arguments").cloned().unwrap_or(V::Null);
            let r = std::panic::catch_unwind(move || normalize(&schema, args));
            Some(match r {
                Ok(Ok(out)) => format!("{{\"id\":{},\"arguments\":{}}}", id, out),
                Ok(Err(e)) => format!("{{\"id\":{},\"error\":{}}}", id, esc(&e)),
                Err(_) => format!("{{\"id\":{},\"error\":\"internal error\"}}", id),
            })
        }
        _ => None,
    }
}

fn serve() {
    let stdin = std::io::stdin();
    let mut rd = BufReader::with_capacity(1 << 16, stdin.lock());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match rd.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => break,
        }
        while line.last() == Some(&b'\n') || line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        if line.starts_with(b"{\"cmd\":\"stop\"") {
            let _ = out.flush();
        }
        if let Some(ans) = handle(&line) {
            let _ = out.write_all(ans.as_bytes());
            let _ = out.write_all(b"\n");
        }
        if rd.buffer().is_empty() {
            let _ = out.flush();
        }
    }
    let _ = out.flush();
}

fn cli(schema_file: &str, args_file: &str) -> i32 {
    let mut sb = Vec::new();
    let mut ab = Vec::new();
    std::fs::File::open(schema_file).and_then(|mut f| f.read_to_end(&mut sb)).expect("schema file");
    std::fs::File::open(args_file).and_then(|mut f| f.read_to_end(&mut ab)).expect("args file");
    let schema = match Parser::new(&sb, usize::MAX).parse_all() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("schema: {}", e);
            return 1;
        }
    };
    let args = match Parser::new(&ab, usize::MAX).parse_all() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("args: {}", e);
            return 1;
        }
    };
    match normalize(&schema, args) {
        Ok(o) => {
            println!("{}", o);
            0
        }
        Err(e) => {
            eprintln!("{}", e);
            1
        }
    }
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let argv: Vec<String> = std::env::args().collect();
    let h = std::thread::Builder::new()
        .stack_size(2048 << 20)
        .spawn(move || {
            if argv.len() == 4 && argv[1] == "normalize" {
                cli(&argv[2], &argv[3])
            } else {
                serve();
                0
            }
        })
        .unwrap();
    let code = h.join().unwrap_or(1);
    std::process::exit(code);
}
