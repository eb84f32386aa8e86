// want: global-deadlock
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: the client never reads the server's reply, which blocks the server's write on net.Pipe,
//   while the client waits for the server to end (Go does not report this one: it hangs).

package main

import (
	"bufio"
	"fmt"
	"net"
)

// The server answers every line; the client sends one and waits for the server to end
// without reading the answer, so the server's write never completes.
func serve(conn net.Conn, done chan<- int) {
	defer conn.Close()
	sc := bufio.NewScanner(conn)
	n := 0
	for sc.Scan() {
		fmt.Fprintf(conn, "ok %s\n", sc.Text())
		n++
	}
	done <- n
}

func main() {
	client, server := net.Pipe()
	done := make(chan int)
	go serve(server, done)
	fmt.Fprintln(client, "get")
	// the reply is never read
	fmt.Println(<-done)
	client.Close()
}
