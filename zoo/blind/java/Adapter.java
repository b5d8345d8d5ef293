import java.io.*;
import java.nio.charset.StandardCharsets;

/** Speaks toolnorm's protocol, version 1, on stdin and stdout. */
public final class Adapter {
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(null, () -> {
            try { serve(); } catch (IOException e) { System.exit(1); }
        }, "adapter", 2L << 30);
        t.start();
        t.join();
    }

    static void serve() throws IOException {
        BufferedInputStream in = new BufferedInputStream(System.in, 1 << 16);
        OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            line.reset();
            int c;
            while ((c = in.read()) != -1 && c != '\n') line.write(c);
            if (c == -1 && line.size() == 0) break;
            String text = new String(line.toByteArray(), StandardCharsets.UTF_8);
            if (text.endsWith("\r")) text = text.substring(0, text.length() - 1);
            String answer = handle(text);
            if (answer == STOP) break;
            if (answer != null) {
                out.write(answer.getBytes(StandardCharsets.UTF_8));
                out.write('\n');
            }
            if (in.available() == 0) out.flush();
            if (c == -1) break;
        }
        out.flush();
    }

    static final String STOP = new String("stop");

    static String handle(String text) {
        Json.V req;
        try {
            req = Json.parse(text);
        } catch (Exception | StackOverflowError e) {
            System.err.println("unreadable request: " + e);
            return null;
        }
        if (!(req instanceof Json.Obj)) { System.err.println("request is not an object"); return null; }
        Json.Obj o = (Json.Obj) req;
        String cmd = Schema.str(o.get("cmd"));
        if ("start".equals(cmd)) {
            return "{\"version\":1,\"implementation\":{\"name\":\"blind5-java\",\"language\":\"Java\",\"version\":\"0.1.0\"}}";
        }
        if ("stop".equals(cmd)) return STOP;
        if (!"normalize".equals(cmd)) return null;
        Json.V id = o.get("id");
        if (!(id instanceof Json.Num)) { System.err.println("request without id"); return null; }
        String idText = ((Json.Num) id).raw;
        Json.V schema = o.get("schema"), args = o.get("arguments");
        StringBuilder sb = new StringBuilder();
        sb.append("{\"id\":").append(idText).append(',');
        try {
            Json.V r = Normalizer.normalize(schema, args);
            sb.append("\"arguments\":");
            Json.write(r, sb);
        } catch (Normalizer.Failure e) {
            sb.setLength(0);
            sb.append("{\"id\":").append(idText).append(",\"error\":");
            Json.quote(e.getMessage(), sb);
        } catch (Throwable e) {
            sb.setLength(0);
            sb.append("{\"id\":").append(idText).append(",\"error\":");
            Json.quote("internal error: " + e, sb);
        }
        sb.append('}');
        return sb.toString();
    }
}
