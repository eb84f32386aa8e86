// want: ok
// source: written for chanfuzz as a held-out probe of library-style idioms (2026-12-02; run and confirmed with Go 1.26; see docs/gocheck-report.md)
// what: the fixed twin of probe_rl09_broker_unsubscribe: the consumer unsubscribes from a separate
//   goroutine and its fan-in loop keeps draining both topics (dropping orders past the sample) until
//   the broker closes them, so a delivery always finds a receiver; Unsubscribe also gives up once the
//   broker is done, so it cannot outlive a Stop

package main

import "fmt"

// Message is one event published on a topic.
type Message struct{ Topic, Body string }

// Subscription delivers the messages of one topic on C until it is closed.
type Subscription struct {
	topic string
	C     chan Message
}

// Broker fans published messages out to the subscribers of their topic.
type Broker struct {
	publishc     chan Message
	subc, unsubc chan *Subscription
	done         chan struct{}
}

func NewBroker() *Broker {
	b := &Broker{
		publishc: make(chan Message),
		subc:     make(chan *Subscription),
		unsubc:   make(chan *Subscription),
		done:     make(chan struct{}),
	}
	go b.run()
	return b
}

func (b *Broker) run() {
	defer close(b.done)
	subs := make(map[*Subscription]bool)
	for {
		select {
		case s := <-b.subc:
			subs[s] = true
		case s := <-b.unsubc:
			if subs[s] {
				delete(subs, s)
				close(s.C)
			}
		case m, ok := <-b.publishc:
			if !ok { // Stop: close every remaining subscription
				for s := range subs {
					close(s.C)
				}
				return
			}
			for s := range subs {
				if s.topic == m.Topic {
					s.C <- m
				}
			}
		}
	}
}

func (b *Broker) Subscribe(topic string) *Subscription {
	s := &Subscription{topic: topic, C: make(chan Message)}
	b.subc <- s
	return s
}

// Unsubscribe stops deliveries to s; the caller keeps receiving until the broker closes s.C.
func (b *Broker) Unsubscribe(s *Subscription) {
	select {
	case b.unsubc <- s:
	case <-b.done: // the broker stopped and closed s.C already
	}
}

func (b *Broker) Publish(topic, body string) { b.publishc <- Message{topic, body} }

// Stop ends publishing; the broker closes every remaining subscription and exits.
func (b *Broker) Stop() {
	close(b.publishc)
	<-b.done
}

// audit samples the first three orders and every refund.
func audit(b *Broker, orders, refunds *Subscription) (log []string) {
	oc, rc, sampled := orders.C, refunds.C, 0
	for oc != nil || rc != nil {
		select {
		case m, ok := <-oc:
			if !ok {
				oc = nil // orders closed; stop selecting on it
				continue
			}
			if sampled == 3 {
				continue // unsubscribing; drop orders past the sample
			}
			log = append(log, "order "+m.Body)
			if sampled++; sampled == 3 {
				go b.Unsubscribe(orders) // keep draining both topics meanwhile
			}
		case m, ok := <-rc:
			if !ok {
				rc = nil
				continue
			}
			log = append(log, "refund "+m.Body)
		}
	}
	return log
}

func main() {
	b := NewBroker()
	orders, refunds := b.Subscribe("orders"), b.Subscribe("refunds")
	audited := make(chan []string)
	go func() { audited <- audit(b, orders, refunds) }()
	for i := 1; i <= 6; i++ {
		b.Publish("orders", fmt.Sprintf("#%d", 1000+i))
		if i%3 == 0 {
			b.Publish("refunds", fmt.Sprintf("#%d", 1000+i-1))
		}
	}
	b.Stop()
	fmt.Println(len(<-audited), "events audited")
}
