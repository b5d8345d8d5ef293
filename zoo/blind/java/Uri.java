import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RFC 3986 reference resolution. */
final class Uri {
    private static final Pattern RE = Pattern.compile("^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\\?([^#]*))?(#(.*))?", Pattern.DOTALL);

    static String resolve(String base, String ref) {
        Matcher r = RE.matcher(ref); r.matches();
        Matcher b = RE.matcher(base); b.matches();
        String scheme, auth, path, query;
        if (r.group(2) != null) {
            scheme = r.group(2); auth = r.group(4); path = removeDots(r.group(5)); query = r.group(7);
        } else {
            scheme = b.group(2);
            if (r.group(3) != null) {
                auth = r.group(4); path = removeDots(r.group(5)); query = r.group(7);
            } else {
                auth = b.group(4);
                if (r.group(5).isEmpty()) {
                    path = b.group(5);
                    query = r.group(6) != null ? r.group(7) : b.group(7);
                } else {
                    if (r.group(5).startsWith("/")) path = removeDots(r.group(5));
                    else {
                        String bp = b.group(5);
                        String merged;
                        if (b.group(3) != null && bp.isEmpty()) merged = "/" + r.group(5);
                        else {
                            int k = bp.lastIndexOf('/');
                            merged = (k < 0 ? "" : bp.substring(0, k + 1)) + r.group(5);
                        }
                        path = removeDots(merged);
                    }
                    query = r.group(7);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        if (scheme != null) sb.append(scheme).append(':');
        if (auth != null) sb.append("//").append(auth);
        sb.append(path);
        if (query != null) sb.append('?').append(query);
        if (r.group(8) != null) sb.append('#').append(r.group(9));
        return sb.toString();
    }

    static String removeDots(String in) {
        StringBuilder out = new StringBuilder();
        String s = in;
        while (!s.isEmpty()) {
            if (s.startsWith("../")) s = s.substring(3);
            else if (s.startsWith("./")) s = s.substring(2);
            else if (s.startsWith("/./")) s = s.substring(2);
            else if (s.equals("/.")) s = "/";
            else if (s.startsWith("/../") || s.equals("/..")) {
                s = s.equals("/..") ? "/" : s.substring(3);
                int k = out.lastIndexOf("/");
                out.setLength(k < 0 ? 0 : k);
            } else if (s.equals(".") || s.equals("..")) s = "";
            else {
                int st = s.startsWith("/") ? 1 : 0;
                int k = s.indexOf('/', st);
                if (k < 0) k = s.length();
                out.append(s, 0, k);
                s = s.substring(k);
            }
        }
        return out.toString();
    }

    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) return s;
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() + 0 && i + 2 <= s.length() - 1 + 0 + 1 - 1 + 1 && Decoder.hexVal(s.charAt(i + 1)) >= 0 && Decoder.hexVal(s.charAt(i + 2)) >= 0) {
                bo.write(Decoder.hexVal(s.charAt(i + 1)) * 16 + Decoder.hexVal(s.charAt(i + 2)));
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) { b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8); i++; }
                bo.write(b, 0, b.length);
            }
        }
        return new String(bo.toByteArray(), StandardCharsets.UTF_8);
    }
}
