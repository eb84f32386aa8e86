// Training program for the class-data-sharing archives of a Kotlin toolchain.
// scripts/install_toolchains.sh compiles it with -XX:ArchiveClassesAtExit (so
// later compiles start from pre-parsed compiler classes: kotlinc.jsa), packs it
// into training.jar and runs it the same way (so program runs start from
// pre-parsed kotlin-stdlib and kotlinx-coroutines classes: runtime.jsa); the
// run doubles as a smoke test of the runtime classpath. It uses what generated
// programs use (channels, launch, Dispatchers.Default, select on both
// directions) so that those classes are in the archives. Its file name keeps
// its classes (TrainingKt...) apart from a generated program's (MainKt...),
// which come after training.jar on the classpath.
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select

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

fun main(args: Array<String>) {
    when (args.firstOrNull()?.toInt() ?: 0) {
        0 -> program0()
        else -> error("no such program")
    }
    println("ok")
}
