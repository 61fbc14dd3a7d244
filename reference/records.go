package reference

import "time"

// PlatformID is the platform_id of every record (D16).
const PlatformID int64 = 1

// Project is a customer project. Tools lists the tool keys it subscribes to.
type Project struct {
	ID    int64    `json:"id"`
	Name  string   `json:"name"`
	Tools []string `json:"tools"`
}

// User is an account. Password is kept in clear: this is a mock whose fixture credentials are
// published in its manifest.
type User struct {
	ID           int64   `json:"id"`
	ProjectID    int64   `json:"project_id"`
	Name         string  `json:"name"`
	Email        string  `json:"email"`
	Password     string  `json:"password"`
	Language     *string `json:"language"`
	IsSuperadmin bool    `json:"is_superadmin"`
}

// Board is a task board. Master boards have IsMaster true and no ProjectID (D17); a project's
// copy of a master board has MasterBoardID set (D23).
type Board struct {
	ID            int64      `json:"id"`
	ProjectID     *int64     `json:"project_id"`
	PlatformID    int64      `json:"platform_id"`
	IsMaster      bool       `json:"is_master"`
	MasterBoardID *int64     `json:"master_board_id"`
	ToolKey       *string    `json:"tool_key"`
	Title         string     `json:"title"`
	Description   *string    `json:"description"`
	Color         *string    `json:"color"`
	Icon          *string    `json:"icon"`
	Position      int64      `json:"position"`
	IsActive      bool       `json:"is_active"`
	CreatedBy     *int64     `json:"created_by"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	DeletedAt     *time.Time `json:"deleted_at"`
}

// Group is a column of a board (interface: Group).
type Group struct {
	ID            int64      `json:"id"`
	ProjectID     *int64     `json:"project_id"`
	PlatformID    int64      `json:"platform_id"`
	IsMaster      bool       `json:"is_master"`
	MasterGroupID *int64     `json:"master_group_id"`
	BoardID       int64      `json:"board_id"`
	Title         string     `json:"title"`
	Description   *string    `json:"description"`
	Type          string     `json:"type"`
	Color         *string    `json:"color"`
	Icon          *string    `json:"icon"`
	Position      int64      `json:"position"`
	IsCollapsed   bool       `json:"is_collapsed"`
	IsActive      bool       `json:"is_active"`
	CreatedBy     *int64     `json:"created_by"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
	DeletedAt     *time.Time `json:"deleted_at"`
}

// Card is a task card (interface: Card). IsOverdue is computed when the card is read (D31).
type Card struct {
	ID               int64      `json:"id"`
	ProjectID        *int64     `json:"project_id"`
	PlatformID       int64      `json:"platform_id"`
	IsMaster         bool       `json:"is_master"`
	IsActive         bool       `json:"is_active"`
	MasterCardID     *int64     `json:"master_card_id"`
	UniqueIdentifier *string    `json:"unique_identifier"`
	EvaluationCheck  *string    `json:"evaluation_check"`
	TourKey          *string    `json:"tour_key"`
	ShortDescription *string    `json:"short_description"`
	CardType         string     `json:"card_type"`
	GroupID          *int64     `json:"group_id"`
	Title            string     `json:"title"`
	Description      *string    `json:"description"`
	Status           string     `json:"status"`
	OwnerID          *int64     `json:"owner_id"`
	TagID            *int64     `json:"tag_id"`
	DueDate          *time.Time `json:"due_date"`
	SnoozedUntil     *time.Time `json:"snoozed_until"`
	Priority         string     `json:"priority"`
	SortOrder        int64      `json:"sort_order"`
	Position         int64      `json:"position"`
	IsOverdue        bool       `json:"is_overdue"`
	CreatedBy        *int64     `json:"created_by"`
	CreatedAt        time.Time  `json:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at"`
	DeletedAt        *time.Time `json:"deleted_at"`
}

// Comment is a comment on a card; ParentCommentID makes it a reply.
type Comment struct {
	ID              int64      `json:"id"`
	ProjectID       int64      `json:"project_id"`
	CardID          int64      `json:"card_id"`
	UserID          int64      `json:"user_id"`
	Comment         string     `json:"comment"`
	IsRead          bool       `json:"is_read"`
	ReadAt          *time.Time `json:"read_at"`
	ParentCommentID *int64     `json:"parent_comment_id"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
	DeletedAt       *time.Time `json:"deleted_at"`
}

// Tag labels cards of a project.
type Tag struct {
	ID        int64      `json:"id"`
	ProjectID int64      `json:"project_id"`
	Name      string     `json:"name"`
	Color     *string    `json:"color"`
	Icon      *string    `json:"icon"`
	Position  int64      `json:"position"`
	IsActive  bool       `json:"is_active"`
	CreatedBy *int64     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
	DeletedAt *time.Time `json:"deleted_at"`
}

// Conversation statuses (D33).
const (
	ConversationActive   = "active"
	ConversationArchived = "archived"
)

// Conversation is an AI assistant conversation of one user (D33).
type Conversation struct {
	ID        int64     `json:"id"`
	UserID    int64     `json:"user_id"`
	Title     string    `json:"title"`
	Status    string    `json:"status"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Cart statuses (D34).
const (
	CartOpen   = "open"
	CartLocked = "locked"
)

// CartItemActions are what a cart item does with its domain (D34).
var CartItemActions = []string{"register", "transfer", "renew"}

// MaxCartItemYears is the longest a cart item may register or renew its domain for (D76).
const MaxCartItemYears = 100

// Cart is an anonymous domain cart; SessionToken is its capability (interface: Cart).
// TotalPrice and ItemCount are recomputed from Items on every change.
type Cart struct {
	SessionToken string     `json:"session_token"`
	Status       string     `json:"status"`
	Currency     string     `json:"currency"`
	TotalPrice   float64    `json:"total_price"`
	ItemCount    int        `json:"item_count"`
	IsClaimed    bool       `json:"is_claimed"`
	Items        []CartItem `json:"items"`
}

// CartItem is one domain in a cart (D34).
type CartItem struct {
	ID         int64   `json:"id"`
	DomainName string  `json:"domain_name"`
	TLD        string  `json:"tld"`
	Action     string  `json:"action"`
	Years      int     `json:"years"`
	Price      float64 `json:"price"`
	Currency   string  `json:"currency"`
}

// Website entity types, the values of the thumbnail `type` field.
const (
	EntityPage     = "page"
	EntityTemplate = "template"
	EntityLayout   = "layout"
)

// WebsiteEntity is a page, template (partial) or layout of a project's website (D38).
type WebsiteEntity struct {
	ID           int64  `json:"id"`
	ProjectID    int64  `json:"project_id"`
	Type         string `json:"type"`
	Name         string `json:"name"`
	PreviewImage string `json:"preview_image"`
	Revision     int64  `json:"revision"`
}

// Theme statuses and approval statuses (D37).
const (
	ThemeDraft      = "draft"
	ThemePublished  = "published"
	ThemeDeprecated = "deprecated"

	ApprovalPending  = "pending"
	ApprovalApproved = "approved"
	ApprovalRejected = "rejected"
)

// ThemeVersion is a published version of a website theme (D37).
type ThemeVersion struct {
	VersionID      int64  `json:"version_id"`
	ProjectID      int64  `json:"project_id"`
	ThemeID        int64  `json:"theme_id"`
	Version        string `json:"version"`
	ThemeStatus    string `json:"theme_status"`
	ApprovalStatus string `json:"approval_status"`
}
