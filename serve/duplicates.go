package serve

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"

	"github.com/winnow-go/winnow/dedup"
	"github.com/winnow-go/winnow/pipeline"
)

// DuplicatesAnswer is the answer of /v1/duplicates.
type DuplicatesAnswer struct {
	URL string `json:"url"`
	// Duplicates are the held documents the text matches, in the order
	// of their ids (oldest first); the URL's own earlier entry among them
	// when the index holds it.
	Duplicates []pipeline.IndexMatch `json:"duplicates"`
	// Added says the text was added (add=true), and Replaced that it
	// replaced an entry of the same URL.
	Added    bool `json:"added"`
	Replaced bool `json:"replaced,omitempty"`
}

// dupInput is what /v1/duplicates checks: a record or any JSON with
// "url" and "text", JSON with "url" and "html", an HTML page, or plain
// text (with its URL beside it).
type dupInput struct {
	url, text string
	page      *pipeline.Input // a page whose text is to be extracted first
}

func parseDupInput(r *http.Request, body []byte) (dupInput, error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		var probe struct {
			URL  string  `json:"url"`
			Text *string `json:"text"`
			HTML *string `json:"html"`
		}
		if err := json.Unmarshal(body, &probe); err != nil {
			return dupInput{}, badf("body is not a JSON object: %v", err)
		}
		switch {
		case probe.URL == "":
			return dupInput{}, badf(`no "url"`)
		case probe.Text != nil:
			return dupInput{url: probe.URL, text: *probe.Text}, nil
		case probe.HTML != nil:
			in := pipeline.JSONInput(body, "")
			return dupInput{url: probe.URL, page: &in}, nil
		}
		return dupInput{}, badf(`want "text" (a record) or "html" (a page)`)
	case "text/html", "application/xhtml+xml":
		u := pageURL(r)
		if u == "" {
			return dupInput{}, badf("no page URL: give it as the url parameter or the X-Winnow-URL header")
		}
		return dupInput{url: u, page: &pipeline.Input{URL: u, Body: body, ContentType: r.Header.Get("Content-Type")}}, nil
	}
	u := pageURL(r)
	if u == "" {
		return dupInput{}, badf("no URL: give it as the url parameter or the X-Winnow-URL header")
	}
	return dupInput{url: u, text: string(body)}, nil
}

func (s *Server) handleDuplicates(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		writeError(w, r, http.StatusNotImplemented, "no near-duplicate index (start the server with --index DIR)")
		return
	}
	add, err := boolParam(r.URL.Query(), "add")
	if err != nil {
		writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	di, err := parseDupInput(r, body)
	if err != nil {
		inputError(w, r, err)
		return
	}
	release, ok := s.acquire(w, r)
	if !ok {
		return
	}
	defer release()
	if di.page != nil {
		rec := s.record(r.Context(), *di.page, pipeline.RecordOptions{})
		if rec.Status != pipeline.StatusOK {
			writeError(w, r, http.StatusUnprocessableEntity, "the page: "+rec.Error)
			return
		}
		di.text = rec.Text
	}
	ans, err := s.checkDuplicates(r.Context(), dedup.Entry{URL: di.url, Text: di.text}, add)
	switch {
	case errors.Is(err, dedup.ErrNoSignature):
		writeError(w, r, http.StatusUnprocessableEntity, "no words to sign")
	case err != nil:
		writeError(w, r, http.StatusInternalServerError, "index: "+err.Error())
		id, _ := r.Context().Value(ctxKey{}).(string)
		s.log.Error("index", "request_id", id, "error", err.Error())
	default:
		writeJSON(w, http.StatusOK, ans)
	}
}

// checkDuplicates queries the index and, with add, adds the entry after
// the query under its URL's lock: two requests for one URL do not
// interleave their checks and adds. An add answered is synced.
func (s *Server) checkDuplicates(_ context.Context, e dedup.Entry, add bool) (DuplicatesAnswer, error) {
	ans := DuplicatesAnswer{URL: e.URL, Duplicates: []pipeline.IndexMatch{}}
	if add {
		mu := s.stripe(e.URL)
		mu.Lock()
		defer mu.Unlock()
	}
	err := s.store.Query(e, func(m dedup.Match) {
		im := pipeline.IndexMatch{URL: m.URL, Similarity: m.Similarity, Verified: m.Verified}
		if m.Distance >= 0 {
			d := m.Distance
			im.Distance = &d
		}
		ans.Duplicates = append(ans.Duplicates, im)
	})
	if err != nil || !add {
		return ans, err
	}
	doc, err := s.store.Add(e)
	if err != nil {
		return ans, err
	}
	ans.Added, ans.Replaced = true, doc.Replaced
	if !doc.Replaced {
		s.docs.Add(1)
	}
	return ans, nil
}
