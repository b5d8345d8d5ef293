import java.util.ArrayList;

/** HTML character reference decoding, as the WHATWG tokenizer does in text content, to the fixpoint. */
final class Decoder {
    private static final int[] CP1252 = {
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    };

    // The text as a doubly linked list of UTF-16 units: node 0 is the head, node n+1 the tail.
    private char[] ch;
    private int[] nx, pv;
    private int tail;
    // The result of decide().
    private int resEnd;
    private String resOut;

    static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    static int hexVal(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    /** A hex digit of a numeric character reference. */
    static int refHexDigit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (!Switches.S1 && c >= 'A' && c <= 'F') return c - 'A' + 10; // s1: upper-case hex digits forgotten
        return -1;
    }

    /** How far before a change an '&' may sit whose decision the change can alter. */
    static final int LOOKBACK = Switches.S2 ? 8 : 40; // s2: window sized for typical names, not the longest (32)

    static String numeric(long x) {
        int v;
        if (x == 0 || x > 0x10FFFF || (x >= 0xD800 && x <= 0xDFFF)) v = 0xFFFD;
        else if (x >= 0x80 && x <= 0x9F) v = CP1252[(int) x - 0x80];
        else v = (int) x;
        return new String(Character.toChars(v));
    }

    /** Decides the reference at the '&' node a; true when it is one (then resEnd and resOut are set). */
    private boolean decide(int a) {
        int p = nx[a];
        if (p == tail) return false;
        char c = ch[p];
        if (c == '#') {
            int q = nx[p];
            if (q == tail) return false;
            boolean hex = false;
            if (ch[q] == 'x' || ch[q] == 'X') { hex = true; q = nx[q]; if (q == tail) return false; }
            long x = 0;
            int digits = 0;
            while (q != tail) {
                int d = hex ? refHexDigit(ch[q]) : (ch[q] >= '0' && ch[q] <= '9' ? ch[q] - '0' : -1);
                if (d < 0) break;
                x = x * (hex ? 16 : 10) + d;
                if (x > 0x110000) x = 0x110000;
                digits++;
                q = nx[q];
            }
            if (digits == 0) return false;
            if (q != tail && ch[q] == ';') q = nx[q];
            resEnd = q;
            resOut = numeric(x);
            return true;
        }
        // a named reference: the longest name in the table
        StringBuilder t = new StringBuilder();
        int q = p;
        while (q != tail && t.length() < Entities.MAX_NAME) {
            char d = ch[q];
            if (isAlnum(d)) { t.append(d); q = nx[q]; continue; }
            if (d == ';') t.append(d);
            break;
        }
        for (int len = t.length(); len > 0; len--) {
            String v = Entities.MAP.get(t.substring(0, len));
            if (v != null) {
                int e = p;
                for (int k = 0; k < len; k++) e = nx[e];
                resEnd = e;
                resOut = v;
                return true;
            }
        }
        return false;
    }

    /** Decodes s until it stops changing. */
    static String fixpoint(String s) {
        if (s.indexOf('&') < 0) return s;
        return new Decoder().run(s);
    }

    private String run(String s) {
        int n = s.length();
        ch = new char[n + 2];
        nx = new int[n + 2];
        pv = new int[n + 2];
        tail = n + 1;
        ArrayList<Integer> cur = new ArrayList<>();
        for (int i = 0; i <= n + 1; i++) {
            if (i >= 1 && i <= n) {
                ch[i] = s.charAt(i - 1);
                if (ch[i] == '&') cur.add(i);
            }
            nx[i] = i + 1;
            pv[i] = i - 1;
        }
        int[] mark = new int[n + 2];
        int pass = 0;
        while (!cur.isEmpty()) {
            pass++;
            ArrayList<Integer> next = new ArrayList<>();
            for (int a : cur) {
                if (!decide(a)) continue;
                String out = resOut;
                int node = a, last = a;
                for (int k = 0; k < out.length(); k++) {
                    ch[node] = out.charAt(k);
                    last = node;
                    node = nx[node];
                }
                nx[last] = resEnd;
                pv[resEnd] = last;
                int st = a;
                for (int j = 0; j < LOOKBACK && pv[st] != 0; j++) st = pv[st];
                for (int w = st; ; w = nx[w]) {
                    if (ch[w] == '&' && mark[w] != pass) { mark[w] = pass; next.add(w); }
                    if (w == last) break;
                }
            }
            cur = next;
        }
        StringBuilder sb = new StringBuilder(n);
        for (int w = nx[0]; w != tail; w = nx[w]) sb.append(ch[w]);
        return sb.toString();
    }

    /** One pass, for tests. */
    static String onePass(String s) {
        StringBuilder sb = new StringBuilder();
        Decoder d = new Decoder();
        int n = s.length();
        d.ch = new char[n + 2]; d.nx = new int[n + 2]; d.pv = new int[n + 2]; d.tail = n + 1;
        for (int i = 0; i <= n + 1; i++) { if (i >= 1 && i <= n) d.ch[i] = s.charAt(i - 1); d.nx[i] = i + 1; d.pv[i] = i - 1; }
        int w = 1;
        while (w != d.tail) {
            if (d.ch[w] == '&' && d.decide(w)) { sb.append(d.resOut); w = d.resEnd; }
            else { sb.append(d.ch[w]); w = d.nx[w]; }
        }
        return sb.toString();
    }
}
