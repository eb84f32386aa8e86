"""Hand-written programs for the builder tests, in every runnable target's language.

Each language has the same set, written the way the renderers write programs
(SPEC §8): unbuffered channels, a spawned goroutine/coroutine/fiber, a select
over a receive and a send, and every spawned process joined before exit.

- HELLO: terminates and prints "hello 2".
- BATCH: three programs behind a dispatcher main taking the program index as
  first argument; program i prints "program i"; an unknown index exits 64.
- COMPILE_ERROR: refers to an undefined name, ``nosuch``.
- HANG: starts a child process (``sleep 300``), prints "pids <own> <child>",
  then never finishes (a deadlocked receive; Go sleeps instead, since Go would
  report the deadlock and exit).
- DEADLOCK (Go only): Go's runtime detects it: "all goroutines are asleep".
"""

HELLO = {
    "go": """\
package main

import "fmt"

func main() {
	c1 := make(chan struct{})
	c2 := make(chan struct{})
	done := make(chan struct{})
	go func() { c1 <- struct{}{}; done <- struct{}{} }()
	go func() { <-c2; done <- struct{}{} }()
	got := 0
	for i := 0; i < 2; i++ {
		select {
		case <-c1:
			got++
		case c2 <- struct{}{}:
			got++
		}
	}
	<-done
	<-done
	fmt.Println("hello", got)
}
""",
    "kotlin": """\
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select

fun main() {
    var got = 0
    runBlocking(Dispatchers.Default) {
        val c1 = Channel<Unit>()
        val c2 = Channel<Unit>()
        launch { c1.send(Unit) }
        launch { c2.receive() }
        repeat(2) {
            select<Unit> {
                c1.onReceive { got++ }
                c2.onSend(Unit) { got++ }
            }
        }
    }
    println("hello $got")
}
""",
    "crystal": """\
c1 = Channel(Nil).new
c2 = Channel(Nil).new
done = Channel(Nil).new
spawn do
  c1.send(nil)
  done.send(nil)
end
spawn do
  c2.receive
  done.send(nil)
end
got = 0
2.times do
  select
  when x = c1.receive
    got += 1
  when c2.send(nil)
    got += 1
  end
end
2.times { done.receive }
puts "hello #{got}"
""",
}

BATCH = {
    "go": """\
package main

import (
	"fmt"
	"os"
	"strconv"
)

func program0() {
	c := make(chan struct{})
	go func() { c <- struct{}{} }()
	<-c
	fmt.Println("program 0")
}

func program1() {
	c := make(chan struct{})
	done := make(chan struct{})
	go func() { <-c; close(done) }()
	select {
	case c <- struct{}{}:
	}
	<-done
	fmt.Println("program 1")
}

func program2() {
	a := make(chan struct{})
	b := make(chan struct{})
	done := make(chan struct{})
	go func() { a <- struct{}{}; done <- struct{}{} }()
	go func() { <-b; done <- struct{}{} }()
	for i := 0; i < 2; i++ {
		select {
		case <-a:
		case b <- struct{}{}:
		}
	}
	<-done
	<-done
	fmt.Println("program 2")
}

var programs = []func(){program0, program1, program2}

func main() {
	i, err := strconv.Atoi(os.Args[1])
	if err != nil || i < 0 || i >= len(programs) {
		fmt.Fprintln(os.Stderr, "no such program")
		os.Exit(64)
	}
	programs[i]()
}
""",
    "kotlin": """\
import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.selects.select

fun program0() = runBlocking(Dispatchers.Default) {
    val c = Channel<Unit>()
    launch { c.send(Unit) }
    c.receive()
    println("program 0")
}

fun program1() = runBlocking(Dispatchers.Default) {
    val c = Channel<Unit>()
    launch { c.receive() }
    select<Unit> { c.onSend(Unit) { } }
    println("program 1")
}

fun program2() = runBlocking(Dispatchers.Default) {
    val a = Channel<Unit>()
    val b = Channel<Unit>()
    launch { a.send(Unit) }
    launch { b.receive() }
    repeat(2) {
        select<Unit> {
            a.onReceive { }
            b.onSend(Unit) { }
        }
    }
    println("program 2")
}

fun main(args: Array<String>) {
    when (args[0].toIntOrNull()) {
        0 -> program0()
        1 -> program1()
        2 -> program2()
        else -> {
            System.err.println("no such program")
            exitProcess(64)
        }
    }
}
""",
    "crystal": """\
def program0
  c = Channel(Nil).new
  spawn { c.send(nil) }
  c.receive
  puts "program 0"
end

def program1
  c = Channel(Nil).new
  done = Channel(Nil).new
  spawn do
    c.receive
    done.send(nil)
  end
  select
  when c.send(nil)
  end
  done.receive
  puts "program 1"
end

def program2
  a = Channel(Nil).new
  b = Channel(Nil).new
  done = Channel(Nil).new
  spawn do
    a.send(nil)
    done.send(nil)
  end
  spawn do
    b.receive
    done.send(nil)
  end
  2.times do
    select
    when x = a.receive
    when b.send(nil)
    end
  end
  2.times { done.receive }
  puts "program 2"
end

case ARGV[0]?.try(&.to_i?)
when 0 then program0
when 1 then program1
when 2 then program2
else
  STDERR.puts "no such program"
  exit 64
end
""",
}

COMPILE_ERROR = {
    "go": """\
package main

func main() {
	c := make(chan struct{})
	go func() { c <- nosuch }()
	<-c
}
""",
    "kotlin": """\
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking

fun main() = runBlocking {
    val c = Channel<Unit>()
    launch { c.send(nosuch) }
    c.receive()
}
""",
    "crystal": """\
c = Channel(Nil).new
spawn { c.send(nosuch) }
c.receive
""",
}

HANG = {
    "go": """\
package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	child := exec.Command("sleep", "300")
	if err := child.Start(); err != nil {
		panic(err)
	}
	fmt.Printf("pids %d %d\\n", os.Getpid(), child.Process.Pid)
	time.Sleep(300 * time.Second)
}
""",
    "kotlin": """\
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.runBlocking

fun main() {
    val child = ProcessBuilder("sleep", "300").start()
    println("pids ${ProcessHandle.current().pid()} ${child.pid()}")
    System.out.flush()
    runBlocking { Channel<Unit>().receive() }
}
""",
    "crystal": """\
child = Process.new("sleep", ["300"])
puts "pids #{Process.pid} #{child.pid}"
STDOUT.flush
Channel(Nil).new.receive
""",
}

GO_DEADLOCK = """\
package main

func main() {
	c := make(chan struct{})
	go func() { <-c }()
	<-c
}
"""

# The Rust targets build the same std-only programs: the builder tests test the
# build, run and cache machinery, which is the same for every channel crate (the
# crates' own code is covered by the renderers' conformance runs).
_RUST_HELLO = """\
use std::sync::mpsc::sync_channel;

fn main() {
    let (s1, r1) = sync_channel::<()>(0);
    let (s2, r2) = sync_channel::<()>(0);
    let a = std::thread::spawn(move || s1.send(()).unwrap());
    let b = std::thread::spawn(move || r2.recv().unwrap());
    let mut got = 0;
    r1.recv().unwrap();
    got += 1;
    s2.send(()).unwrap();
    got += 1;
    a.join().unwrap();
    b.join().unwrap();
    println!("hello {got}");
}
"""
_RUST_BATCH = """\
use std::sync::mpsc::sync_channel;

fn program0() {
    let (s, r) = sync_channel::<()>(0);
    let h = std::thread::spawn(move || s.send(()).unwrap());
    r.recv().unwrap();
    h.join().unwrap();
    println!("program 0");
}

fn program1() {
    let (s, r) = sync_channel::<()>(0);
    let h = std::thread::spawn(move || r.recv().unwrap());
    s.send(()).unwrap();
    h.join().unwrap();
    println!("program 1");
}

fn program2() {
    let (sa, ra) = sync_channel::<()>(0);
    let (sb, rb) = sync_channel::<()>(0);
    let a = std::thread::spawn(move || sa.send(()).unwrap());
    let b = std::thread::spawn(move || rb.recv().unwrap());
    ra.recv().unwrap();
    sb.send(()).unwrap();
    a.join().unwrap();
    b.join().unwrap();
    println!("program 2");
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("0") => program0(),
        Some("1") => program1(),
        Some("2") => program2(),
        _ => {
            eprintln!("no such program");
            std::process::exit(64)
        }
    }
}
"""
_RUST_COMPILE_ERROR = """\
fn main() {
    let (s, r) = std::sync::mpsc::sync_channel::<()>(0);
    std::thread::spawn(move || s.send(nosuch).unwrap());
    r.recv().unwrap();
}
"""
_RUST_HANG = """\
fn main() {
    let child = std::process::Command::new("sleep").arg("300").spawn().unwrap();
    println!("pids {} {}", std::process::id(), child.id());
    use std::io::Write;
    std::io::stdout().flush().unwrap();
    let (_s, r) = std::sync::mpsc::sync_channel::<()>(0);
    r.recv().unwrap();
}
"""
for _target in ("rust-crossbeam", "rust-flume", "rust-flume-async", "rust-chan", "rust-std"):
    HELLO[_target] = _RUST_HELLO
    BATCH[_target] = _RUST_BATCH
    COMPILE_ERROR[_target] = _RUST_COMPILE_ERROR
    HANG[_target] = _RUST_HANG

# Racket (runners/targets/racket.py): the module is main.rkt, run as `racket main.rkt N`.
HELLO["racket"] = """\
#lang racket/base
(define (main)
  (define c1 (make-channel))
  (define c2 (make-channel))
  (define kids (list (thread (λ () (channel-put c1 (void))))
                     (thread (λ () (channel-get c2)))))
  (define got
    (for/sum ([_ (in-range 2)])
      (sync (handle-evt c1 (λ (_) 1))
            (handle-evt (channel-put-evt c2 (void)) (λ (_) 1)))))
  (for-each thread-wait kids)
  (printf "hello ~a\\n" got))
(module+ main (main))
"""
BATCH["racket"] = """\
#lang racket/base
(define (program0)
  (define c (make-channel))
  (define t (thread (λ () (channel-put c (void)))))
  (channel-get c)
  (thread-wait t)
  (printf "program 0\\n"))
(define (program1)
  (define c (make-channel))
  (define t (thread (λ () (channel-get c))))
  (sync (handle-evt (channel-put-evt c (void)) void))
  (thread-wait t)
  (printf "program 1\\n"))
(define (program2)
  (printf "program 2\\n"))
(module+ main
  (define args (current-command-line-arguments))
  (case (if (= (vector-length args) 1) (vector-ref args 0) "")
    [("0") (program0)]
    [("1") (program1)]
    [("2") (program2)]
    [else (eprintf "no such program\\n") (exit 64)]))
"""
COMPILE_ERROR["racket"] = """\
#lang racket/base
(define c (make-channel))
(thread (λ () (channel-put c nosuch)))
(channel-get c)
"""
HANG["racket"] = """\
#lang racket/base
(require racket/os)
(define-values (child out in err)
  (subprocess (current-output-port) #f (current-error-port) "/bin/sleep" "300"))
(printf "pids ~a ~a\\n" (getpid) (subprocess-pid child))
(flush-output)
(channel-get (make-channel))
"""

# Clojure (runners/targets/clojure_core_async.py): namespace chanfuzz.main in
# src/chanfuzz/main.clj, AOT-compiled, run as `java … chanfuzz.main N`. clojure-go's
# processes are go blocks, clojure-thread's threads.
_CLOJURE_NS = """\
(ns chanfuzz.main
  (:gen-class))

(require '[clojure.core.async :refer [<! >! <!! >!! alts! alts!! chan go thread]])
"""
HELLO["clojure-go"] = _CLOJURE_NS + """
(defn -main [& args]
  (let [c1 (chan)
        c2 (chan)
        kids [(go (>! c1 1)) (go (<! c2))]
        got (<!! (go (loop [i 0]
                       (if (= i 2)
                         i
                         (do (alts! [c1 [c2 2]]) (recur (inc i)))))))]
    (doseq [k kids] (<!! k))
    (println "hello" got)))
"""
HELLO["clojure-thread"] = _CLOJURE_NS + """
(defn -main [& args]
  (let [c1 (chan)
        c2 (chan)
        kids [(thread (>!! c1 1)) (thread (<!! c2))]
        got (loop [i 0]
              (if (= i 2)
                i
                (do (alts!! [c1 [c2 2]]) (recur (inc i)))))]
    (doseq [k kids] (<!! k))
    (println "hello" got)))
"""
_CLOJURE_BATCH = _CLOJURE_NS + """
(defn program0 []
  (let [c (chan) t ({spawn} (>!! c 1))]
    (<!! c)
    (<!! t)
    (println "program 0")))

(defn program1 []
  (let [c (chan) t ({spawn} (<!! c))]
    (alts!! [[c 1]])
    (<!! t)
    (println "program 1")))

(defn program2 []
  (println "program 2"))

(defn -main [& args]
  (case (first args)
    "0" (program0)
    "1" (program1)
    "2" (program2)
    (do (binding [*out* *err*] (println "no such program"))
        (System/exit 64))))
"""
# A blocking op inside a go block would hold a dispatch thread: go's programs park.
BATCH["clojure-go"] = (
    _CLOJURE_BATCH.replace("({spawn} (>!! c 1))", "(go (>! c 1))")
    .replace("({spawn} (<!! c))", "(go (<! c))")
)
BATCH["clojure-thread"] = _CLOJURE_BATCH.replace("{spawn}", "thread")
_CLOJURE_COMPILE_ERROR = _CLOJURE_NS + """
(defn -main [& args]
  (>!! (chan) nosuch))
"""
_CLOJURE_HANG = _CLOJURE_NS + """
(defn -main [& args]
  (let [child (.start (ProcessBuilder. ^java.util.List ["sleep" "300"]))]
    (println "pids" (.pid (java.lang.ProcessHandle/current)) (.pid child))
    (flush)
    (<!! (chan))))
"""
for _target in ("clojure-go", "clojure-thread"):
    COMPILE_ERROR[_target] = _CLOJURE_COMPILE_ERROR
    HANG[_target] = _CLOJURE_HANG
