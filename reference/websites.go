package reference

import (
	"fmt"
	"slices"
	"time"
)

// The thumbnail limit: accepted regenerations per project per rolling window (D15).
const (
	ThumbnailLimit  = 5
	ThumbnailWindow = 10 * time.Minute
)

// RegenerateThumbnail starts the regeneration of the preview of a page, template or layout of
// the caller's project and returns its new preview_image URL, which changes on every
// regeneration (D38). An entity of another project or that does not exist is ENOTFOUND. At
// most 5 regenerations are accepted per project per rolling 10 minutes; the 6th is
// ERATELIMITED with RetryAfter = the time until the oldest of the five leaves the window.
// Refused requests do not count (D15).
func (s *Store) RegenerateThumbnail(userID int64, in RegenerateThumbnailInput) (Thumbnail, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return Thumbnail{}, err
	}
	key := entityKey{Type: in.Type, ID: in.EntityID}
	e, ok := s.entities[key]
	if !ok || e.ProjectID != project {
		return Thumbnail{}, Errorf(ENOTFOUND, "The %s %d was not found.", in.Type, in.EntityID)
	}
	now := s.windowNow() // stamps At too: a regeneration's window must end where it is measured
	recent := s.recentRegenerations(project, now)
	if n := len(recent); n >= ThumbnailLimit {
		oldest := recent[n-ThumbnailLimit].At // leaving the window brings the count under the limit
		return Thumbnail{}, ThumbnailLimitError(oldest.Add(ThumbnailWindow).Sub(now))
	}
	e.Revision++
	e.PreviewImage = PreviewURL(e)
	put(s, s.entities, key, e)
	recent = append(recent, Regeneration{ProjectID: project, EntityID: e.ID, At: now})
	slices.SortStableFunc(recent, func(a, b Regeneration) int { return a.At.Compare(b.At) })
	put(s, s.regenerations, project, recent)
	return Thumbnail{PreviewImage: e.PreviewImage}, nil
}

// recentRegenerations drops the project's regenerations that left the window and returns the
// others, oldest first. One stamped after now (the clock was set back) counts as over: going
// back never lengthens a wait (D104), and Retry-After stays within the 10 minutes.
func (s *Store) recentRegenerations(project int64, now time.Time) []Regeneration {
	var recent []Regeneration
	for _, r := range s.regenerations[project] {
		if !r.At.After(now) && now.Before(r.At.Add(ThumbnailWindow)) {
			recent = append(recent, r)
		}
	}
	put(s, s.regenerations, project, recent)
	return recent
}

// PreviewURL names the preview image of an entity's current revision (D38, D52).
func PreviewURL(e WebsiteEntity) string {
	return fmt.Sprintf("https://thumbnails.mock.invalid/projects/%d/%ss/%d/preview-r%d.png",
		e.ProjectID, e.Type, e.ID, e.Revision)
}

// DeprecateThemeVersion sets theme_status to deprecated on an approved theme version of the
// caller's project. A version that is not approved is EINVALID (D36); an already deprecated
// approved version is returned unchanged; another project's version is ENOTFOUND.
func (s *Store) DeprecateThemeVersion(userID int64, in DeprecateThemeVersionInput) (ThemeVersion, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	project, err := s.member(userID)
	if err != nil {
		return ThemeVersion{}, err
	}
	v, ok := s.themes[in.VersionID]
	if !ok || v.ProjectID != project {
		return ThemeVersion{}, Errorf(ENOTFOUND, "Theme version %d not found.", in.VersionID)
	}
	if v.ApprovalStatus != ApprovalApproved {
		return ThemeVersion{}, Errorf(EINVALID, "Only an approved theme version can be deprecated; version %d is %s.", v.VersionID, v.ApprovalStatus)
	}
	if v.ThemeStatus != ThemeDeprecated {
		v.ThemeStatus = ThemeDeprecated
		put(s, s.themes, v.VersionID, v)
	}
	return v, nil
}

// ThumbnailLimitError is the refusal of a regeneration past ThumbnailLimit in the window
// (LIMIT-3), to be tried again after retryAfter.
func ThumbnailLimitError(retryAfter time.Duration) *Error {
	return &Error{
		Code:       ERATELIMITED,
		Message:    fmt.Sprintf("Too many thumbnail regenerations: at most %d per project per 10 minutes.", ThumbnailLimit),
		RetryAfter: retryAfter,
	}
}
