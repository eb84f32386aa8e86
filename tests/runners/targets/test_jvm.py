"""What the JVM targets share (runners.targets.jvm): the flags that map a class archive."""

from __future__ import annotations

from pathlib import Path

from runners.targets import jvm


def test_an_archive_maps_quietly_and_none_adds_no_flag() -> None:
    assert jvm.cds_flags(None) == ()
    # A stale archive must not print to stderr: a run's stderr is read for its verdict.
    assert jvm.cds_flags(Path("/t/compile.jsa")) == (
        "-XX:SharedArchiveFile=/t/compile.jsa",
        "-Xlog:cds=off,cds+dynamic=off",
    )


# The shape of a HotSpot SIGQUIT dump (Java 25), cut down: the thread list, the JVM's own
# threads, a pool of two idle workers, the program's main thread, a non-Java thread.
HOTSPOT_DUMP = """2026-12-04 23:24:21
Full thread dump OpenJDK 64-Bit Server VM (25.0.2+10-LTS mixed mode, sharing):

Threads class SMR info:
_java_thread_list=0x00007f05ac00cac0, length=19, elements={
0x00007f05f402acd0, 0x00007f05f40c4ae0
}

"main" #3 [3] prio=5 os_prio=0 cpu=30.65ms elapsed=2.25s waiting on condition
   java.lang.Thread.State: TIMED_WAITING (parking)
\tat jdk.internal.misc.Unsafe.park(java.base@25.0.2/Native Method)
\tat kotlinx.coroutines.experimental.BuildersKt.runBlocking(Builders.kt:153)
\tat MainKt.main(Main.kt:615)

"Reference Handler" #11 [11] daemon prio=10 os_prio=0 waiting on condition
   java.lang.Thread.State: RUNNABLE
\tat java.lang.ref.Reference.waitForReferencePendingList(java.base@25.0.2/Native Method)

"C2 CompilerThread0" #16 [16] daemon prio=9 os_prio=0 waiting on condition
   java.lang.Thread.State: RUNNABLE
   No compile task

"chanfuzz-1" #21 [21] daemon prio=5 os_prio=0 cpu=7.03ms waiting on condition
   java.lang.Thread.State: WAITING (parking)
\tat jdk.internal.misc.Unsafe.park(java.base@25.0.2/Native Method)
\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@25.0.2/Unknown Source)

"chanfuzz-2" #22 [22] daemon prio=5 os_prio=0 cpu=5.26ms waiting on condition
   java.lang.Thread.State: WAITING (parking)
\tat jdk.internal.misc.Unsafe.park(java.base@25.0.2/Native Method)
\tat java.util.concurrent.ThreadPoolExecutor.getTask(java.base@25.0.2/Unknown Source)

"VM Thread" os_prio=0 cpu=5.00ms elapsed=2.25s tid=0x00007f05f40b1c60 nid=10 runnable

JNI global refs: 15, weak refs: 0

Heap
 garbage-first heap   total 65536K, used 9216K
"""


def test_a_reports_dump_keeps_the_programs_threads_each_stack_once() -> None:
    excerpt = jvm.dump_excerpt(HOTSPOT_DUMP)
    assert '"main" #3' in excerpt and "MainKt.main(Main.kt:615)" in excerpt
    assert excerpt.count("ThreadPoolExecutor.getTask") == 1
    assert "(the same stack: chanfuzz-2)" in excerpt
    for gone in ("Reference Handler", "C2 CompilerThread0", "VM Thread", "SMR", "Heap", "JNI"):
        assert gone not in excerpt
    assert excerpt.startswith("2026-12-04 23:24:21\nFull thread dump")
