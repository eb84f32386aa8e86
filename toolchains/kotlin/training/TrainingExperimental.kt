// Training program for Kotlin toolchains of kotlinx-coroutines releases before
// 1.0, whose library lives in kotlinx.coroutines.experimental (the renderer's
// package_layout="experimental"). Same role as Training.kt (see there): it is
// compiled into class TrainingKt and run with argument 0, printing "ok".
// CommonPool and launch(context) exist in every release from 0.19 to 0.30.
import kotlinx.coroutines.experimental.CommonPool
import kotlinx.coroutines.experimental.async
import kotlinx.coroutines.experimental.channels.Channel
import kotlinx.coroutines.experimental.launch
import kotlinx.coroutines.experimental.runBlocking
import kotlinx.coroutines.experimental.selects.select

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

fun main(args: Array<String>) {
    when (args.firstOrNull()?.toInt() ?: 0) {
        0 -> program0()
        else -> error("no such program")
    }
    println("ok")
}
