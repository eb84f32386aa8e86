import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Clojure's compiler as a tool ResidentCompiler can serve (chanfuzz, issue #18): a JVM kept
 * running compiles batch after batch with a compiler, core.async and the {@code go} macro's
 * analyser loaded and compiled to machine code once, instead of a cold JVM for each batch.
 *
 * <p>{@code exec(out, [COMPILE_PATH, SOURCE_ROOT, SOURCE_PATH, NAMESPACE])} AOT-compiles the
 * namespace NAMESPACE from SOURCE_ROOT/SOURCE_PATH into COMPILE_PATH, as {@code (compile
 * 'NAMESPACE)} does with SOURCE_ROOT on the classpath: the same {@code Compiler.compile}
 * with the same source path, so the same classes but for the numbers Clojure gives its
 * generated names (they count up in a JVM that compiled before). The namespace is removed
 * before and after, so each batch starts from none, and its classes go to a class loader of
 * their own, which can be unloaded once the compile is over (Compiling evaluates a batch's
 * forms, which loads its classes; the server's JVM clears soft references at every
 * collection, for Clojure's class cache holds classes softly.) Should anything hold on to
 * them still, the server ends once its class metadata outgrows SPENT_BYTES ({@link #spent}),
 * and the next build starts another. Clojure is reached by reflection, so this compiles
 * without its jars.
 */
public final class ClojureCompiler {
    // A batch of 70 go-block programs loads about 20 MB of it (Clojure 1.11, core.async
    // 1.9.865), let go after the compile: 4–24 MB over 12 compiles in a row.
    private static final long SPENT_BYTES = 384L << 20;

    private static final String COMPILE =
            "(fn [out root path ns-name]"
                    + "  (let [ns-sym (symbol ns-name)]"
                    + "    (remove-ns ns-sym)"
                    + "    (push-thread-bindings"
                    + "      {clojure.lang.Compiler/LOADER (clojure.lang.RT/makeClassLoader)})"
                    + "    (try"
                    + "      (.mkdirs (java.io.File. ^String out))"
                    + "      (binding [*compile-path* out *compile-files* true]"
                    + "        (with-open [r (java.io.InputStreamReader."
                    + "                        (java.io.FileInputStream. (java.io.File. ^String root ^String path))"
                    + "                        \"UTF-8\")]"
                    + "          (clojure.lang.Compiler/compile"
                    + "            r path (.getName (java.io.File. ^String path)))))"
                    + "      nil"
                    + "      (finally (pop-thread-bindings) (remove-ns ns-sym)))))";

    private static Object compileFn;
    private static Method invoke4;

    /** Whether this JVM should end after the compile it answered (ResidentCompiler asks). */
    public static boolean spent() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace") && pool.getUsage().getUsed() > SPENT_BYTES) {
                return true;
            }
        }
        return false;
    }

    public Integer exec(PrintStream out, String[] args) throws ReflectiveOperationException {
        if (args.length != 4) {
            out.println("usage: ClojureCompiler COMPILE_PATH SOURCE_ROOT SOURCE_PATH NAMESPACE");
            return 2;
        }
        if (compileFn == null) {
            Class<?> api = Class.forName("clojure.java.api.Clojure");
            Class<?> fn = Class.forName("clojure.lang.IFn");
            Object eval = api.getMethod("var", Object.class, Object.class)
                    .invoke(null, "clojure.core", "eval");
            Object form = api.getMethod("read", String.class).invoke(null, COMPILE);
            compileFn = fn.getMethod("invoke", Object.class).invoke(eval, form);
            invoke4 = fn.getMethod("invoke", Object.class, Object.class, Object.class, Object.class);
        }
        try {
            invoke4.invoke(compileFn, (Object[]) args);
            return 0;
        } catch (InvocationTargetException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof Error error) {
                throw error; // the server ends: nothing should compile in this JVM again
            }
            // A source that does not compile: its message and trace, as clojure.main
            // prints them, and the exit code a cold compile gives.
            cause.printStackTrace(out);
            return 1;
        }
    }
}
