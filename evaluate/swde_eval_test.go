package evaluate

import (
	"testing"

	"github.com/winnow-go/winnow/infholder"
	"github.com/winnow-go/winnow/internal/shareddata"
)

func TestSWDESurvival(t *testing.T) {
	sites, err := LoadSWDE(shareddata.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []SiteVariant{SinglePage, Template} {
		s, err := ScoreSWDE(sites, v, infholder.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: survival %.4f (%d of %d values lost), recurring removed %.4f", v, s.Survival, s.Lost, s.Values, s.RecurringRemoved)
		// The figures measured when this was built: survival 0.797-0.799,
		// recurring removed 0.913-0.916.
		if s.Survival < 0.79 || s.RecurringRemoved < 0.90 {
			t.Errorf("%s: survival %.4f, recurring removed %.4f", v, s.Survival, s.RecurringRemoved)
		}
	}
}
