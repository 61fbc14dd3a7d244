package reference

// LoginResult is the data of a successful authenticate (interface: Login result).
type LoginResult struct {
	NeedsCodeRegeneration bool    `json:"needs_code__regeneration"`
	WarnMessage           string  `json:"warn_message"`
	Token                 string  `json:"token"`
	Language              *string `json:"language"`
	ID                    int64   `json:"id"`
	Name                  string  `json:"name"`
	Email                 string  `json:"email"`
}

// Pagination describes one page of a list (interface: Pagination object).
type Pagination struct {
	Total       int64 `json:"total"`
	PerPage     int64 `json:"per_page"`
	CurrentPage int64 `json:"current_page"`
	TotalPages  int64 `json:"total_pages"`
}

// CommentPage is the data of comments/list.
type CommentPage struct {
	Comments   []Comment  `json:"comments"`
	Pagination Pagination `json:"pagination"`
}

// WidgetCards is the data of widget/cards/list.
type WidgetCards struct {
	Cards        []Card `json:"cards"`
	SnoozedCount int64  `json:"snoozed_count"`
}

// MasterCardResult is the outcome of a master card create or update: the card and how many
// projects (create) or project copies (update) were changed (D22).
type MasterCardResult struct {
	Card            Card
	ProjectsUpdated int64
}

// SyncResult is the data of admin/master-boards/sync (D24).
type SyncResult struct {
	SyncedCount     int64 `json:"synced_count"`
	BoardsCreated   int64 `json:"boards_created"`
	SkippedNoAccess int64 `json:"skipped_no_access"`
}

// Thumbnail is the data of thumbnails/regenerate.
type Thumbnail struct {
	PreviewImage string `json:"preview_image"`
}
