package reference

import "time"

// The inputs of the operations, decoded by the HTTP adapter from the request body after the
// spec has validated it. Field names follow the interface. Optional fields are Optional[T]
// (omitted, null or a value: D18).

// AuthenticateInput is the body of /v1/authenticate.
type AuthenticateInput struct {
	Email      string           `json:"email"`
	Password   string           `json:"password"`
	Token      Optional[string] `json:"token"`
	Code       Optional[string] `json:"code"`
	IsRecovery Optional[bool]   `json:"is_recovery"`
}

// ListCommentsInput is the body of comments/list.
type ListCommentsInput struct {
	CardID  int64           `json:"card_id"`
	Page    Optional[int64] `json:"page"`
	PerPage Optional[int64] `json:"per_page"`
}

// CreateMasterCardInput is the body of admin/master-cards/create.
type CreateMasterCardInput struct {
	GroupID          int64            `json:"group_id"`
	Title            string           `json:"title"`
	Description      Optional[string] `json:"description"`
	UniqueIdentifier Optional[string] `json:"unique_identifier"`
	EvaluationCheck  Optional[string] `json:"evaluation_check"`
	TourKey          Optional[string] `json:"tour_key"`
	ShortDescription Optional[string] `json:"short_description"`
	CardType         Optional[string] `json:"card_type"`
	Status           Optional[string] `json:"status"`
	IsActive         Optional[bool]   `json:"is_active"`
	Priority         Optional[string] `json:"priority"`
	PushToProjects   Optional[bool]   `json:"push_to_projects"`
}

// UpdateMasterCardInput is the body of admin/master-cards/update.
type UpdateMasterCardInput struct {
	ID               int64            `json:"id"`
	GroupID          Optional[int64]  `json:"group_id"`
	Title            Optional[string] `json:"title"`
	Description      Optional[string] `json:"description"`
	UniqueIdentifier Optional[string] `json:"unique_identifier"`
	EvaluationCheck  Optional[string] `json:"evaluation_check"`
	TourKey          Optional[string] `json:"tour_key"`
	ShortDescription Optional[string] `json:"short_description"`
	CardType         Optional[string] `json:"card_type"`
	Status           Optional[string] `json:"status"`
	IsActive         Optional[bool]   `json:"is_active"`
	Priority         Optional[string] `json:"priority"`
	SyncToProjects   Optional[bool]   `json:"sync_to_projects"`
}

// UpdateCardInput is the body of cards/update.
type UpdateCardInput struct {
	ID           int64               `json:"id"`
	Title        Optional[string]    `json:"title"`
	Description  Optional[string]    `json:"description"`
	GroupID      Optional[int64]     `json:"group_id"`
	Status       Optional[string]    `json:"status"`
	OwnerID      Optional[int64]     `json:"owner_id"`
	TagID        Optional[int64]     `json:"tag_id"`
	DueDate      Optional[time.Time] `json:"due_date"`
	Priority     Optional[string]    `json:"priority"`
	SnoozedUntil Optional[time.Time] `json:"snoozed_until"`
}

// UpdateBoardInput is the body of boards/update.
type UpdateBoardInput struct {
	ID          int64            `json:"id"`
	Title       Optional[string] `json:"title"`
	Description Optional[string] `json:"description"`
	Color       Optional[string] `json:"color"`
	Icon        Optional[string] `json:"icon"`
	Position    Optional[int64]  `json:"position"`
}

// UpdateMasterGroupInput is the body of admin/master-groups/update.
type UpdateMasterGroupInput struct {
	ID          int64            `json:"id"`
	Title       Optional[string] `json:"title"`
	Description Optional[string] `json:"description"`
}

// ListWidgetCardsInput is the body of widget/cards/list.
type ListWidgetCardsInput struct {
	ToolKey        string         `json:"tool_key"`
	IncludeSnoozed Optional[bool] `json:"include_snoozed"`
}

// UpdateTourCardInput is the body of tour/cards/update.
type UpdateTourCardInput struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
}

// SyncMasterBoardInput is the body of admin/master-boards/sync.
type SyncMasterBoardInput struct {
	BoardID int64 `json:"board_id"`
}

// DeleteGroupInput is the body of groups/delete.
type DeleteGroupInput struct {
	ID int64 `json:"id"`
}

// RestoreConversationInput is the body of conversations/restore.
type RestoreConversationInput struct {
	ConversationID int64 `json:"conversation_id"`
}

// CreateMasterBoardInput is the body of admin/master-boards/create.
type CreateMasterBoardInput struct {
	Title       string           `json:"title"`
	ToolKey     string           `json:"tool_key"`
	Description Optional[string] `json:"description"`
	Color       Optional[string] `json:"color"`
	Icon        Optional[string] `json:"icon"`
}

// ListBoardsInput is the body of boards/list; ToolKey filters by tool (D30).
type ListBoardsInput struct {
	ToolKey Optional[string] `json:"tool_key"`
}

// CreateCardInput is the body of cards/create.
type CreateCardInput struct {
	Title       string              `json:"title"`
	Description Optional[string]    `json:"description"`
	GroupID     Optional[int64]     `json:"group_id"`
	Status      Optional[string]    `json:"status"`
	OwnerID     Optional[int64]     `json:"owner_id"`
	TagID       Optional[int64]     `json:"tag_id"`
	DueDate     Optional[time.Time] `json:"due_date"`
	Priority    Optional[string]    `json:"priority"`
}

// CreateMasterGroupInput is the body of admin/master-groups/create.
type CreateMasterGroupInput struct {
	BoardID     int64            `json:"board_id"`
	Title       string           `json:"title"`
	Description Optional[string] `json:"description"`
}

// CreateCommentInput is the body of comments/create.
type CreateCommentInput struct {
	CardID          int64           `json:"card_id"`
	Comment         string          `json:"comment"`
	ParentCommentID Optional[int64] `json:"parent_comment_id"`
}

// CreateTagInput is the body of tags/create.
type CreateTagInput struct {
	Name     string           `json:"name"`
	Color    Optional[string] `json:"color"`
	Icon     Optional[string] `json:"icon"`
	Position Optional[int64]  `json:"position"`
}

// RemoveCartItemInput is the body of domain-cart/remove.
type RemoveCartItemInput struct {
	SessionToken string `json:"session_token"`
	CartItemID   int64  `json:"cart_item_id"`
}

// RegenerateThumbnailInput is the body of thumbnails/regenerate.
type RegenerateThumbnailInput struct {
	Type     string `json:"type"`
	EntityID int64  `json:"entity_id"`
}

// DeprecateThemeVersionInput is the body of themes/versions/deprecate.
type DeprecateThemeVersionInput struct {
	VersionID int64 `json:"version_id"`
}
