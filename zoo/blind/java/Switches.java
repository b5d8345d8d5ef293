import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/** Planted bugs for the blind test: BLIND_SWITCHES=s1,s2,... turns them on; none set is the clean normalizer. */
final class Switches {
    private static final Set<String> ON = new HashSet<>();
    static {
        String e = System.getenv("BLIND_SWITCHES");
        if (e != null) for (String s : e.split(",")) if (!s.trim().isEmpty()) ON.add(s.trim());
    }
    static boolean on(String name) { return ON.contains(name); }

    static final boolean S1 = on("s1"), S2 = on("s2"), S3 = on("s3"), S4 = on("s4"), S5 = on("s5"), S6 = on("s6");
}
