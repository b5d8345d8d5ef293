// RFC 3986 reference resolution, enough for schema identifiers.

struct Parts {
    scheme: Option<String>,
    authority: Option<String>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

fn parse(s: &str) -> Parts {
    let mut rest = s;
    let mut fragment = None;
    if let Some(p) = rest.find('#') {
        fragment = Some(rest[p + 1..].to_string());
        rest = &rest[..p];
    }
    let mut query = None;
    if let Some(p) = rest.find('?') {
        query = Some(rest[p + 1..].to_string());
        rest = &rest[..p];
    }
    let mut scheme = None;
    if let Some(p) = rest.find(':') {
        let cand = &rest[..p];
        if !cand.is_empty()
            && cand.chars().next().unwrap().is_ascii_alphabetic()
            && cand.chars().all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '.')
        {
            scheme = Some(cand.to_string());
            rest = &rest[p + 1..];
        }
    }
    let mut authority = None;
    if let Some(r) = rest.strip_prefix("//") {
        let end = r.find('/').unwrap_or(r.len());
        authority = Some(r[..end].to_string());
        rest = &r[end..];
    }
    Parts { scheme, authority, path: rest.to_string(), query, fragment }
}

fn remove_dots(path: &str) -> String {
    let mut input = path.to_string();
    let mut out = String::new();
    while !input.is_empty() {
        if input.starts_with("../") {
            input = input[3..].to_string();
        } else if input.starts_with("./") {
            input = input[2..].to_string();
        } else if input.starts_with("/./") {
            input = input[2..].to_string();
        } else if input == "/." {
            input = "/".to_string();
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." { "/".to_string() } else { input[3..].to_string() };
            if let Some(p) = out.rfind('/') {
                out.truncate(p);
            } else {
                out.clear();
            }
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let start = if input.starts_with('/') { 1 } else { 0 };
            let end = input[start..].find('/').map(|p| p + start).unwrap_or(input.len());
            out.push_str(&input[..end]);
            input = input[end..].to_string();
        }
    }
    out
}

fn compose(p: &Parts) -> String {
    let mut s = String::new();
    if let Some(sc) = &p.scheme {
        s.push_str(sc);
        s.push(':');
    }
    if let Some(a) = &p.authority {
        s.push_str("//");
        s.push_str(a);
    }
    s.push_str(&p.path);
    if let Some(q) = &p.query {
        s.push('?');
        s.push_str(q);
    }
    if let Some(f) = &p.fragment {
        s.push('#');
        s.push_str(f);
    }
    s
}

pub fn resolve(base: &str, r: &str) -> String {
    let rp = parse(r);
    let b = parse(base);
    let t = if rp.scheme.is_some() {
        Parts { path: remove_dots(&rp.path), ..rp }
    } else if rp.authority.is_some() {
        Parts { scheme: b.scheme, path: remove_dots(&rp.path), ..rp }
    } else if rp.path.is_empty() {
        Parts {
            scheme: b.scheme,
            authority: b.authority,
            path: b.path,
            query: if rp.query.is_some() { rp.query } else { b.query },
            fragment: rp.fragment,
        }
    } else {
        let path = if rp.path.starts_with('/') {
            remove_dots(&rp.path)
        } else {
            let merged = if b.authority.is_some() && b.path.is_empty() {
                format!("/{}", rp.path)
            } else {
                match b.path.rfind('/') {
                    Some(p) => format!("{}{}", &b.path[..p + 1], rp.path),
                    None => rp.path.clone(),
                }
            };
            remove_dots(&merged)
        };
        Parts { scheme: b.scheme, authority: b.authority, path, query: rp.query, fragment: rp.fragment }
    };
    compose(&t)
}

/// Split into (document, fragment).
pub fn split(u: &str) -> (String, Option<String>) {
    match u.find('#') {
        Some(p) => (u[..p].to_string(), Some(u[p + 1..].to_string())),
        None => (u.to_string(), None),
    }
}

pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() + 0 && i + 2 <= b.len() - 1 {
            let h = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|x| u8::from_str_radix(x, 16).ok());
            if let Some(h) = h {
                out.push(h);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
