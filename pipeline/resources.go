package pipeline

import (
	"sync"

	"github.com/winnow-go/winnow/render"
)

// warcResources serves a run's subresources from the WARC files they were
// crawled into (render.Resources): an index of where each URL's response
// is stored, read again when a page asks for it.
type warcResources struct {
	mu sync.RWMutex
	at map[string]resourceAt
}

type resourceAt struct {
	path   string
	offset int64
}

func newWARCResources() *warcResources { return &warcResources{at: map[string]resourceAt{}} }

// add records where a URL's response is stored; a later one replaces it.
func (w *warcResources) add(url, path string, offset int64) {
	w.mu.Lock()
	w.at[url] = resourceAt{path, offset}
	w.mu.Unlock()
}

// Resource implements render.Resources.
func (w *warcResources) Resource(url string) ([]byte, string, bool) {
	w.mu.RLock()
	a, ok := w.at[url]
	w.mu.RUnlock()
	if !ok {
		return nil, "", false
	}
	body, ctype, err := payloadAt(a.path, a.offset)
	if err != nil {
		return nil, "", false
	}
	return body, ctype, true
}

var _ render.Resources = (*warcResources)(nil)
