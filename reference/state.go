package reference

import "time"

// State is the whole content of a Store as plain data: what fixtures build, what New loads and
// what Store.State exports (snapshots). Slices are ordered by id. The next id of each kind is
// one more than the largest id in use.
type State struct {
	Projects      []Project       `json:"projects"`
	Users         []User          `json:"users"`
	Tokens        []Token         `json:"tokens"`
	Boards        []Board         `json:"boards"`
	Groups        []Group         `json:"groups"`
	Cards         []Card          `json:"cards"`
	Comments      []Comment       `json:"comments"`
	Tags          []Tag           `json:"tags"`
	Conversations []Conversation  `json:"conversations"`
	Carts         []Cart          `json:"carts"`
	Entities      []WebsiteEntity `json:"website_entities"`
	ThemeVersions []ThemeVersion  `json:"theme_versions"`
	Regenerations []Regeneration  `json:"thumbnail_regenerations"`
}

// Token is an issued bearer token (D10).
type Token struct {
	Token    string    `json:"token"`
	UserID   int64     `json:"user_id"`
	IssuedAt time.Time `json:"issued_at"`
}

// Regeneration records one accepted thumbnail regeneration, for the per-project limit (D15).
type Regeneration struct {
	ProjectID int64     `json:"project_id"`
	EntityID  int64     `json:"entity_id"`
	At        time.Time `json:"at"`
}
