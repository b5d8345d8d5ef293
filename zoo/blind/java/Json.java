import java.util.ArrayList;
import java.util.List;

/** A small JSON reader and writer that keeps the text of what it does not change. */
final class Json {
    static final int NULL = 1, BOOL = 2, OBJECT = 4, ARRAY = 8, NUMBER = 16, STRING = 32;

    abstract static class V { abstract int kind(); }

    static final class Obj extends V {
        final List<String> keyRaw = new ArrayList<>();
        final List<String> keys = new ArrayList<>();
        final List<V> vals = new ArrayList<>();
        int kind() { return OBJECT; }
        V get(String k) {
            for (int i = 0; i < keys.size(); i++) if (keys.get(i).equals(k)) return vals.get(i);
            return null;
        }
        boolean has(String k) { return get(k) != null; }
    }

    static final class Arr extends V {
        final List<V> items = new ArrayList<>();
        int kind() { return ARRAY; }
    }

    static final class Str extends V {
        final String raw; // the text as read, quotes included; null for a made string
        final String val;
        Str(String raw, String val) { this.raw = raw; this.val = val; }
        int kind() { return STRING; }
    }

    static final class Num extends V {
        final String raw;
        Num(String raw) { this.raw = raw; }
        int kind() { return NUMBER; }
    }

    static final class Lit extends V {
        final String raw; // true, false, null
        Lit(String raw) { this.raw = raw; }
        int kind() { return raw.equals("null") ? NULL : BOOL; }
    }

    static final class ParseError extends Exception {
        ParseError(String m) { super(m); }
    }

    /** Parses text. strict: the whole text must be one value with JSON whitespace around it. */
    static V parse(String s) throws ParseError {
        Parser p = new Parser(s);
        p.ws();
        V v = p.value();
        p.ws();
        if (p.i != s.length()) throw new ParseError("invalid character after the value at offset " + p.i);
        return v;
    }

    static final class Parser {
        final String s;
        int i;
        Parser(String s) { this.s = s; }

        void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Switches.S4 ? Character.isWhitespace(c) : (c == ' ' || c == '\t' || c == '\n' || c == '\r')) i++; // s4: Java's whitespace is wider than JSON's
                else break;
            }
        }

        ParseError err(String m) { return new ParseError(m + " at offset " + i); }

        V value() throws ParseError {
            if (i >= s.length()) throw err("unexpected end of JSON input");
            char c = s.charAt(i);
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return string();
                case 't': return lit("true");
                case 'f': return lit("false");
                case 'n': return lit("null");
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw err("invalid character '" + c + "' looking for beginning of value");
            }
        }

        V lit(String w) throws ParseError {
            if (!s.startsWith(w, i)) throw err("invalid literal");
            i += w.length();
            return new Lit(w);
        }

        V number() throws ParseError {
            int st = i;
            if (s.charAt(i) == '-') i++;
            if (i >= s.length()) throw err("bad number");
            char c = s.charAt(i);
            if (c == '0') i++;
            else if (c >= '1' && c <= '9') { while (i < s.length() && isDigit(s.charAt(i))) i++; }
            else throw err("bad number");
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                if (i >= s.length() || !isDigit(s.charAt(i))) throw err("bad number");
                while (i < s.length() && isDigit(s.charAt(i))) i++;
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
                if (i >= s.length() || !isDigit(s.charAt(i))) throw err("bad number");
                while (i < s.length() && isDigit(s.charAt(i))) i++;
            }
            return new Num(s.substring(st, i));
        }

        static boolean isDigit(char c) { return c >= '0' && c <= '9'; }

        Str string() throws ParseError {
            int st = i;
            i++;
            StringBuilder sb = null;
            int runStart = i;
            while (true) {
                if (i >= s.length()) throw err("unterminated string");
                char c = s.charAt(i);
                if (c == '"') {
                    String val = sb == null ? s.substring(runStart, i) : sb.append(s, runStart, i).toString();
                    i++;
                    return new Str(s.substring(st, i), val);
                }
                if (c < 0x20) throw err("invalid control character in string");
                if (Character.isSurrogate(c)) {
                    // text must be Unicode: a surrogate is only allowed as a pair
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { i += 2; continue; }
                    throw err("invalid UTF-8 (lone surrogate) in string");
                }
                if (c == '\\') {
                    if (sb == null) sb = new StringBuilder();
                    sb.append(s, runStart, i);
                    i++;
                    if (i >= s.length()) throw err("unterminated string");
                    char e = s.charAt(i);
                    switch (e) {
                        case '"': sb.append('"'); break;
                        case '\\': sb.append('\\'); break;
                        case '/': sb.append('/'); break;
                        case 'b': sb.append('\b'); break;
                        case 'f': sb.append('\f'); break;
                        case 'n': sb.append('\n'); break;
                        case 'r': sb.append('\r'); break;
                        case 't': sb.append('\t'); break;
                        case 'u': {
                            if (i + 4 >= s.length()) throw err("bad unicode escape");
                            int cp = 0;
                            for (int k = 1; k <= 4; k++) {
                                int d = Character.digit(s.charAt(i + k), 16);
                                if (d < 0 || s.charAt(i + k) > 'f') throw err("bad unicode escape");
                                cp = cp * 16 + d;
                            }
                            sb.append((char) cp);
                            i += 4;
                            break;
                        }
                        default: throw err("invalid escape in string");
                    }
                    i++;
                    runStart = i;
                    continue;
                }
                i++;
            }
        }

        Obj object() throws ParseError {
            Obj o = new Obj();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == '}') { i++; return o; }
            while (true) {
                ws();
                if (i >= s.length() || s.charAt(i) != '"') throw err("expected a member name");
                Str k = string();
                ws();
                if (i >= s.length() || s.charAt(i) != ':') throw err("expected ':'");
                i++;
                ws();
                V v = value();
                o.keyRaw.add(k.raw);
                o.keys.add(k.val);
                o.vals.add(v);
                ws();
                if (i >= s.length()) throw err("unexpected end of JSON input");
                char c = s.charAt(i);
                if (c == ',') { i++; continue; }
                if (c == '}') { i++; return o; }
                throw err("expected ',' or '}'");
            }
        }

        Arr array() throws ParseError {
            Arr a = new Arr();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == ']') { i++; return a; }
            while (true) {
                ws();
                a.items.add(value());
                ws();
                if (i >= s.length()) throw err("unexpected end of JSON input");
                char c = s.charAt(i);
                if (c == ',') { i++; continue; }
                if (c == ']') { i++; return a; }
                throw err("expected ',' or ']'");
            }
        }
    }

    /** The request reader: like parse, but a lone surrogate character in the line is an error too (it cannot be UTF-8). */

    static void write(V v, StringBuilder out) {
        if (v instanceof Obj) {
            Obj o = (Obj) v;
            out.append('{');
            for (int k = 0; k < o.keys.size(); k++) {
                if (k > 0) out.append(',');
                out.append(o.keyRaw.get(k)).append(':');
                write(o.vals.get(k), out);
            }
            out.append('}');
        } else if (v instanceof Arr) {
            Arr a = (Arr) v;
            out.append('[');
            for (int k = 0; k < a.items.size(); k++) {
                if (k > 0) out.append(',');
                write(a.items.get(k), out);
            }
            out.append(']');
        } else if (v instanceof Str) {
            Str st = (Str) v;
            if (st.raw != null) out.append(st.raw);
            else quote(st.val, out);
        } else if (v instanceof Num) {
            out.append(((Num) v).raw);
        } else {
            out.append(((Lit) v).raw);
        }
    }

    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') out.append("\\\"");
            else if (c == '\\') out.append("\\\\");
            else if (c == '\n') out.append("\\n");
            else if (c == '\r') out.append("\\r");
            else if (c == '\t') out.append("\\t");
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                out.append(c).append(s.charAt(i + 1));
                i++;
            } else if (Character.isSurrogate(c)) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        out.append('"');
    }

    static String toText(V v) {
        StringBuilder sb = new StringBuilder();
        write(v, sb);
        return sb.toString();
    }
}
