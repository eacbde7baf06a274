package pipeline

import (
	"errors"
	"sync"
)

// errStopped ends a producer whose consumer has stopped.
var errStopped = errors.New("pipeline: stopped")

// ordered runs work on batches over workers goroutines and hands them to
// consume in the order produce made them. At most 2*workers+2 batches
// are alive at once, so memory is bounded by the batches' size. produce
// calls send for each batch; send reports false once the consumer has
// failed, and produce should then return. The first error of consume or
// produce is returned.
func ordered[B any](workers int, produce func(send func(B) bool) error, work func(*B), consume func(*B) error) error {
	workers = max(1, workers)
	type slot struct {
		b    B
		done chan struct{}
	}
	queue := make(chan *slot, workers+1)
	jobs := make(chan *slot, workers+1)
	stop := make(chan struct{})
	var prodErr error
	go func() {
		defer close(queue)
		defer close(jobs)
		prodErr = produce(func(b B) bool {
			s := &slot{b: b, done: make(chan struct{})}
			select {
			case queue <- s:
			case <-stop:
				return false
			}
			jobs <- s
			return true
		})
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for s := range jobs {
				work(&s.b)
				close(s.done)
			}
		})
	}
	var err error
	for s := range queue {
		<-s.done
		if err != nil {
			continue // drain
		}
		if err = consume(&s.b); err != nil {
			close(stop)
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	if prodErr != nil && !errors.Is(prodErr, errStopped) {
		return prodErr
	}
	return nil
}
