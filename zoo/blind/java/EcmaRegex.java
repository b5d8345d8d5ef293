import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads an ECMA-262 pattern (with the u flag) and translates it to a java.util.regex Pattern. */
final class EcmaRegex {
    static final class Bad extends Exception { Bad(String m) { super(m); } }

    private final int[] cps;
    private int i;
    private final StringBuilder out = new StringBuilder();
    private int groups;
    private final HashMap<String, Integer> names = new HashMap<>();
    private int maxBackref;
    private final java.util.ArrayList<String> namedRefs = new java.util.ArrayList<>();

    private static final String SPACE = "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
    private static final String WORD = "a-zA-Z0-9_";
    private static final String DIGIT = "0-9";

    private EcmaRegex(String p) { cps = p.codePoints().toArray(); }

    static Pattern compile(String p) throws Bad {
        EcmaRegex r = new EcmaRegex(p);
        r.countGroups();
        r.disjunction();
        if (r.i < r.cps.length) throw new Bad("unmatched ')' in pattern " + p);
        if (r.maxBackref > r.groups) throw new Bad("invalid escape: backreference past the groups in " + p);
        for (String n : r.namedRefs) if (!r.names.containsKey(n)) throw new Bad("invalid named reference in " + p);
        try {
            return Pattern.compile(r.out.toString());
        } catch (Exception e) {
            throw new Bad("pattern " + p + ": " + e.getMessage());
        }
    }

    private void countGroups() {
        boolean inClass = false;
        for (int k = 0; k < cps.length; k++) {
            int c = cps[k];
            if (c == '\\') { k++; continue; }
            if (inClass) { if (c == ']') inClass = false; continue; }
            if (c == '[') { inClass = true; continue; }
            if (c == '(') {
                if (k + 1 < cps.length && cps[k + 1] == '?') {
                    if (k + 2 < cps.length && cps[k + 2] == '<' && k + 3 < cps.length && cps[k + 3] != '=' && cps[k + 3] != '!') groups++;
                } else groups++;
            }
        }
    }

    private boolean more() { return i < cps.length; }
    private int peek() { return cps[i]; }
    private boolean at(int c) { return i < cps.length && cps[i] == c; }

    private static String lit(int c) { return "\\x{" + Integer.toHexString(c) + "}"; }

    private void disjunction() throws Bad {
        alternative();
        while (at('|')) { i++; out.append('|'); alternative(); }
    }

    private void alternative() throws Bad {
        while (more() && !at('|') && !at(')')) term();
    }

    private void term() throws Bad {
        int c = peek();
        boolean quantifiable = true;
        if (c == '^') { i++; out.append("^"); quantifiable = false; }
        else if (c == '$') { i++; out.append("\\z"); quantifiable = false; }
        else if (c == '\\' && i + 1 < cps.length && (cps[i + 1] == 'b' || cps[i + 1] == 'B')) {
            boolean neg = cps[i + 1] == 'B';
            i += 2;
            String w = "[" + WORD + "]";
            String b = "(?:(?<=" + w + ")(?!" + w + ")|(?<!" + w + ")(?=" + w + "))";
            out.append(neg ? "(?!" + b + ")" : b);
            quantifiable = false;
        } else if (c == '(') {
            i++;
            if (at('?')) {
                i++;
                if (at(':')) { i++; out.append("(?:"); }
                else if (at('=')) { i++; out.append("(?="); quantifiable = false; }
                else if (at('!')) { i++; out.append("(?!"); quantifiable = false; }
                else if (at('<') && i + 1 < cps.length && (cps[i + 1] == '=' || cps[i + 1] == '!')) {
                    out.append("(?<").appendCodePoint(cps[i + 1]);
                    i += 2;
                    quantifiable = false;
                } else if (at('<')) {
                    i++;
                    String name = groupName();
                    if (names.containsKey(name)) throw new Bad("duplicate group name");
                    names.put(name, names.size());
                    out.append("(");
                } else throw new Bad("invalid group");
            } else out.append("(");
            disjunction();
            if (!at(')')) throw new Bad("missing )");
            i++;
            out.append(")");
        } else if (c == '.') { i++; out.append("[^\\x{a}\\x{d}\\x{2028}\\x{2029}]"); }
        else if (c == '[') classAtom();
        else if (c == '\\') atomEscape();
        else if (c == '*' || c == '+' || c == '?' || c == '{' || c == '}' || c == ']' || c == ')') throw new Bad("nothing to repeat or lone " + (char) c);
        else { i++; out.append(lit(c)); }
        if (more() && (at('*') || at('+') || at('?') || at('{'))) {
            if (!quantifiable) throw new Bad("nothing to repeat");
            quantifier();
        }
    }

    private void quantifier() throws Bad {
        int c = peek();
        if (c == '{') {
            int st = i;
            i++;
            long lo = digits();
            if (lo < 0) throw new Bad("incomplete quantifier");
            long hi = lo;
            boolean comma = false;
            if (at(',')) { i++; comma = true; hi = at('}') ? -1 : digits(); if (hi < 0 && !at('}')) throw new Bad("incomplete quantifier"); }
            if (!at('}')) throw new Bad("incomplete quantifier");
            i++;
            if (comma && hi >= 0 && hi < lo) throw new Bad("numbers out of order in quantifier");
            long cap = Integer.MAX_VALUE - 1;
            out.append('{').append(Math.min(lo, cap));
            if (comma) { out.append(','); if (hi >= 0) out.append(Math.min(hi, cap)); }
            out.append('}');
        } else { i++; out.appendCodePoint(c); }
        if (at('?')) { i++; out.append('?'); }
    }

    private long digits() {
        int st = i;
        long v = 0;
        while (more() && peek() >= '0' && peek() <= '9') { v = Math.min(v * 10 + (peek() - '0'), 1L << 40); i++; }
        return i == st ? -1 : v;
    }

    private String groupName() throws Bad {
        StringBuilder sb = new StringBuilder();
        while (more() && !at('>')) {
            int c = peek();
            if (!(Character.isUnicodeIdentifierPart(c) || c == '$' || c == '_') || (sb.length() == 0 && Character.isDigit(c))) throw new Bad("invalid group name");
            sb.appendCodePoint(c);
            i++;
        }
        if (!at('>') || sb.length() == 0) throw new Bad("invalid group name");
        i++;
        return sb.toString();
    }

    private void atomEscape() throws Bad {
        i++;
        if (!more()) throw new Bad("\\ at end of pattern");
        int c = peek();
        if (c >= '1' && c <= '9') {
            long n = digits();
            if (n > groups) throw new Bad("invalid escape");
            maxBackref = (int) Math.max(maxBackref, n);
            out.append("(?:\\").append(n).append(")");
            return;
        }
        if (c == 'k') {
            i++;
            if (!at('<')) throw new Bad("invalid \\k");
            i++;
            String name = groupName();
            namedRefs.add(name);
            // resolved to a number after parsing; named groups are numbered in order of their '('
            out.append("(?:\\k<N").append(Math.abs(name.hashCode())).append(">)");
            pendingNames.put("N" + Math.abs(name.hashCode()), name);
            return;
        }
        String cls = classEscape();
        if (cls != null) { out.append(cls); return; }
        out.append(lit(charEscape(false)));
    }

    private final HashMap<String, String> pendingNames = new HashMap<>();

    /** \d \D \s \S \w \W \p{..} \P{..} as Java text, or null. */
    private String classEscape() throws Bad {
        int c = peek();
        switch (c) {
            case 'd': i++; return "[" + DIGIT + "]";
            case 'D': i++; return "[^" + DIGIT + "]";
            case 's': i++; return "[" + SPACE + "]";
            case 'S': i++; return "[^" + SPACE + "]";
            case 'w': i++; return "[" + WORD + "]";
            case 'W': i++; return "[^" + WORD + "]";
            case 'p': case 'P': {
                i++;
                if (!at('{')) throw new Bad("invalid property name");
                i++;
                StringBuilder sb = new StringBuilder();
                while (more() && !at('}')) { sb.appendCodePoint(peek()); i++; }
                if (!at('}')) throw new Bad("invalid property name");
                i++;
                String p = property(sb.toString());
                return (c == 'P' ? "[^" : "[") + p + "]";
            }
            default: return null;
        }
    }

    private static final Map<String, String> GC = new HashMap<>();
    static {
        String[] t = {
            "C", "Other", "Cc", "Control", "Cf", "Format", "Cn", "Unassigned", "Co", "Private_Use", "Cs", "Surrogate",
            "L", "Letter", "LC", "Cased_Letter", "Ll", "Lowercase_Letter", "Lm", "Modifier_Letter", "Lo", "Other_Letter",
            "Lt", "Titlecase_Letter", "Lu", "Uppercase_Letter", "M", "Mark", "Mc", "Spacing_Mark", "Me", "Enclosing_Mark",
            "Mn", "Nonspacing_Mark", "N", "Number", "Nd", "Decimal_Number", "Nl", "Letter_Number", "No", "Other_Number",
            "P", "Punctuation", "Pc", "Connector_Punctuation", "Pd", "Dash_Punctuation", "Pe", "Close_Punctuation",
            "Pf", "Final_Punctuation", "Pi", "Initial_Punctuation", "Po", "Other_Punctuation", "Ps", "Open_Punctuation",
            "S", "Symbol", "Sc", "Currency_Symbol", "Sk", "Modifier_Symbol", "Sm", "Math_Symbol", "So", "Other_Symbol",
            "Z", "Separator", "Zl", "Line_Separator", "Zp", "Paragraph_Separator", "Zs", "Space_Separator",
        };
        for (int k = 0; k < t.length; k += 2) { GC.put(t[k], t[k]); GC.put(t[k + 1], t[k]); }
        GC.put("digit", "Nd"); GC.put("punct", "P"); GC.put("Combining_Mark", "M");
    }

    private static String gcClass(String s) {
        if (s.equals("LC")) return "\\p{Lu}\\p{Ll}\\p{Lt}";
        if (s.equals("Cn")) return "\\p{Cn}";
        return "\\p{" + s + "}";
    }

    private String property(String p) throws Bad {
        int eq = p.indexOf('=');
        if (eq >= 0) {
            String k = p.substring(0, eq), v = p.substring(eq + 1);
            if (k.equals("General_Category") || k.equals("gc")) {
                String s = GC.get(v);
                if (s == null) throw new Bad("invalid property " + p);
                return gcClass(s);
            }
            if (k.equals("Script") || k.equals("sc")) {
                try {
                    Character.UnicodeScript.forName(v);
                    return "\\p{script=" + v + "}";
                } catch (Exception e) { throw new Bad("invalid property " + p); }
            }
            throw new Bad("unsupported property " + p);
        }
        String s = GC.get(p);
        if (s != null && !p.equals("digit") && !p.equals("punct")) return gcClass(s);
        switch (p) {
            case "Any": return "\\x{0}-\\x{10ffff}";
            case "ASCII": return "\\x{0}-\\x{7f}";
            case "Assigned": return "[^\\p{Cn}]";
            case "Alphabetic": case "Alpha": return "\\p{IsAlphabetic}";
            case "White_Space": case "space": return "\\p{IsWhite_Space}";
            case "Uppercase": case "Upper": return "\\p{IsUppercase}";
            case "Lowercase": case "Lower": return "\\p{IsLowercase}";
            case "Ideographic": case "Ideo": return "\\p{IsIdeographic}";
            case "Hex_Digit": case "Hex": return "\\p{IsHex_Digit}";
            case "Noncharacter_Code_Point": case "NChar": return "\\p{IsNoncharacter_Code_Point}";
            case "Join_Control": case "Join_C": return "\\p{IsJoin_Control}";
            default: throw new Bad("unsupported property " + p);
        }
    }

    /** A CharacterEscape after the backslash; returns the code point. */
    private int charEscape(boolean inClass) throws Bad {
        int c = peek();
        i++;
        switch (c) {
            case 't': return 9;
            case 'n': return 10;
            case 'v': return 11;
            case 'f': return 12;
            case 'r': return 13;
            case 'c': {
                if (more() && ((peek() >= 'a' && peek() <= 'z') || (peek() >= 'A' && peek() <= 'Z'))) { int l = peek(); i++; return l % 32; }
                throw new Bad("invalid \\c escape");
            }
            case '0':
                if (more() && peek() >= '0' && peek() <= '9') throw new Bad("invalid decimal escape");
                return 0;
            case 'x': {
                int a = i < cps.length ? Decoder.hexVal((char) cps[i]) : -1;
                int b = i + 1 < cps.length ? Decoder.hexVal((char) cps[i + 1]) : -1;
                if (a < 0 || b < 0 || cps[i] > 0x7f || cps[i + 1] > 0x7f) throw new Bad("invalid \\x escape");
                i += 2;
                return a * 16 + b;
            }
            case 'u': {
                int v = unicodeEscape();
                if (v >= 0xD800 && v <= 0xDBFF && i + 1 < cps.length && cps[i] == '\\' && cps[i + 1] == 'u') {
                    int save = i;
                    i += 2;
                    int lo;
                    try { lo = unicodeEscape(); } catch (Bad e) { lo = -1; }
                    if (lo >= 0xDC00 && lo <= 0xDFFF) return Character.toCodePoint((char) v, (char) lo);
                    i = save;
                }
                return v;
            }
            default:
                if ("^$\\.*+?()[]{}|/".indexOf(c) >= 0) return c;
                if (inClass && c == '-') return c;
                throw new Bad("invalid escape \\" + new String(Character.toChars(c)));
        }
    }

    private int unicodeEscape() throws Bad {
        if (at('{')) {
            i++;
            long v = 0;
            int n = 0;
            while (more() && !at('}')) {
                int d = peek() <= 0x7f ? Decoder.hexVal((char) peek()) : -1;
                if (d < 0) throw new Bad("invalid unicode escape");
                v = v * 16 + d;
                if (v > 0x10FFFF) throw new Bad("invalid unicode escape");
                n++; i++;
            }
            if (!at('}') || n == 0) throw new Bad("invalid unicode escape");
            i++;
            return (int) v;
        }
        if (i + 4 > cps.length) throw new Bad("invalid unicode escape");
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int d = cps[i + k] <= 0x7f ? Decoder.hexVal((char) cps[i + k]) : -1;
            if (d < 0) throw new Bad("invalid unicode escape");
            v = v * 16 + d;
        }
        i += 4;
        return v;
    }

    private void classAtom() throws Bad {
        i++;
        boolean neg = false;
        if (at('^')) { neg = true; i++; }
        StringBuilder body = new StringBuilder();
        boolean empty = true;
        while (true) {
            if (!more()) throw new Bad("missing ]");
            if (at(']')) { i++; break; }
            empty = false;
            int[] a = new int[1];
            String ca = classItem(a);
            if (at('-') && i + 1 < cps.length && cps[i + 1] != ']') {
                i++;
                int[] b = new int[1];
                String cb = classItem(b);
                if (ca != null || cb != null) throw new Bad("invalid character class range");
                if (a[0] > b[0]) throw new Bad("range out of order in character class");
                body.append(lit(a[0])).append('-').append(lit(b[0]));
            } else if (ca != null) body.append(ca);
            else body.append(lit(a[0]));
        }
        if (empty) { out.append(neg ? "[\\x{0}-\\x{10ffff}]" : "(?!)"); return; }
        out.append(neg ? "[^" : "[").append(body).append(']');
    }

    /** One class atom: returns Java text for a class escape, or null with the code point in a[0]. */
    private String classItem(int[] a) throws Bad {
        int c = peek();
        if (c == '\\') {
            i++;
            if (!more()) throw new Bad("\\ at end of pattern");
            if (at('b')) { i++; a[0] = 8; return null; }
            String cls = classEscape();
            if (cls != null) return cls;
            a[0] = charEscape(true);
            return null;
        }
        i++;
        a[0] = c;
        return null;
    }

    /** Resolves the \k placeholders; called by compile through the output text. */
    {
    }

    static Pattern compileChecked(String p) throws Bad {
        EcmaRegex r = new EcmaRegex(p);
        r.countGroups();
        r.disjunction();
        if (r.i < r.cps.length) throw new Bad("unmatched ')' in pattern " + p);
        if (r.maxBackref > r.groups) throw new Bad("backreference past the groups in " + p);
        String text = r.out.toString();
        // named groups were emitted as plain groups: number them in order of appearance
        HashMap<String, Integer> num = new HashMap<>();
        boolean inClass = false;
        int g = 0;
        for (int k = 0; k < r.cps.length; k++) {
            int c = r.cps[k];
            if (c == '\\') { k++; continue; }
            if (inClass) { if (c == ']') inClass = false; continue; }
            if (c == '[') { inClass = true; continue; }
            if (c == '(') {
                if (k + 1 < r.cps.length && r.cps[k + 1] == '?') {
                    if (k + 2 < r.cps.length && r.cps[k + 2] == '<' && k + 3 < r.cps.length && r.cps[k + 3] != '=' && r.cps[k + 3] != '!') {
                        g++;
                        int e = k + 3;
                        StringBuilder sb = new StringBuilder();
                        while (e < r.cps.length && r.cps[e] != '>') sb.appendCodePoint(r.cps[e++]);
                        num.put(sb.toString(), g);
                    }
                } else g++;
            }
        }
        for (Map.Entry<String, String> e : r.pendingNames.entrySet()) {
            Integer n = num.get(e.getValue());
            if (n == null) throw new Bad("invalid named reference in " + p);
            text = text.replace("\\k<" + e.getKey() + ">", "\\" + n);
        }
        if (!r.namedRefs.isEmpty() && r.names.isEmpty()) throw new Bad("invalid named reference in " + p);
        try {
            return Pattern.compile(text);
        } catch (Exception ex) {
            throw new Bad("pattern " + p + ": " + ex.getMessage());
        }
    }
}
