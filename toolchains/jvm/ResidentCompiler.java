import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A JVM command-line compiler kept running between compiles (chanfuzz, issue #18;
 * runners/engine/resident.py is its client).
 *
 * <p>Usage: {@code ResidentCompiler SOCKET IDLE_SECONDS TOOL_CLASS}. It listens on the
 * Unix socket SOCKET and serves one compile at a time: a request is a count of arguments
 * and each argument (big-endian int lengths, UTF-8), the reply the exit code the tool's
 * {@code exec(PrintStream, String[])} gave and everything it printed. A cold compiler
 * started for each batch spends most of a small batch's time loading and warming up;
 * this one pays that once. It ends when nobody asked for IDLE_SECONDS, when its socket
 * is gone or replaced, after the tool threw an Error (an OutOfMemoryError leaves a
 * heap nobody should compile in), or when the tool says it is spent ({@code static
 * boolean spent()}, if it has one, asked after each compile).
 */
public final class ResidentCompiler {
    private static final long TICK_MS = 5_000;

    public static void main(String[] argv) throws Exception {
        Path socket = Paths.get(argv[0]);
        long idleMs = Long.parseLong(argv[1]) * 1000L;
        Class<?> tool = Class.forName(argv[2]);
        Method exec = tool.getMethod("exec", PrintStream.class, String[].class);
        Method spent = spentMethod(tool);
        Files.deleteIfExists(socket);
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                Selector selector = Selector.open()) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Object mine = Files.readAttributes(socket, BasicFileAttributes.class).fileKey();
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            long last = System.currentTimeMillis();
            long tick = Math.max(1, Math.min(TICK_MS, idleMs));
            while (System.currentTimeMillis() - last < idleMs && ours(socket, mine)) {
                if (selector.select(tick) == 0) {
                    continue;
                }
                selector.selectedKeys().clear();
                SocketChannel client = server.accept();
                if (client == null) {
                    continue;
                }
                boolean fatal;
                try (client) {
                    client.configureBlocking(true);
                    fatal = serve(client, tool, exec);
                } catch (IOException gone) {
                    fatal = false; // the client went away: its build fell back or timed out
                }
                last = System.currentTimeMillis();
                if (fatal || (spent != null && (Boolean) spent.invoke(null))) {
                    break;
                }
            }
            if (ours(socket, mine)) {
                Files.deleteIfExists(socket);
            }
        }
    }

    /**
     * The tool's {@code static boolean spent()}, if it has one: asked after each compile,
     * true when this JVM should end (a tool that cannot let go of all a compile loaded).
     */
    private static Method spentMethod(Class<?> tool) {
        try {
            Method spent = tool.getMethod("spent");
            return java.lang.reflect.Modifier.isStatic(spent.getModifiers())
                            && spent.getReturnType() == boolean.class
                    ? spent
                    : null;
        } catch (NoSuchMethodException none) {
            return null;
        }
    }

    /** Whether SOCKET is still the file this server bound (a newer server may own it). */
    private static boolean ours(Path socket, Object key) {
        try {
            return key.equals(Files.readAttributes(socket, BasicFileAttributes.class).fileKey());
        } catch (IOException gone) {
            return false;
        }
    }

    /** One compile; true when the tool threw an Error and this JVM should end. */
    private static boolean serve(SocketChannel client, Class<?> tool, Method exec)
            throws IOException {
        DataInputStream in = new DataInputStream(Channels.newInputStream(client));
        String[] args = new String[in.readInt()];
        for (int i = 0; i < args.length; i++) {
            byte[] arg = new byte[in.readInt()];
            in.readFully(arg);
            args[i] = new String(arg, StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(out);
        System.setErr(out);
        int code;
        boolean fatal = false;
        try {
            Object exit = exec.invoke(tool.getDeclaredConstructor().newInstance(), out, args);
            // kotlinc's exec answers an ExitCode, a tool of ours (ClojureCompiler) the code.
            code = exit instanceof Integer number
                    ? number
                    : (Integer) exit.getClass().getMethod("getCode").invoke(exit);
        } catch (ReflectiveOperationException | RuntimeException | Error failed) {
            Throwable cause = failed.getCause() != null ? failed.getCause() : failed;
            cause.printStackTrace(out);
            fatal = cause instanceof Error;
            code = 2; // what kotlinc's INTERNAL_ERROR exits with
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        out.flush();
        byte[] reply = printed.toByteArray();
        DataOutputStream back = new DataOutputStream(Channels.newOutputStream(client));
        back.writeInt(code);
        back.writeInt(reply.length);
        back.write(reply);
        back.flush();
        return fatal;
    }
}
