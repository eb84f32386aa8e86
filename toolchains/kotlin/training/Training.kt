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
// read from its jar at every run, and looking for it opens every jar of the
// classpath: program2 is there for the classes most generated programs loaded
// that way (1.11.0: 46 of 50 programs, each run ~20 ms of CPU more). Its file
// name keeps its classes (TrainingKt...) apart from a generated program's
// (MainKt...). Its pool has one thread: the classes loaded are the same as with
// the renderer's 8, and no race of an old release can hang its install.
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

// What programs 0 and 1 leave out and most generated programs do: a coroutine whose body
// ends before its child (JobSupport's ChildCompletion), a select whose send waits until a
// receiver comes (the receiver resumes it through the select: TrySelectDetailedResult),
// and a branch drawn from ThreadLocalRandom, as the renderer writes a choice.
fun program2() {
    runBlocking(newFixedThreadPoolContext(1, "training")) {
        val c1 = Channel<Int>()
        val c2 = Channel<Int>()
        launch {
            launch { c1.receive() }
        }
        launch {
            yield()
            c2.receive()
        }
        select<Unit> {
            c2.onSend(1) { }
        }
        when (java.util.concurrent.ThreadLocalRandom.current().nextInt(2)) {
            0 -> c1.send(0)
            else -> c1.send(1)
        }
    }
}

fun main(args: Array<String>) {
    when (args.firstOrNull()?.toInt() ?: 0) {
        0 -> {
            program0()
            program1()
            program2()
            // Compiled in only for releases whose programs receive with receiveCatching.
            val closed = try {
                Class.forName("TrainingCatchingKt")
            } catch (e: ClassNotFoundException) {
                null
            }
            closed?.getMethod("programClosed")?.invoke(null)
        }
        else -> error("no such program")
    }
    println("ok")
}
