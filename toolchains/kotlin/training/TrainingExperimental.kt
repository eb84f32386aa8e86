// Training program for Kotlin toolchains of kotlinx-coroutines releases before
// 1.0, whose library lives in kotlinx.coroutines.experimental (the renderer's
// package_layout="experimental"). Same role as Training.kt (see there), in the
// shape the renderer writes for these releases (a fixed thread pool or
// CommonPool, async(coroutineContext) children awaited in turn): it is compiled
// into class TrainingKt and run with argument 0, printing "ok". CommonPool,
// newFixedThreadPoolContext and launch(context) exist in every release from 0.19
// to 0.30. The pool has one thread: the classes loaded are the same as with
// the renderer's 8, and no race of these releases can hang an install.
import java.util.concurrent.atomic.AtomicIntegerArray
import kotlinx.coroutines.experimental.CommonPool
import kotlinx.coroutines.experimental.Deferred
import kotlinx.coroutines.experimental.async
import kotlinx.coroutines.experimental.channels.Channel
import kotlinx.coroutines.experimental.launch
import kotlinx.coroutines.experimental.newFixedThreadPoolContext
import kotlinx.coroutines.experimental.runBlocking
import kotlinx.coroutines.experimental.selects.select
import kotlinx.coroutines.experimental.yield

fun program0() = runBlocking(CommonPool) {
    val c1 = Channel<Unit>()
    val c2 = Channel<Unit>()
    val jobs = listOf(launch(CommonPool) { c1.send(Unit) }, launch(CommonPool) { c2.receive() })
    val spawned = async(CommonPool) { }
    repeat(2) {
        select<Unit> {
            c1.onReceive { }
            c2.onSend(Unit) { }
        }
    }
    jobs.forEach { it.join() }
    spawned.await()
}

fun program1() {
    runBlocking(newFixedThreadPoolContext(1, "training")) {
        repeat(2) {
            val got = AtomicIntegerArray(5)
            val c1 = Channel<Int>()
            val c2 = Channel<Int>()
            val c3 = Channel<Int>(1)
            val jobs = ArrayList<Deferred<*>>()
            jobs.add(async(coroutineContext) { c1.send(1) })
            jobs.add(async(coroutineContext) { got.incrementAndGet(c2.receive()) })
            yield() // the sender waits on c1 before anyone receives, as senders often do
            repeat(2) {
                select<Unit> {
                    c1.onReceive { got.incrementAndGet(it) }
                    c2.onSend(2) { }
                }
            }
            val c4 = Channel<Int>()
            jobs.add(async(coroutineContext) { c4.send(4) }) // sends after the select below waits
            select<Unit> {
                c4.onReceive { got.incrementAndGet(it) }
            }
            for (job in jobs) job.await()
            c3.send(3)
            got.incrementAndGet(c3.receive())
            c3.close()
            val lost = (1..4).filter { got.get(it) != 1 }
            if (lost.isNotEmpty()) error("messages lost: $lost")
        }
    }
}

// What programs 0 and 1 leave out and most generated programs do (see Training.kt): an
// await on a child still running (0.19: JobSupport's awaitSuspend, DisposeOnCompletion),
// a select whose send waits until a receiver comes, a branch drawn from ThreadLocalRandom.
fun program2() {
    runBlocking(newFixedThreadPoolContext(1, "training")) {
        val c1 = Channel<Int>()
        val c2 = Channel<Int>()
        val waiting = async(coroutineContext) { c1.receive() }
        val late = async(coroutineContext) {
            yield()
            c2.receive()
        }
        select<Unit> {
            c2.onSend(1) { }
        }
        val value = java.util.concurrent.ThreadLocalRandom.current().nextInt(2)
        val sender = async(coroutineContext) {
            yield()
            c1.send(value)
        }
        waiting.await()
        late.await()
        sender.await()
    }
}

fun main(args: Array<String>) {
    when (args.firstOrNull()?.toInt() ?: 0) {
        0 -> {
            program0()
            program1()
            program2()
        }
        else -> error("no such program")
    }
    println("ok")
}
