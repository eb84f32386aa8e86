// Training program for the class-data-sharing archives of a Kotlin toolchain.
// runners.targets.kotlin_install compiles it with -XX:ArchiveClassesAtExit (so
// later compiles start from pre-parsed compiler classes: kotlinc.jsa), packs it
// into training.jar and runs it the same way (so program runs start from
// pre-parsed kotlin-stdlib, kotlinx-coroutines and JDK classes: runtime.jsa); the
// run doubles as a smoke test of the runtime classpath. It does what generated
// programs do (generator/render/kotlin.py): a fixed thread pool or
// Dispatchers.Default, repetitions, a value check on an AtomicIntegerArray,
// coroutineScope, rendezvous and buffered channels, launch, select on both
// directions, close. A class a program run needs and this one never loaded is
// read from its jar at every run. Its file name keeps its classes
// (TrainingKt...) apart from a generated program's (MainKt...), which come after
// training.jar on the classpath. Its pool has one thread: the classes loaded are
// the same as with the renderer's 8, and no race of an old release can hang its
// install.
import java.util.concurrent.atomic.AtomicIntegerArray
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.newFixedThreadPoolContext
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select
import kotlinx.coroutines.yield

fun program0() = runBlocking(Dispatchers.Default) {
    val c1 = Channel<Unit>()
    val c2 = Channel<Unit>()
    launch { c1.send(Unit) }
    launch { c2.receive() }
    repeat(2) {
        select<Unit> {
            c1.onReceive { }
            c2.onSend(Unit) { }
        }
    }
}

fun program1() {
    runBlocking(newFixedThreadPoolContext(1, "training")) {
        repeat(2) {
            val got = AtomicIntegerArray(5)
            coroutineScope {
                val c1 = Channel<Int>()
                val c2 = Channel<Int>()
                val c3 = Channel<Int>(1)
                launch { c1.send(1) }
                launch { got.incrementAndGet(c2.receive()) }
                yield() // the sender waits on c1 before anyone receives, as senders often do
                repeat(2) {
                    select<Unit> {
                        c1.onReceive { got.incrementAndGet(it) }
                        c2.onSend(2) { }
                    }
                }
                val c4 = Channel<Int>()
                launch { c4.send(4) } // sends after the select below waits
                select<Unit> {
                    c4.onReceive { got.incrementAndGet(it) }
                }
                c3.send(3)
                got.incrementAndGet(c3.receive())
                // A one-element list, as select keeps its clauses in when it waits: the
                // collection classes a waiting select loads come from the archive.
                for (c in listOf(c3)) c.close()
            }
            val lost = (1..4).filter { got.get(it) != 1 }
            if (lost.isNotEmpty()) error("messages lost: $lost")
        }
    }
}

fun main(args: Array<String>) {
    when (args.firstOrNull()?.toInt() ?: 0) {
        0 -> {
            program0()
            program1()
        }
        else -> error("no such program")
    }
    println("ok")
}
