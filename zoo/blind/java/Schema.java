import java.util.*;
import java.util.regex.Pattern;

/** What a tool's JSON Schema declares at each position of the arguments. */
final class Schema {
    static final int TOP = Json.NULL | Json.BOOL | Json.OBJECT | Json.ARRAY | Json.NUMBER | Json.STRING;

    static final class Invalid extends Exception { Invalid(String m) { super("invalid schema: " + m); } }

    static final class Info {
        final String base; final int draft; final Json.V resource;
        Info(String base, int draft, Json.V resource) { this.base = base; this.draft = draft; this.resource = resource; }
    }

    final Json.V root;
    final int defaultDraft;
    final IdentityHashMap<Json.V, Info> info = new IdentityHashMap<>();
    final HashMap<String, Json.V> resources = new HashMap<>();
    final HashMap<String, Json.V> anchors = new HashMap<>();
    final IdentityHashMap<Json.V, LinkedHashMap<String, Json.V>> dynAnchors = new IdentityHashMap<>();
    final Set<Json.V> recAnchors = Collections.newSetFromMap(new IdentityHashMap<>());
    final HashMap<String, Pattern> patterns = new HashMap<>();
    final IdentityHashMap<Json.V, Integer> ids = new IdentityHashMap<>();

    static final Set<String> SINGLE = new HashSet<>(Arrays.asList("additionalProperties", "additionalItems", "items", "contains",
        "propertyNames", "not", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems", "contentSchema"));
    static final Set<String> MAPS = new HashSet<>(Arrays.asList("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"));
    static final Set<String> LISTS = new HashSet<>(Arrays.asList("allOf", "anyOf", "oneOf", "prefixItems", "items"));

    Schema(Json.V root, int defaultDraft) { this.root = root; this.defaultDraft = defaultDraft; }

    static boolean isSchema(Json.V v) {
        return v instanceof Json.Obj || (v instanceof Json.Lit && ((Json.Lit) v).kind() == Json.BOOL);
    }

    static int draftOf(Json.V v) {
        if (!(v instanceof Json.Str)) return 0;
        String s = ((Json.Str) v).val;
        if (s.endsWith("#")) s = s.substring(0, s.length() - 1);
        if (s.startsWith("http://")) s = s.substring(7);
        else if (s.startsWith("https://")) s = s.substring(8);
        else return 0;
        switch (s) {
            case "json-schema.org/draft-04/schema": return 4;
            case "json-schema.org/draft-06/schema": return 6;
            case "json-schema.org/draft-07/schema": return 7;
            case "json-schema.org/draft/2019-09/schema": return 2019;
            case "json-schema.org/draft/2020-12/schema": return 2020;
            default: return 0;
        }
    }

    /** Drafts 4 to 7 ignore the keywords beside a $ref; from 2019-09 on they apply with it. */
    static boolean siblingsIgnored(int draft) {
        return Switches.S6 ? draft < 2020 : draft <= 7; // s6: 2019-09 taken for a draft that ignores them
    }

    static String str(Json.V v) { return v instanceof Json.Str ? ((Json.Str) v).val : null; }

    // ---- compile ----

    static Schema compile(Json.V root, int defaultDraft) throws Invalid {
        if (!isSchema(root)) throw new Invalid("the schema is not an object or a boolean");
        checkText(root, 0, "");
        Schema s = new Schema(root, defaultDraft);
        int d = draftOf(root instanceof Json.Obj ? ((Json.Obj) root).get("$schema") : null);
        if (d == 0) d = defaultDraft;
        s.scan(root, "", d, root, true);
        s.validate();
        return s;
    }

    /** A key given twice anywhere, and nesting past 10,000 levels, make the schema invalid. */
    static void checkText(Json.V v, int depth, String ptr) throws Invalid {
        if (depth > 10000) throw new Invalid("nested more than 10000 levels");
        if (v instanceof Json.Obj) {
            Json.Obj o = (Json.Obj) v;
            HashSet<String> seen = new HashSet<>();
            for (int k = 0; k < o.keys.size(); k++) {
                if (!seen.add(o.keys.get(k))) throw new Invalid("duplicate key \"" + o.keys.get(k) + "\" at " + (ptr.isEmpty() ? "(root)" : ptr));
                checkText(o.vals.get(k), depth + 1, ptr + "/" + o.keys.get(k));
            }
        } else if (v instanceof Json.Arr) {
            List<Json.V> it = ((Json.Arr) v).items;
            for (int k = 0; k < it.size(); k++) checkText(it.get(k), depth + 1, ptr + "/" + k);
        }
    }

    private void scan(Json.V node, String base, int draft, Json.V resource, boolean isRoot) {
        if (!(node instanceof Json.Obj)) {
            if (isSchema(node)) info.putIfAbsent(node, new Info(base, draft, resource));
            if (isRoot) resources.put(base, node);
            return;
        }
        if (info.containsKey(node)) return;
        Json.Obj o = (Json.Obj) node;
        int d = draft;
        int named = draftOf(o.get("$schema"));
        String idKey = (named != 0 ? named : draft) == 4 ? "id" : "$id";
        String id = str(o.get(idKey));
        int dd = named != 0 ? named : draft;
        boolean refBlocks = siblingsIgnored(dd) && o.has("$ref");
        if (id != null && !refBlocks) {
            if (dd <= 7 && id.startsWith("#")) {
                anchors.put(base + "#" + id.substring(1), node);
                if (isRoot) { d = dd; resources.put(base, node); }
            } else {
                String abs = Uri.resolve(base, id);
                int h = abs.indexOf('#');
                if (h >= 0) abs = abs.substring(0, h);
                base = abs;
                resource = node;
                d = dd;
                resources.put(base, node);
                if (isRoot) resources.putIfAbsent("", node);
            }
        } else if (isRoot) {
            d = dd;
            resources.put(base, node);
        }
        info.put(node, new Info(base, d, resource));
        if (d >= 2019) {
            String a = str(o.get("$anchor"));
            if (a != null) anchors.put(base + "#" + a, node);
        }
        if (d == 2020) {
            String a = str(o.get("$dynamicAnchor"));
            if (a != null) {
                anchors.put(base + "#" + a, node);
                dynAnchors.computeIfAbsent(resource, r -> new LinkedHashMap<>()).putIfAbsent(a, node);
            }
        }
        if (d == 2019 && node == resource) {
            Json.V ra = o.get("$recursiveAnchor");
            if (ra instanceof Json.Lit && ((Json.Lit) ra).raw.equals("true")) recAnchors.add(resource);
        }
        for (int k = 0; k < o.keys.size(); k++) {
            String key = o.keys.get(k);
            Json.V v = o.vals.get(k);
            if (SINGLE.contains(key) && isSchema(v)) scan(v, base, d, resource, false);
            if (MAPS.contains(key) && v instanceof Json.Obj)
                for (Json.V c : ((Json.Obj) v).vals) if (isSchema(c)) scan(c, base, d, resource, false);
            if (LISTS.contains(key) && v instanceof Json.Arr)
                for (Json.V c : ((Json.Arr) v).items) if (isSchema(c)) scan(c, base, d, resource, false);
        }
    }

    Info infoOf(Json.V n) {
        Info i = info.get(n);
        return i != null ? i : new Info("", defaultDraft, root);
    }

    Json.V resolve(String ref, Json.V at) throws Invalid {
        Info in = infoOf(at);
        String abs = Uri.resolve(in.base, ref);
        int h = abs.indexOf('#');
        String doc = h < 0 ? abs : abs.substring(0, h);
        String frag = h < 0 ? null : abs.substring(h + 1);
        Json.V res = resources.get(doc);
        if (res == null) throw new Invalid("$ref \"" + ref + "\" does not resolve: no document \"" + doc + "\"");
        if (frag == null || frag.isEmpty()) return res;
        if (frag.startsWith("/")) return pointer(res, Uri.percentDecode(frag), ref);
        Json.V t = anchors.get(doc + "#" + Uri.percentDecode(frag));
        if (t == null) throw new Invalid("$ref \"" + ref + "\" does not resolve: no anchor \"" + frag + "\"");
        return t;
    }

    private Json.V pointer(Json.V res, String frag, String ref) throws Invalid {
        Json.V cur = res;
        Info ci = infoOf(res);
        String[] toks = frag.substring(1).split("/", -1);
        for (String t0 : toks) {
            String t = Switches.S5 ? t0.replace("~0", "~").replace("~1", "/") // s5: RFC 6901 says ~1 first, then ~0
                                   : t0.replace("~1", "/").replace("~0", "~");
            Json.V nxt = null;
            if (cur instanceof Json.Obj) nxt = ((Json.Obj) cur).get(t);
            else if (cur instanceof Json.Arr && t.matches("0|[1-9][0-9]{0,8}")) {
                int ix = Integer.parseInt(t);
                List<Json.V> it = ((Json.Arr) cur).items;
                if (ix < it.size()) nxt = it.get(ix);
            }
            if (nxt == null) throw new Invalid("$ref \"" + ref + "\" does not resolve: no member \"" + t + "\"");
            cur = nxt;
            if (info.containsKey(cur)) ci = info.get(cur);
        }
        if (!isSchema(cur)) throw new Invalid("$ref \"" + ref + "\" names a value that is not a schema");
        if (!info.containsKey(cur)) info.put(cur, ci);
        return cur;
    }

    Pattern pattern(String p) throws Invalid {
        Pattern c = patterns.get(p);
        if (c != null) return c;
        try {
            c = EcmaRegex.compileChecked(p);
        } catch (EcmaRegex.Bad e) {
            throw new Invalid("pattern " + p + " is not an ECMA-262 regular expression: " + e.getMessage());
        }
        patterns.put(p, c);
        return c;
    }

    static final Set<String> TYPES = new HashSet<>(Arrays.asList("null", "boolean", "object", "array", "number", "integer", "string"));

    static int typeBit(String t) {
        switch (t) {
            case "null": return Json.NULL;
            case "boolean": return Json.BOOL;
            case "object": return Json.OBJECT;
            case "array": return Json.ARRAY;
            case "string": return Json.STRING;
            default: return Json.NUMBER;
        }
    }

    /** Finds the compile-time errors in what the rule reads. */
    private void validate() throws Invalid {
        ArrayDeque<Json.V> work = new ArrayDeque<>();
        Set<Json.V> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        work.add(root);
        seen.add(root);
        while (!work.isEmpty()) {
            Json.V n = work.poll();
            if (!(n instanceof Json.Obj)) continue;
            Json.Obj o = (Json.Obj) n;
            int d = infoOf(n).draft;
            ArrayList<Json.V> subs = new ArrayList<>();
            boolean delegate = siblingsIgnored(d) && o.has("$ref");
            for (int k = 0; k < o.keys.size(); k++) {
                String key = o.keys.get(k);
                Json.V v = o.vals.get(k);
                if (key.equals("$defs") || key.equals("definitions")) {
                    if (!(v instanceof Json.Obj)) throw new Invalid(key + " must be an object");
                    subs.addAll(((Json.Obj) v).vals);
                    continue;
                }
                if (delegate && !key.equals("$ref")) continue;
                switch (key) {
                    case "type":
                        if (v instanceof Json.Str) {
                            if (!TYPES.contains(str(v))) throw new Invalid("unknown type \"" + str(v) + "\"");
                        } else if (v instanceof Json.Arr) {
                            for (Json.V t : ((Json.Arr) v).items)
                                if (!(t instanceof Json.Str) || !TYPES.contains(str(t))) throw new Invalid("unknown type in " + Json.toText(v));
                        } else throw new Invalid("type must be a string or an array");
                        break;
                    case "nullable":
                        if (o.has("type") && v.kind() != Json.BOOL) throw new Invalid("nullable must be a boolean");
                        break;
                    case "properties":
                        if (!(v instanceof Json.Obj)) throw new Invalid("properties must be an object");
                        subs.addAll(((Json.Obj) v).vals);
                        break;
                    case "patternProperties":
                        if (!(v instanceof Json.Obj)) throw new Invalid("patternProperties must be an object");
                        for (String p : ((Json.Obj) v).keys) pattern(p);
                        subs.addAll(((Json.Obj) v).vals);
                        break;
                    case "additionalProperties": case "additionalItems":
                        subs.add(v);
                        break;
                    case "items":
                        if (v instanceof Json.Arr) subs.addAll(((Json.Arr) v).items);
                        else subs.add(v);
                        break;
                    case "prefixItems":
                        if (!(v instanceof Json.Arr)) throw new Invalid("prefixItems must be an array");
                        subs.addAll(((Json.Arr) v).items);
                        break;
                    case "allOf": case "anyOf": case "oneOf":
                        if (!(v instanceof Json.Arr) || ((Json.Arr) v).items.isEmpty()) throw new Invalid(key + " must be a non-empty array");
                        subs.addAll(((Json.Arr) v).items);
                        break;
                    case "$ref":
                        if (!(v instanceof Json.Str)) throw new Invalid("$ref must be a string");
                        subs.add(resolve(str(v), n));
                        break;
                    case "$dynamicRef":
                        if (d != 2020) break;
                        if (!(v instanceof Json.Str)) throw new Invalid("$dynamicRef must be a string");
                        subs.add(resolve(str(v), n));
                        break;
                    case "$recursiveRef":
                        if (d != 2019) break;
                        if (!(v instanceof Json.Str)) throw new Invalid("$recursiveRef must be a string");
                        subs.add(resolve(str(v), n));
                        break;
                    default:
                }
            }
            for (Json.V s : subs) {
                if (!isSchema(s)) throw new Invalid("a subschema is not an object or a boolean: " + Json.toText(s));
                if (!info.containsKey(s)) info.put(s, infoOf(n));
                if (seen.add(s)) work.add(s);
            }
        }
    }

    // ---- dynamic scope ----

    final class Bindings {
        final TreeMap<String, Json.V> dyn;
        final Json.V rec;
        final String key;
        Bindings(TreeMap<String, Json.V> dyn, Json.V rec) {
            this.dyn = dyn; this.rec = rec;
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, Json.V> e : dyn.entrySet()) sb.append(e.getKey()).append('=').append(id(e.getValue())).append(';');
            sb.append("|").append(rec == null ? -1 : id(rec));
            key = sb.toString();
        }
    }

    int id(Json.V v) {
        Integer i = ids.get(v);
        if (i == null) { i = ids.size(); ids.put(v, i); }
        return i;
    }

    final HashMap<String, Bindings> internB = new HashMap<>();

    Bindings intern(Bindings b) {
        Bindings x = internB.putIfAbsent(b.key, b);
        return x == null ? b : x;
    }

    Bindings enter(Bindings b, Json.V resource) {
        LinkedHashMap<String, Json.V> as = dynAnchors.get(resource);
        boolean rec = recAnchors.contains(resource) && b.rec == null;
        boolean change = rec;
        if (as != null) for (String k : as.keySet()) if (!b.dyn.containsKey(k)) change = true;
        if (!change) return b;
        TreeMap<String, Json.V> m = new TreeMap<>(b.dyn);
        if (as != null) for (Map.Entry<String, Json.V> e : as.entrySet()) m.putIfAbsent(e.getKey(), e.getValue());
        return intern(new Bindings(m, rec ? resource : b.rec));
    }

    // ---- what a position declares ----

    abstract static class Desc {
        abstract int types();
        abstract Desc prop(String k) throws Invalid;
        abstract Desc item(int i) throws Invalid;
    }

    static final Desc NOTHING = new Desc() {
        int types() { return TOP; }
        Desc prop(String k) { return this; }
        Desc item(int i) { return this; }
    };

    static Desc conj(List<Desc> ds) {
        if (ds.isEmpty()) return NOTHING;
        if (ds.size() == 1) return ds.get(0);
        return new Desc() {
            int types() { int t = TOP; for (Desc d : ds) t &= d.types(); return t; }
            Desc prop(String k) throws Invalid { ArrayList<Desc> r = new ArrayList<>(); for (Desc d : ds) r.add(d.prop(k)); return conj(r); }
            Desc item(int i) throws Invalid { ArrayList<Desc> r = new ArrayList<>(); for (Desc d : ds) r.add(d.item(i)); return conj(r); }
        };
    }

    static Desc disj(List<Desc> ds) {
        if (ds.size() == 1) return ds.get(0);
        return new Desc() {
            int types() { int t = 0; for (Desc d : ds) t |= d.types(); return t; }
            Desc prop(String k) throws Invalid {
                ArrayList<Desc> r = new ArrayList<>();
                for (Desc d : ds) if ((d.types() & Json.OBJECT) != 0) r.add(d.prop(k));
                return r.isEmpty() ? NOTHING : disj(r);
            }
            Desc item(int i) throws Invalid {
                ArrayList<Desc> r = new ArrayList<>();
                for (Desc d : ds) if ((d.types() & Json.ARRAY) != 0) r.add(d.item(i));
                return r.isEmpty() ? NOTHING : disj(r);
            }
        };
    }

    final HashMap<String, Leaf> leaves = new HashMap<>();

    Leaf leaf(Json.V node, Bindings b) {
        Bindings e = enter(b, infoOf(node).resource);
        String key = id(node) + "@" + e.key;
        Leaf l = leaves.get(key);
        if (l == null) { l = new Leaf(node, e); leaves.put(key, l); }
        return l;
    }

    Desc rootDesc() {
        Bindings empty = intern(new Bindings(new TreeMap<>(), null));
        return leaf(root, empty);
    }

    final class Leaf extends Desc {
        final Json.V node;
        final Bindings b;
        List<Leaf> conjEdges;            // $ref, $dynamicRef, $recursiveRef, allOf
        List<List<Leaf>> groups;         // anyOf, oneOf
        boolean delegate;                // drafts 4 to 7: $ref ignores its siblings
        int index = -1, low;             // Tarjan
        boolean done, onCycle;
        int typesCache = -1;

        Leaf(Json.V node, Bindings b) { this.node = node; this.b = b; }

        void edges() throws Invalid {
            if (conjEdges != null) return;
            conjEdges = new ArrayList<>();
            groups = new ArrayList<>();
            if (!(node instanceof Json.Obj)) return;
            Json.Obj o = (Json.Obj) node;
            int d = infoOf(node).draft;
            String ref = str(o.get("$ref"));
            if (siblingsIgnored(d) && ref != null) {
                delegate = true;
                conjEdges.add(leaf(resolve(ref, node), b));
                return;
            }
            if (ref != null) conjEdges.add(leaf(resolve(ref, node), b));
            if (d == 2020) {
                String dr = str(o.get("$dynamicRef"));
                if (dr != null) {
                    Json.V t = resolve(dr, node);
                    int h = dr.indexOf('#');
                    String frag = h < 0 ? null : dr.substring(h + 1);
                    if (frag != null && !frag.isEmpty() && !frag.startsWith("/") && t instanceof Json.Obj
                        && frag.equals(str(((Json.Obj) t).get("$dynamicAnchor"))) && b.dyn.containsKey(frag)) t = b.dyn.get(frag);
                    conjEdges.add(leaf(t, b));
                }
            }
            if (d == 2019) {
                String rr = str(o.get("$recursiveRef"));
                if (rr != null) {
                    Json.V t = resolve(rr, node);
                    if (t instanceof Json.Obj && recAnchors.contains(t) && b.rec != null) t = b.rec;
                    conjEdges.add(leaf(t, b));
                }
            }
            Json.V all = o.get("allOf");
            if (all instanceof Json.Arr) for (Json.V br : ((Json.Arr) all).items) conjEdges.add(leaf(br, b));
            for (String g : new String[] {"anyOf", "oneOf"}) {
                Json.V any = o.get(g);
                if (any instanceof Json.Arr) {
                    ArrayList<Leaf> l = new ArrayList<>();
                    for (Json.V br : ((Json.Arr) any).items) l.add(leaf(br, b));
                    groups.add(l);
                }
            }
        }

        List<Leaf> allEdges() {
            ArrayList<Leaf> r = new ArrayList<>(conjEdges);
            for (List<Leaf> g : groups) r.addAll(g);
            return r;
        }

        void ensure() throws Invalid {
            if (!done) tarjan(this);
        }

        int types() {
            if (typesCache >= 0) return typesCache;
            try {
                ensure();
            } catch (Invalid e) {
                throw new RuntimeException(e);
            }
            int t;
            if (node instanceof Json.Lit) t = ((Json.Lit) node).raw.equals("false") ? 0 : TOP;
            else if (onCycle) t = TOP;
            else if (delegate) t = conjEdges.get(0).types();
            else {
                t = ownTypes();
                for (Leaf l : conjEdges) t &= l.types();
                for (List<Leaf> g : groups) {
                    int u = 0;
                    for (Leaf l : g) u |= l.types();
                    t &= u;
                }
            }
            typesCache = t;
            return t;
        }

        int ownTypes() {
            Json.Obj o = (Json.Obj) node;
            Json.V ty = o.get("type");
            if (ty == null) return TOP;
            int t = 0;
            if (ty instanceof Json.Str) t = typeBit(str(ty));
            else for (Json.V x : ((Json.Arr) ty).items) t |= typeBit(str(x));
            Json.V nb = o.get("nullable");
            if (nb instanceof Json.Lit && ((Json.Lit) nb).raw.equals("true")) t |= Json.NULL;
            return t;
        }

        Desc prop(String k) throws Invalid {
            ensure();
            if (!(node instanceof Json.Obj) || onCycle) return NOTHING;
            if (delegate) return conjEdges.get(0).prop(k);
            Json.Obj o = (Json.Obj) node;
            ArrayList<Desc> parts = new ArrayList<>();
            boolean matched = false;
            Json.V props = o.get("properties");
            if (props instanceof Json.Obj) {
                Json.V s = ((Json.Obj) props).get(k);
                if (s != null) { matched = true; parts.add(leaf(s, b)); }
            }
            Json.V pp = o.get("patternProperties");
            if (pp instanceof Json.Obj) {
                Json.Obj po = (Json.Obj) pp;
                for (int j = 0; j < po.keys.size(); j++) {
                    java.util.regex.Matcher m = pattern(po.keys.get(j)).matcher(k);
                    // s3: matches() anchors the pattern at both ends, unlike JSON Schema's search
                    if (Switches.S3 ? m.matches() : m.find()) { matched = true; parts.add(leaf(po.vals.get(j), b)); }
                }
            }
            Json.V ap = o.get("additionalProperties");
            if (!matched && ap != null && isSchema(ap)) parts.add(leaf(ap, b));
            for (Leaf l : conjEdges) parts.add(l.prop(k));
            for (List<Leaf> g : groups) {
                ArrayList<Desc> alts = new ArrayList<>();
                for (Leaf l : g) if ((l.types() & Json.OBJECT) != 0) alts.add(l.prop(k));
                if (!alts.isEmpty()) parts.add(disj(alts));
            }
            return conj(parts);
        }

        Desc item(int i) throws Invalid {
            ensure();
            if (!(node instanceof Json.Obj) || onCycle) return NOTHING;
            if (delegate) return conjEdges.get(0).item(i);
            Json.Obj o = (Json.Obj) node;
            ArrayList<Desc> parts = new ArrayList<>();
            Json.V pre = o.get("prefixItems");
            Json.V items = o.get("items");
            int preLen = 0;
            if (pre instanceof Json.Arr) {
                preLen = ((Json.Arr) pre).items.size();
                if (i < preLen) parts.add(leaf(((Json.Arr) pre).items.get(i), b));
            }
            if (items instanceof Json.Arr) {
                List<Json.V> tl = ((Json.Arr) items).items;
                if (i < tl.size()) parts.add(leaf(tl.get(i), b));
                else {
                    Json.V ai = o.get("additionalItems");
                    if (ai != null && isSchema(ai)) parts.add(leaf(ai, b));
                }
            } else if (items != null && isSchema(items) && i >= preLen) parts.add(leaf(items, b));
            for (Leaf l : conjEdges) parts.add(l.item(i));
            for (List<Leaf> g : groups) {
                ArrayList<Desc> alts = new ArrayList<>();
                for (Leaf l : g) if ((l.types() & Json.ARRAY) != 0) alts.add(l.item(i));
                if (!alts.isEmpty()) parts.add(disj(alts));
            }
            return conj(parts);
        }
    }

    // Tarjan's strongly connected components over the in-place edges: a schema on a cycle declares nothing.
    private int counter;
    private final ArrayDeque<Leaf> stack = new ArrayDeque<>();
    private final Set<Leaf> onStack = Collections.newSetFromMap(new IdentityHashMap<>());

    private void tarjan(Leaf v) throws Invalid {
        v.index = v.low = counter++;
        stack.push(v);
        onStack.add(v);
        v.edges();
        boolean self = false;
        for (Leaf w : v.allEdges()) {
            if (w == v) self = true;
            if (w.done) continue;
            if (w.index < 0) {
                tarjan(w);
                v.low = Math.min(v.low, w.low);
            } else if (onStack.contains(w)) v.low = Math.min(v.low, w.index);
        }
        if (v.low == v.index) {
            ArrayList<Leaf> comp = new ArrayList<>();
            Leaf w;
            do { w = stack.pop(); onStack.remove(w); comp.add(w); } while (w != v);
            boolean cyc = comp.size() > 1 || self;
            for (Leaf x : comp) { x.onCycle = cyc; x.done = true; }
        }
    }
}
