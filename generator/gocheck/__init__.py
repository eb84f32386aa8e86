"""gocheck: a static deadlock checker for Go programs (issue #21).

Go's own front end (toolchains/gocheck, run by runners/gocheck) turns one `package main`
file into SSA; this package interprets that SSA abstractly — channels, goroutines,
select, close, sync.WaitGroup/Mutex/RWMutex/Once, context cancellation and timers, with
data it cannot know treated as "either way" — and explores every interleaving
(`explore`), reporting global deadlocks, partial deadlocks (leaked goroutines),
channel-safety violations, or why it cannot decide. Pure Python, no Django.
"""
