package dedup

import "context"

// Settle flushes the store's memtable and compacts it, so that its disk
// size is that of an index at rest (the benchmarks of package dedup_test).
func (s *Store) Settle() error {
	if err := s.db.Flush(); err != nil {
		return err
	}
	return s.db.Compact(context.Background(), []byte("a"), []byte("z"), true)
}

// DocFreqMapBytes and DocFreqBytes are the counting map's and the frozen
// table's bytes a key (the tests of package dedup_test size budgets by
// them).
const (
	DocFreqMapBytes = docFreqMapBytes
	DocFreqBytes    = docFreqBytes
)
