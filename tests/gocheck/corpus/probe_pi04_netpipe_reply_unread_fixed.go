// want: ok
// source: written for chanfuzz with the io.Pipe and net.Pipe models (round 14; not held out), modelled on tests of stream code
// what: the client reads the reply before it waits for the server.

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
	r := bufio.NewReader(client)
	if _, err := r.ReadString('\n'); err != nil {
		panic(err)
	}
	client.Close()
	fmt.Println(<-done)
}
