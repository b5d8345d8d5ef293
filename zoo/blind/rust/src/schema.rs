// Reading a JSON Schema for what it declares at each position.
use crate::json::*;
use crate::regex::{self, Budget, Regex};
use crate::uri;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

pub enum A {
    Other,
    Bool(bool),
    Str(String),
    Arr(Vec<usize>),
    Obj(Vec<(String, usize)>),
}

pub struct Res {
    pub root: usize,
    pub base: String,
    pub draft: u16,
    pub anchors: HashMap<String, usize>,
    pub dyn_anchors: Vec<(String, usize)>,
    pub rec_anchor: bool,
}

#[derive(Default)]
pub struct Info {
    pub boolean: Option<bool>,
    pub types: Option<u8>,
    pub props: Vec<(Vec<u32>, usize)>,
    pub pats: Vec<(usize, usize)>, // regex index, node
    pub addl: Option<usize>,
    pub items: Option<usize>,
    pub items_list: Option<Vec<usize>>,
    pub prefix: Option<Vec<usize>>,
    pub addl_items: Option<usize>,
    pub all_of: Vec<usize>,
    pub any_of: Option<Vec<usize>>,
    pub one_of: Option<Vec<usize>>,
    pub ref_: Option<usize>,
    pub ref_only: bool,
    pub dyn_ref: Option<(usize, Option<String>)>,
    pub rec_ref: Option<(usize, bool)>,
}

pub type State = (usize, usize);

#[derive(Clone)]
pub enum Desc {
    Nothing,
    Leaf(State),
    Conj(Vec<Desc>),
    Disj(Vec<Desc>),
}

pub struct Schema {
    pub nodes: Vec<A>,
    pub keycps: HashMap<(usize, usize), Vec<u32>>, // (obj node, member index) -> key code points
    pub res: Vec<Res>,
    pub ctx: HashMap<usize, usize>, // node -> resource index
    pub uris: HashMap<String, usize>, // uri -> resource index
    pub infos: HashMap<usize, Info>,
    pub regexes: Vec<Regex>,
    pub bindings: Vec<Vec<(String, usize)>>,
    pub bind_ix: HashMap<Vec<(String, usize)>, usize>,
    pub cyc: HashMap<State, bool>,
    pub tmemo: HashMap<State, Option<u8>>,
    pub budget: Budget,
    pub default_draft: u16,
}

fn sw(n: &str) -> bool {
    crate::switch_on(n)
}

pub fn draft_of(s: &str) -> Option<u16> {
    let t = s.trim_end_matches('#');
    let t = t.strip_prefix("http://").or_else(|| t.strip_prefix("https://"))?;
    match t {
        "json-schema.org/draft-04/schema" => Some(4),
        "json-schema.org/draft-06/schema" => Some(6),
        "json-schema.org/draft-07/schema" => Some(7),
        "json-schema.org/draft/2019-09/schema" => Some(19),
        "json-schema.org/draft/2020-12/schema" => Some(20),
        _ => None,
    }
}

const SUB_ONE: &[&str] = &[
    "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames",
    "unevaluatedProperties", "unevaluatedItems", "items",
];
const SUB_MAP: &[&str] = &["$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"];
const SUB_LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

fn tbit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => T_NULL,
        "boolean" => T_BOOL,
        "object" => T_OBJ,
        "array" => T_ARR,
        "number" => T_NUM | T_INT,
        "string" => T_STR,
        "integer" => T_INT,
        _ => return None,
    })
}

impl Schema {
    fn add(&mut self, v: &V, depth: usize) -> Result<usize, String> {
        if depth > 10000 {
            return Err("invalid schema: nested too deep".into());
        }
        let id = self.nodes.len();
        self.nodes.push(A::Other);
        let a = match v {
            V::Bool(b) => A::Bool(*b),
            V::Str(s) => A::Str(s.to_string_lossy()),
            V::Arr(xs) => {
                let mut ids = Vec::new();
                for x in xs {
                    ids.push(self.add(x, depth + 1)?);
                }
                A::Arr(ids)
            }
            V::Obj(m) => {
                let mut seen: HashSet<Vec<u32>> = HashSet::new();
                let mut mem = Vec::new();
                for (i, (k, x)) in m.iter().enumerate() {
                    if !seen.insert(k.cps.clone()) {
                        return Err(format!("invalid schema: duplicate key {:?}", k.to_string_lossy()));
                    }
                    let cid = self.add(x, depth + 1)?;
                    self.keycps.insert((id, i), k.cps.clone());
                    mem.push((k.to_string_lossy(), cid));
                }
                A::Obj(mem)
            }
            _ => A::Other,
        };
        self.nodes[id] = a;
        Ok(id)
    }

    pub fn get(&self, n: usize, key: &str) -> Option<usize> {
        if let A::Obj(m) = &self.nodes[n] {
            for (k, c) in m {
                if k == key {
                    return Some(*c);
                }
            }
        }
        None
    }
    fn get_str(&self, n: usize, key: &str) -> Option<String> {
        match self.get(n, key).map(|c| &self.nodes[c]) {
            Some(A::Str(s)) => Some(s.clone()),
            _ => None,
        }
    }

    pub fn new(v: &V, default_draft: u16) -> Result<Schema, String> {
        let mut s = Schema {
            nodes: Vec::new(),
            keycps: HashMap::new(),
            res: Vec::new(),
            ctx: HashMap::new(),
            uris: HashMap::new(),
            infos: HashMap::new(),
            regexes: Vec::new(),
            bindings: vec![Vec::new()],
            bind_ix: HashMap::new(),
            cyc: HashMap::new(),
            tmemo: HashMap::new(),
            budget: Budget { steps: Cell::new(0), exceeded: Cell::new(false) },
            default_draft,
        };
        s.bind_ix.insert(Vec::new(), 0);
        let root = s.add(v, 0)?;
        s.index(root, None, default_draft, "");
        let mut seen = HashSet::new();
        s.validate(root, &mut seen)?;
        Ok(s)
    }

    fn index(&mut self, n: usize, parent: Option<usize>, draft: u16, base: &str) {
        if !matches!(self.nodes[n], A::Obj(_)) {
            if let Some(p) = parent {
                self.ctx.entry(n).or_insert(p);
            } else {
                self.new_res(n, base.to_string(), draft);
            }
            return;
        }
        let mut d = draft;
        if let Some(sc) = self.get_str(n, "$schema") {
            if let Some(dd) = draft_of(&sc) {
                let idk = if dd == 4 { "id" } else { "$id" };
                if parent.is_none() || self.get_str(n, idk).is_some() {
                    d = dd;
                }
            }
        }
        let idk = if d == 4 { "id" } else { "$id" };
        let mut id = self.get_str(n, idk);
        if d <= 7 && self.get(n, "$ref").is_some() {
            id = None;
        }
        let mut anchor_from_id: Option<String> = None;
        let mut new_base: Option<String> = None;
        if let Some(idv) = &id {
            if d <= 7 && idv.starts_with('#') {
                anchor_from_id = Some(idv[1..].to_string());
            } else if idv.starts_with('#') {
                // not an identifier in 2019-09 on
            } else {
                let full = uri::resolve(base, idv);
                let (doc, frag) = uri::split(&full);
                new_base = Some(doc);
                if d <= 7 {
                    if let Some(f) = frag {
                        if !f.is_empty() {
                            anchor_from_id = Some(f);
                        }
                    }
                }
            }
        }
        let r = if parent.is_none() || new_base.is_some() {
            let b = new_base.unwrap_or_else(|| base.to_string());
            self.new_res(n, b, d)
        } else {
            let p = parent.unwrap();
            self.ctx.insert(n, p);
            p
        };
        let d = self.res[r].draft;
        let rbase = self.res[r].base.clone();
        if let Some(a) = anchor_from_id {
            self.res[r].anchors.entry(a).or_insert(n);
        }
        if d >= 19 {
            if let Some(a) = self.get_str(n, "$anchor") {
                self.res[r].anchors.entry(a).or_insert(n);
            }
        }
        if d >= 20 {
            if let Some(a) = self.get_str(n, "$dynamicAnchor") {
                self.res[r].anchors.entry(a.clone()).or_insert(n);
                self.res[r].dyn_anchors.push((a, n));
            }
        }
        if d == 19 && self.res[r].root == n {
            if let Some(c) = self.get(n, "$recursiveAnchor") {
                if matches!(self.nodes[c], A::Bool(true)) {
                    self.res[r].rec_anchor = true;
                }
            }
        }
        let members: Vec<(String, usize)> = match &self.nodes[n] {
            A::Obj(m) => m.clone(),
            _ => vec![],
        };
        for (k, c) in members {
            let k = k.as_str();
            if SUB_MAP.contains(&k) {
                if let A::Obj(m) = &self.nodes[c] {
                    let m = m.clone();
                    for (_, cc) in m {
                        if matches!(self.nodes[cc], A::Obj(_) | A::Bool(_)) {
                            self.index(cc, Some(r), d, &rbase);
                        }
                    }
                }
            }
            if SUB_LIST.contains(&k) {
                if let A::Arr(a) = &self.nodes[c] {
                    let a = a.clone();
                    for cc in a {
                        self.index(cc, Some(r), d, &rbase);
                    }
                }
            }
            if SUB_ONE.contains(&k) && matches!(self.nodes[c], A::Obj(_) | A::Bool(_)) {
                self.index(c, Some(r), d, &rbase);
            }
        }
    }

    fn new_res(&mut self, n: usize, base: String, draft: u16) -> usize {
        let r = self.res.len();
        self.res.push(Res { root: n, base: base.clone(), draft, anchors: HashMap::new(), dyn_anchors: Vec::new(), rec_anchor: false });
        self.uris.entry(base).or_insert(r);
        self.ctx.insert(n, r);
        r
    }

    pub fn draft(&self, n: usize) -> u16 {
        self.ctx.get(&n).map(|r| self.res[*r].draft).unwrap_or(self.default_draft)
    }

    fn resolve(&mut self, from: usize, r: &str) -> Result<usize, String> {
        let res = *self.ctx.get(&from).unwrap_or(&0);
        let base = self.res[res].base.clone();
        let full = uri::resolve(&base, r);
        let (doc, frag) = uri::split(&full);
        let tr = match self.uris.get(&doc) {
            Some(t) => *t,
            None => return Err(format!("invalid schema: $ref {:?} does not resolve: no document {:?}", r, doc)),
        };
        let root = self.res[tr].root;
        let frag = frag.unwrap_or_default();
        if frag.is_empty() {
            return Ok(root);
        }
        if frag.starts_with('/') {
            let dec = uri::percent_decode(&frag);
            let mut cur = root;
            for tok in dec.split('/').skip(1) {
                let tok = if sw("s1") {
                    tok.replace("~0", "~").replace("~1", "/")
                } else {
                    tok.replace("~1", "/").replace("~0", "~")
                };
                cur = match &self.nodes[cur] {
                    A::Obj(m) => match m.iter().find(|(k, _)| *k == tok) {
                        Some((_, c)) => *c,
                        None => return Err(format!("invalid schema: $ref {:?} does not resolve: no member {:?}", r, tok)),
                    },
                    A::Arr(a) => {
                        let ok = !tok.is_empty() && tok.chars().all(|c| c.is_ascii_digit()) && (tok == "0" || !tok.starts_with('0'));
                        match (ok, tok.parse::<usize>().ok()) {
                            (true, Some(i)) if i < a.len() => a[i],
                            _ => return Err(format!("invalid schema: $ref {:?} does not resolve", r)),
                        }
                    }
                    _ => return Err(format!("invalid schema: $ref {:?} does not resolve", r)),
                };
            }
            if !self.ctx.contains_key(&cur) {
                self.ctx.insert(cur, tr);
            }
            return Ok(cur);
        }
        let name = uri::percent_decode(&frag);
        match self.res[tr].anchors.get(&name) {
            Some(n) => Ok(*n),
            None => Err(format!("invalid schema: $ref {:?} does not resolve: no anchor {:?}", r, name)),
        }
    }

    fn subschema(&self, c: usize) -> Result<usize, String> {
        match self.nodes[c] {
            A::Obj(_) | A::Bool(_) => {
                Ok(c)
            }
            _ => Err("invalid schema: a subschema is not an object or a boolean".into()),
        }
    }

    fn ensure_ctx(&mut self, parent: usize, c: usize) {
        if !self.ctx.contains_key(&c) {
            let r = *self.ctx.get(&parent).unwrap_or(&0);
            self.ctx.insert(c, r);
        }
    }

    fn list(&mut self, n: usize, c: usize, nonempty: bool) -> Result<Vec<usize>, String> {
        match &self.nodes[c] {
            A::Arr(a) => {
                let a = a.clone();
                if nonempty && a.is_empty() {
                    return Err("invalid schema: empty allOf/anyOf/oneOf".into());
                }
                let mut out = Vec::new();
                for x in a {
                    out.push(self.subschema(x)?);
                    self.ensure_ctx(n, x);
                }
                Ok(out)
            }
            _ => Err("invalid schema: keyword is not an array".into()),
        }
    }

    pub fn compile(&mut self, n: usize) -> Result<(), String> {
        if self.infos.contains_key(&n) {
            return Ok(());
        }
        let mut info = Info::default();
        let members = match &self.nodes[n] {
            A::Bool(b) => {
                info.boolean = Some(*b);
                self.infos.insert(n, info);
                return Ok(());
            }
            A::Obj(m) => m.clone(),
            _ => return Err("invalid schema: a subschema is not an object or a boolean".into()),
        };
        let d = self.draft(n);
        let mut has_type = false;
        for (k, c) in members.iter() {
            let c = *c;
            match k.as_str() {
                "type" => {
                    has_type = true;
                    let t = match &self.nodes[c] {
                        A::Str(s) => tbit(s).ok_or_else(|| format!("invalid schema: unknown type {:?}", s))?,
                        A::Arr(a) => {
                            let mut t = 0u8;
                            for x in a {
                                match &self.nodes[*x] {
                                    A::Str(s) => t |= tbit(s).ok_or_else(|| format!("invalid schema: unknown type {:?}", s))?,
                                    _ => return Err("invalid schema: type entry is not a string".into()),
                                }
                            }
                            t
                        }
                        _ => return Err("invalid schema: type is not a string or array".into()),
                    };
                    info.types = Some(info.types.unwrap_or(0) | t);
                }
                "properties" => match &self.nodes[c] {
                    A::Obj(m) => {
                        let m = m.clone();
                        for (i, (_, x)) in m.iter().enumerate() {
                            self.subschema(*x)?;
                            self.ensure_ctx(n, *x);
                            let kc = self.keycps.get(&(c, i)).cloned().unwrap_or_default();
                            info.props.push((kc, *x));
                        }
                    }
                    _ => return Err("invalid schema: properties is not an object".into()),
                },
                "patternProperties" => match &self.nodes[c] {
                    A::Obj(m) => {
                        let m = m.clone();
                        for (p, x) in m {
                            let re = regex::compile(&p).map_err(|e| format!("invalid schema: pattern {:?}: {}", p, e))?;
                            self.subschema(x)?;
                            self.ensure_ctx(n, x);
                            self.regexes.push(re);
                            info.pats.push((self.regexes.len() - 1, x));
                        }
                    }
                    _ => return Err("invalid schema: patternProperties is not an object".into()),
                },
                "additionalProperties" => {
                    info.addl = Some(self.subschema(c)?);
                    self.ensure_ctx(n, c);
                }
                "items" => match &self.nodes[c] {
                    A::Arr(_) => info.items_list = Some(self.list(n, c, false)?),
                    _ => {
                        info.items = Some(self.subschema(c)?);
                        self.ensure_ctx(n, c);
                    }
                },
                "prefixItems" => info.prefix = Some(self.list(n, c, false)?),
                "additionalItems" => {
                    info.addl_items = Some(self.subschema(c)?);
                    self.ensure_ctx(n, c);
                }
                "allOf" => info.all_of = self.list(n, c, true)?,
                "anyOf" => info.any_of = Some(self.list(n, c, true)?),
                "oneOf" => info.one_of = Some(self.list(n, c, true)?),
                "$ref" => match &self.nodes[c] {
                    A::Str(s) => {
                        let s = s.clone();
                        info.ref_ = Some(self.resolve(n, &s)?);
                        info.ref_only = if sw("s4") { d < 7 } else { d <= 7 };
                    }
                    _ => return Err("invalid schema: $ref is not a string".into()),
                },
                "$dynamicRef" if d >= 20 => match &self.nodes[c] {
                    A::Str(s) => {
                        let s = s.clone();
                        let t = self.resolve(n, &s)?;
                        let (_, frag) = uri::split(&s);
                        let mut dynname = None;
                        if let Some(f) = frag {
                            if !f.is_empty() && !f.starts_with('/') && self.get_str(t, "$dynamicAnchor").as_deref() == Some(f.as_str()) {
                                dynname = Some(f);
                            }
                        }
                        info.dyn_ref = Some((t, dynname));
                    }
                    _ => return Err("invalid schema: $dynamicRef is not a string".into()),
                },
                "$recursiveRef" if d == 19 => match &self.nodes[c] {
                    A::Str(s) => {
                        let s = s.clone();
                        let t = self.resolve(n, &s)?;
                        let rec = matches!(self.get(t, "$recursiveAnchor").map(|x| &self.nodes[x]), Some(A::Bool(true)));
                        info.rec_ref = Some((t, rec));
                    }
                    _ => return Err("invalid schema: $recursiveRef is not a string".into()),
                },
                _ => {}
            }
        }
        if has_type {
            if let Some(c) = self.get(n, "nullable") {
                match self.nodes[c] {
                    A::Bool(true) => info.types = info.types.map(|t| t | T_NULL),
                    A::Bool(false) => {}
                    _ => return Err("invalid schema: nullable is not a boolean".into()),
                }
            }
        }
        self.infos.insert(n, info);
        Ok(())
    }

    fn validate(&mut self, n: usize, seen: &mut HashSet<usize>) -> Result<(), String> {
        if !seen.insert(n) {
            return Ok(());
        }
        self.compile(n)?;
        let mut kids: Vec<usize> = Vec::new();
        {
            let info = &self.infos[&n];
            kids.extend(info.props.iter().map(|x| x.1));
            kids.extend(info.pats.iter().map(|x| x.1));
            kids.extend(info.addl);
            kids.extend(info.items);
            kids.extend(info.items_list.iter().flatten());
            kids.extend(info.prefix.iter().flatten());
            kids.extend(info.addl_items);
            kids.extend(info.all_of.iter());
            kids.extend(info.any_of.iter().flatten());
            kids.extend(info.one_of.iter().flatten());
            kids.extend(info.ref_);
            kids.extend(info.dyn_ref.as_ref().map(|x| x.0));
            kids.extend(info.rec_ref.as_ref().map(|x| x.0));
        }
        for key in ["$defs", "definitions"] {
            if let Some(c) = self.get(n, key) {
                match &self.nodes[c] {
                    A::Obj(m) => {
                        for (_, x) in m.clone() {
                            self.subschema(x)?;
                            self.ensure_ctx(n, x);
                            kids.push(x);
                        }
                    }
                    _ => return Err(format!("invalid schema: {} must be an object", key)),
                }
            }
        }
        for k in kids {
            self.validate(k, seen)?;
        }
        Ok(())
    }

    // ---- dynamic scope ----
    fn intern(&mut self, b: Vec<(String, usize)>) -> usize {
        if let Some(i) = self.bind_ix.get(&b) {
            return *i;
        }
        let i = self.bindings.len();
        self.bindings.push(b.clone());
        self.bind_ix.insert(b, i);
        i
    }
    pub fn enter(&mut self, bid: usize, node: usize) -> State {
        let r = *self.ctx.get(&node).unwrap_or(&0);
        let res = &self.res[r];
        let mut b = self.bindings[bid].clone();
        let mut changed = false;
        for (name, an) in &res.dyn_anchors {
            if !b.iter().any(|(k, _)| k == name) {
                b.push((name.clone(), *an));
                changed = true;
            }
        }
        if res.rec_anchor && !b.iter().any(|(k, _)| k == "\0rec") {
            b.push(("\0rec".into(), res.root));
            changed = true;
        }
        if !changed {
            return (node, bid);
        }
        b.sort();
        (node, self.intern(b))
    }
    fn lookup(&self, bid: usize, name: &str) -> Option<usize> {
        self.bindings[bid].iter().find(|(k, _)| k == name).map(|x| x.1)
    }

    fn ref_targets(&mut self, st: State) -> Vec<State> {
        let (n, bid) = st;
        let info = &self.infos[&n];
        let mut t = Vec::new();
        if let Some(r) = info.ref_ {
            t.push(r);
        }
        if let Some((r, name)) = &info.dyn_ref {
            let target = match name {
                Some(nm) => self.lookup(bid, nm).unwrap_or(*r),
                None => *r,
            };
            t.push(target);
        }
        if let Some((r, rec)) = info.rec_ref {
            let target = if rec { self.lookup(bid, "\0rec").unwrap_or(r) } else { r };
            t.push(target);
        }
        t.into_iter().map(|x| self.enter(bid, x)).collect()
    }

    fn inplace(&mut self, st: State) -> Result<Vec<State>, String> {
        self.compile(st.0)?;
        let info = &self.infos[&st.0];
        if info.boolean.is_some() {
            return Ok(vec![]);
        }
        if info.ref_only {
            return Ok(self.ref_targets(st));
        }
        let mut br: Vec<usize> = info.all_of.clone();
        br.extend(info.any_of.iter().flatten());
        br.extend(info.one_of.iter().flatten());
        let mut out: Vec<State> = br.into_iter().map(|x| self.enter(st.1, x)).collect();
        out.extend(self.ref_targets(st));
        Ok(out)
    }

    pub fn on_cycle(&mut self, st: State) -> Result<bool, String> {
        if let Some(b) = self.cyc.get(&st) {
            return Ok(*b);
        }
        let mut seen: HashSet<State> = HashSet::new();
        let mut stack = self.inplace(st)?;
        let mut found = false;
        while let Some(x) = stack.pop() {
            if x == st {
                found = true;
                break;
            }
            if !seen.insert(x) {
                continue;
            }
            stack.extend(self.inplace(x)?);
        }
        self.cyc.insert(st, found);
        Ok(found)
    }

    pub fn leaf_types(&mut self, st: State) -> Result<Option<u8>, String> {
        if let Some(t) = self.tmemo.get(&st) {
            return Ok(*t);
        }
        self.compile(st.0)?;
        let r = self.leaf_types_inner(st)?;
        self.tmemo.insert(st, r);
        Ok(r)
    }

    fn leaf_types_inner(&mut self, st: State) -> Result<Option<u8>, String> {
        if let Some(b) = self.infos[&st.0].boolean {
            return Ok(if b { None } else { Some(0) });
        }
        if self.on_cycle(st)? {
            return Ok(None);
        }
        let mut acc: Option<u8> = None;
        if self.infos[&st.0].ref_only {
            for t in self.ref_targets(st) {
                acc = inter(acc, self.leaf_types(t)?);
            }
            return Ok(acc);
        }
        acc = inter(acc, self.infos[&st.0].types);
        let all: Vec<usize> = self.infos[&st.0].all_of.clone();
        for b in all {
            let s2 = self.enter(st.1, b);
            acc = inter(acc, self.leaf_types(s2)?);
        }
        for which in 0..2 {
            let br = if which == 0 { self.infos[&st.0].any_of.clone() } else { self.infos[&st.0].one_of.clone() };
            if let Some(br) = br {
                let mut u: Option<u8> = Some(0);
                for b in br {
                    let s2 = self.enter(st.1, b);
                    let t = self.leaf_types(s2)?;
                    u = match (u, t) {
                        (Some(a), Some(b)) => Some(a | b),
                        _ => None,
                    };
                }
                acc = inter(acc, u);
            }
        }
        for t in self.ref_targets(st) {
            acc = inter(acc, self.leaf_types(t)?);
        }
        Ok(acc)
    }

    pub fn types(&mut self, d: &Desc) -> Result<Option<u8>, String> {
        Ok(match d {
            Desc::Nothing => None,
            Desc::Leaf(st) => self.leaf_types(*st)?,
            Desc::Conj(v) => {
                let mut acc = None;
                for x in v {
                    acc = inter(acc, self.types(x)?);
                }
                acc
            }
            Desc::Disj(v) => {
                if v.is_empty() {
                    return Ok(None);
                }
                let mut u = Some(0u8);
                for x in v {
                    u = match (u, self.types(x)?) {
                        (Some(a), Some(b)) => Some(a | b),
                        _ => None,
                    };
                }
                u
            }
        })
    }

    fn admits(&mut self, d: &Desc, kind: u8) -> Result<bool, String> {
        Ok(match self.types(d)? {
            None => true,
            Some(t) => t & kind != 0,
        })
    }

    /// What applies to a member (key Some) or an item (index) of a value of `kind` at `d`.
    pub fn child(&mut self, d: &Desc, kind: u8, key: Option<&[u32]>, index: usize) -> Result<Desc, String> {
        Ok(match d {
            Desc::Nothing => Desc::Nothing,
            Desc::Leaf(st) => self.leaf_child(*st, kind, key, index)?,
            Desc::Conj(v) => {
                let mut out = Vec::new();
                for x in v {
                    out.push(self.child(x, kind, key, index)?);
                }
                conj(out)
            }
            Desc::Disj(v) => {
                let mut out = Vec::new();
                for x in v {
                    if self.admits(x, kind)? {
                        out.push(self.child(x, kind, key, index)?);
                    }
                }
                disj(out)
            }
        })
    }

    fn leaf_child(&mut self, st: State, kind: u8, key: Option<&[u32]>, index: usize) -> Result<Desc, String> {
        self.compile(st.0)?;
        if self.infos[&st.0].boolean.is_some() || self.on_cycle(st)? {
            return Ok(Desc::Nothing);
        }
        let mut parts = Vec::new();
        if self.infos[&st.0].ref_only {
            for t in self.ref_targets(st) {
                parts.push(self.leaf_child(t, kind, key, index)?);
            }
            return Ok(conj(parts));
        }
        let mut direct: Vec<usize> = Vec::new();
        if kind == T_OBJ {
            if let Some(k) = key {
                let info = &self.infos[&st.0];
                let mut matched = false;
                for (pk, x) in &info.props {
                    if pk.as_slice() == k {
                        direct.push(*x);
                        matched = true;
                    }
                }
                let pats = info.pats.clone();
                let addl = info.addl;
                for (ri, x) in pats {
                    if self.regexes[ri].is_match(k, &self.budget)? {
                        direct.push(x);
                        if !sw("s5") {
                            matched = true;
                        }
                    }
                }
                if !matched {
                    direct.extend(addl);
                }
            }
        } else if kind == T_ARR {
            let info = &self.infos[&st.0];
            if let Some(p) = &info.prefix {
                if index < p.len() {
                    direct.push(p[index]);
                } else if let Some(it) = info.items {
                    direct.push(it);
                }
            } else if let Some(l) = &info.items_list {
                if index < l.len() {
                    direct.push(l[index]);
                } else if let Some(a) = info.addl_items {
                    direct.push(a);
                }
            } else if let Some(it) = info.items {
                direct.push(it);
            }
        }
        for x in direct {
            let s2 = self.enter(st.1, x);
            parts.push(Desc::Leaf(s2));
        }
        let all = self.infos[&st.0].all_of.clone();
        for b in all {
            let s2 = self.enter(st.1, b);
            parts.push(self.leaf_child(s2, kind, key, index)?);
        }
        for t in self.ref_targets(st) {
            parts.push(self.leaf_child(t, kind, key, index)?);
        }
        for which in 0..2 {
            let br = if which == 0 { self.infos[&st.0].any_of.clone() } else { self.infos[&st.0].one_of.clone() };
            if let Some(br) = br {
                let mut alts = Vec::new();
                for b in br {
                    let s2 = self.enter(st.1, b);
                    let ad = match self.leaf_types(s2)? {
                        None => true,
                        Some(t) => t & kind != 0,
                    };
                    if ad {
                        alts.push(self.leaf_child(s2, kind, key, index)?);
                    }
                }
                if !alts.is_empty() {
                    parts.push(disj(alts));
                }
            }
        }
        let _ = sw;
        Ok(conj(parts))
    }
}

fn conj(v: Vec<Desc>) -> Desc {
    let v: Vec<Desc> = v.into_iter().filter(|x| !matches!(x, Desc::Nothing)).collect();
    if v.is_empty() {
        return Desc::Nothing;
    }
    Desc::Conj(v)
}

fn disj(v: Vec<Desc>) -> Desc {
    if v.is_empty() {
        return Desc::Nothing;
    }
    if v.iter().any(|x| matches!(x, Desc::Nothing)) {
        return Desc::Nothing;
    }
    Desc::Disj(v)
}

pub fn inter(a: Option<u8>, b: Option<u8>) -> Option<u8> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(a & b),
    }
}
