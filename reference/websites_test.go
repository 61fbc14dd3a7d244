package reference_test

import (
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

func TestRegenerateThumbnail(t *testing.T) {
	t.Run("accepts 5 per project per 10 minutes, then rate limits until the oldest leaves (D15)", func(t *testing.T) {
		s, clock := newStore(t)
		seen := map[string]bool{}
		types := []string{"page", "template", "layout", "page", "template"}
		for i, typ := range types {
			th, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: typ, EntityID: 1})
			wantCode(t, err, "")
			if th.PreviewImage == "" || seen[th.PreviewImage] {
				t.Fatalf("regeneration %d: preview_image %q is empty or not new (D38)", i+1, th.PreviewImage)
			}
			seen[th.PreviewImage] = true
			clock.Advance(time.Minute)
		}
		// Now t0+5m; the oldest of the five was at t0 and leaves the window at t0+10m.
		_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		wantCode(t, err, reference.ERATELIMITED)
		var e *reference.Error
		if !asError(err, &e) || e.RetryAfter != 5*time.Minute {
			t.Fatalf("RetryAfter = %v, want 5m", e.RetryAfter)
		}
		_, err = s.RegenerateThumbnail(outsider, reference.RegenerateThumbnailInput{Type: "page", EntityID: 2})
		wantCode(t, err, "") // another project has its own limit
		clock.Advance(5*time.Minute - time.Second)
		_, err = s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		wantCode(t, err, reference.ERATELIMITED)
		clock.Advance(time.Second)
		_, err = s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		wantCode(t, err, "")
		_, err = s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		wantCode(t, err, reference.ERATELIMITED)
	})
	t.Run("never waits longer when the clock is set back (D104)", func(t *testing.T) {
		for _, back := range []time.Duration{time.Second, time.Hour} {
			s, clock := newStore(t)
			for range reference.ThumbnailLimit {
				_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
				wantCode(t, err, "")
			}
			clock.Advance(-back)
			// The five now lie after the clock: their window counts as over, never 600 s + back.
			_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
			var e *reference.Error
			if err != nil && (!asError(err, &e) || e.RetryAfter > reference.ThumbnailWindow) {
				t.Errorf("set back %s: Retry-After %v, past the 10-minute window", back, e.RetryAfter)
			}
			wantCode(t, err, "")
		}
	})
	t.Run("does not count refused requests (D15)", func(t *testing.T) {
		s, _ := newStore(t)
		for range 10 {
			_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 2})
			wantCode(t, err, reference.ENOTFOUND)
			_, err = s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "widget", EntityID: 1})
			wantCode(t, err, reference.ENOTFOUND)
		}
		_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		wantCode(t, err, "")
	})
	t.Run("counts regenerations loaded with the state", func(t *testing.T) {
		st := world()
		for i := range 5 {
			st.Regenerations = append(st.Regenerations, reference.Regeneration{ProjectID: projAcme, EntityID: 1, At: t0.Add(-time.Duration(9-i) * time.Minute)})
		}
		s, err := reference.New(st, reference.WithClock(&fakeClock{t: t0}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "layout", EntityID: 1})
		var e *reference.Error
		if !asError(err, &e) || e.Code != reference.ERATELIMITED || e.RetryAfter != time.Minute {
			t.Fatalf("err = %v, want rate limited for 1m", err)
		}
	})
	for _, tt := range []struct {
		name, code, field string
		in                reference.RegenerateThumbnailInput
	}{
		{"rejects an entity of another project (D38)", reference.ENOTFOUND, "", reference.RegenerateThumbnailInput{Type: "page", EntityID: 2}},
		{"rejects an entity of another type", reference.ENOTFOUND, "", reference.RegenerateThumbnailInput{Type: "layout", EntityID: 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.RegenerateThumbnail(member, tt.in)
			if tt.field != "" {
				wantField(t, err, tt.field)
			} else {
				wantCode(t, err, tt.code)
			}
		})
	}
}

func TestDeprecateThemeVersion(t *testing.T) {
	tests := []struct {
		name    string
		version int64
		code    string
		status  string
	}{
		{"deprecates an approved version", 1, "", reference.ThemeDeprecated},
		{"refuses a version that is not approved (D36)", 2, reference.EINVALID, reference.ThemePublished},
		{"leaves an already deprecated approved version as it is (D36)", 4, "", reference.ThemeDeprecated},
		{"rejects a version of another project (D12)", 3, reference.ENOTFOUND, reference.ThemePublished},
		{"rejects an unknown version", 99, reference.ENOTFOUND, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			v, err := s.DeprecateThemeVersion(member, reference.DeprecateThemeVersionInput{VersionID: tt.version})
			wantCode(t, err, tt.code)
			if tt.code == "" && (v.VersionID != tt.version || v.ThemeStatus != tt.status) {
				t.Fatalf("version = %+v", v)
			}
			for _, stored := range s.State().ThemeVersions {
				if stored.VersionID == tt.version && stored.ThemeStatus != tt.status {
					t.Fatalf("stored theme_status = %q, want %q", stored.ThemeStatus, tt.status)
				}
			}
		})
	}
}
