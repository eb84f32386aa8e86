// Compiled beside Training.kt for the releases whose buffered programs receive with
// receiveCatching (the renderer's closed_receive="catching": 1.5 on), and run by its
// main: what those programs load and Training.kt cannot name, as it compiles for every
// release from 1.0 on. Channels of every kind the renderer makes (buffered, unlimited),
// closed by their sender; receives that wait and then find a message or the close, in a
// select too; a select's send on a buffered channel.
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.newFixedThreadPoolContext
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select
import kotlinx.coroutines.yield

fun programClosed() {
    runBlocking(newFixedThreadPoolContext(1, "training")) {
        val c1 = Channel<Unit>(1)
        val c2 = Channel<Unit>(Channel.UNLIMITED)
        val c3 = Channel<Unit>(2)
        launch {
            c1.receiveCatching()
            c1.receiveCatching()
        }
        launch {
            select<Unit> {
                c2.onReceiveCatching { }
            }
            select<Unit> {
                c2.onReceiveCatching { }
            }
        }
        yield() // both wait: a receive on c1, a select on c2
        c1.send(Unit)
        c2.send(Unit)
        yield() // both wait again
        select<Unit> {
            c3.onSend(Unit) { }
        }
        for (x in listOf(c1, c2, c3)) x.close() // the waiting receive and select find it closed
        for (m in c3) { }
    }
}
