// want: ok
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a single-goroutine key/value server answering requests over reply channels
// what: the serve loop replies with the error and continues with the next request, so a bad request
//   fails on its own and every later request is answered; main closes the request channel to stop the server.
package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

type op int

const (
	opGet op = iota
	opPut
	opIncr
)

type request struct {
	op    op
	key   string
	value string
	reply chan response
}

type response struct {
	value string
	err   error
}

var ErrNotNumber = errors.New("value is not an integer")

type Server struct {
	reqs chan request
	done chan struct{}
	data map[string]string
}

func NewServer() *Server {
	s := &Server{reqs: make(chan request), done: make(chan struct{}), data: make(map[string]string)}
	go s.serve()
	return s
}

func (s *Server) serve() {
	defer close(s.done)
	for req := range s.reqs {
		v, err := s.apply(req)
		if err != nil {
			req.reply <- response{err: fmt.Errorf("%s: %w", req.key, err)}
			continue
		}
		req.reply <- response{value: v}
	}
}

func (s *Server) apply(req request) (string, error) {
	switch req.op {
	case opPut:
		s.data[req.key] = req.value
		return req.value, nil
	case opIncr:
		n, err := strconv.Atoi(s.data[req.key])
		if err != nil {
			return "", ErrNotNumber
		}
		s.data[req.key] = strconv.Itoa(n + 1)
		return s.data[req.key], nil
	default:
		return s.data[req.key], nil
	}
}

func (s *Server) call(o op, key, value string) (string, error) {
	reply := make(chan response, 1)
	s.reqs <- request{op: o, key: key, value: value, reply: reply}
	r := <-reply
	return r.value, r.err
}

func (s *Server) Close() {
	close(s.reqs)
	<-s.done
}

func main() {
	s := NewServer()
	script := []struct {
		o          op
		key, value string
	}{
		{opPut, "hits", "41"},
		{opIncr, "hits", ""},
		{opPut, "owner", "team-infra"},
		{opIncr, "owner", ""},
		{opGet, "hits", ""},
	}
	var out []string
	for _, st := range script {
		v, err := s.call(st.o, st.key, st.value)
		if err != nil {
			out = append(out, "ERR "+err.Error())
			continue
		}
		out = append(out, v)
	}
	s.Close()
	fmt.Println(strings.Join(out, " | "))
}
