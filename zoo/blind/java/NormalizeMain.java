import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** One case from files: java NormalizeMain SCHEMA ARGS; prints the arguments, or the error on stderr with status 1. */
public final class NormalizeMain {
    public static void main(String[] a) throws Exception {
        int[] rc = {0};
        Thread t = new Thread(null, () -> {
            try {
                Json.V schema = Json.parse(new String(Files.readAllBytes(Paths.get(a[0])), StandardCharsets.UTF_8));
                Json.V args = Json.parse(new String(Files.readAllBytes(Paths.get(a[1])), StandardCharsets.UTF_8));
                System.out.println(Json.toText(Normalizer.normalize(schema, args)));
            } catch (Exception e) {
                System.err.println("error: " + e.getMessage());
                rc[0] = 1;
            }
        }, "main", 1L << 30);
        t.start();
        t.join();
        System.out.flush();
        System.exit(rc[0]);
    }
}
