// A JVM that hangs without deadlocking: main waits on a latch nobody counts
// down, another thread does the same. On SIGQUIT the JVM prints a thread dump
// to stdout and goes on running.
import java.util.concurrent.CountDownLatch;

public class Hang {
    public static void main(String[] args) throws Exception {
        CountDownLatch latch = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "chanfuzz-waiter");
        waiter.start();
        System.out.println("hanging");
        System.out.flush();
        latch.await();
    }
}
