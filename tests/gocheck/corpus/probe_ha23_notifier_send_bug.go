// want: global-deadlock
// source: written for chanfuzz as a held-out probe by a helper (2026-12-06; confirmed with Go 1.26), in the style of a Prometheus-like alert notifier that starts its dispatcher lazily
// what: Send holds the notifier mutex while handing a batch to the dispatcher over an unbuffered
//   channel, but the dispatcher it just started first takes that mutex to read its config, so both block.
package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

type Alert struct {
	Name   string
	Labels map[string]string
}

type Config struct {
	Endpoint       string
	ExternalLabels map[string]string
}

type Notifier struct {
	mu        sync.Mutex
	cfg       Config
	started   bool
	queue     chan []Alert
	delivered []string
}

func NewNotifier(cfg Config) *Notifier {
	return &Notifier{cfg: cfg, queue: make(chan []Alert)}
}

func (n *Notifier) run() {
	n.mu.Lock()
	endpoint := n.cfg.Endpoint
	n.mu.Unlock()
	for batch := range n.queue {
		for _, a := range batch {
			n.mu.Lock()
			n.delivered = append(n.delivered, endpoint+" <- "+a.Name)
			n.mu.Unlock()
		}
	}
}

// Send relabels the alerts and queues them for delivery.
func (n *Notifier) Send(alerts ...Alert) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := range alerts {
		if alerts[i].Labels == nil {
			alerts[i].Labels = map[string]string{}
		}
		for k, v := range n.cfg.ExternalLabels {
			if _, ok := alerts[i].Labels[k]; !ok {
				alerts[i].Labels[k] = v
			}
		}
	}
	if !n.started {
		n.started = true
		go n.run()
	}
	n.queue <- alerts
}

func labelString(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k+"="+l[k])
	}
	sort.Strings(keys)
	return "{" + strings.Join(keys, ",") + "}"
}

func main() {
	n := NewNotifier(Config{
		Endpoint:       "http://alertmanager:9093/api/v2/alerts",
		ExternalLabels: map[string]string{"cluster": "eu-1"},
	})
	high := Alert{Name: "HighLatency", Labels: map[string]string{"severity": "page"}}
	disk := Alert{Name: "DiskFull"}
	n.Send(high, disk)
	n.Send(Alert{Name: "TargetDown", Labels: map[string]string{"job": "node"}})
	fmt.Println(labelString(high.Labels), len(n.delivered))
}
