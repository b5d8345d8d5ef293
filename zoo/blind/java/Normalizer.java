import java.util.List;

/** RT-TOOL-8: repairs a model's tool arguments against the tool's own schema. */
final class Normalizer {
    static final class Failure extends Exception { Failure(String m) { super(m); } }

    static final int MAX_DEPTH = 1000;

    private final Schema.Desc rootDesc;

    private Normalizer(Schema.Desc d) { rootDesc = d; }

    static Json.V normalize(Json.V schema, Json.V args) throws Failure {
        if (!(args instanceof Json.Obj)) throw new Failure("arguments must be a JSON object");
        try {
            Schema s = Schema.compile(schema, 2020);
            Normalizer n = new Normalizer(s.rootDesc());
            return n.norm(args, n.rootDesc, 1, "");
        } catch (Schema.Invalid e) {
            throw new Failure(e.getMessage());
        } catch (RuntimeException e) {
            if (e.getCause() instanceof Schema.Invalid) throw new Failure(e.getCause().getMessage());
            throw e;
        }
    }

    static boolean qualifies(int t) {
        return (t & Json.STRING) == 0 && (t & (Json.ARRAY | Json.OBJECT)) != 0;
    }

    /** The text as JSON, when it parses to the shape the types declare; else null. */
    static Json.V shaped(String text, int t) {
        Json.V v;
        try {
            v = Json.parse(text);
        } catch (Json.ParseError e) {
            return null;
        } catch (StackOverflowError e) {
            return null;
        }
        if (v instanceof Json.Arr && (t & Json.ARRAY) != 0) return v;
        if (v instanceof Json.Obj && (t & Json.OBJECT) != 0) return v;
        return null;
    }

    private Json.V norm(Json.V v, Schema.Desc d, int level, String where) throws Failure, Schema.Invalid {
        if (v instanceof Json.Obj) {
            if (level > MAX_DEPTH) throw new Failure("arguments nested more than " + MAX_DEPTH + " levels at " + where);
            Json.Obj o = (Json.Obj) v, r = new Json.Obj();
            for (int k = 0; k < o.keys.size(); k++) {
                String key = o.keys.get(k);
                r.keyRaw.add(o.keyRaw.get(k));
                r.keys.add(key);
                r.vals.add(norm(o.vals.get(k), d.prop(key), level + 1, where + "/" + key));
            }
            return r;
        }
        if (v instanceof Json.Arr) {
            if (level > MAX_DEPTH) throw new Failure("arguments nested more than " + MAX_DEPTH + " levels at " + where);
            List<Json.V> it = ((Json.Arr) v).items;
            Json.Arr r = new Json.Arr();
            for (int k = 0; k < it.size(); k++) r.items.add(norm(it.get(k), d.item(k), level + 1, where + "/" + k));
            return r;
        }
        if (v instanceof Json.Str) {
            Json.Str s = (Json.Str) v;
            int t = d.types();
            if (qualifies(t)) {
                Json.V p = shaped(s.val, t);
                if (p != null) return norm(p, d, level, where);
            }
            String dec = Decoder.fixpoint(s.val);
            if (dec.equals(s.val)) return s;
            if (qualifies(t)) {
                Json.V p = shaped(dec, t);
                if (p != null) return norm(p, d, level, where);
            }
            return new Json.Str(null, dec);
        }
        return v;
    }
}
