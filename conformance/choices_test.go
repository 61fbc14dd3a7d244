package conformance_test

// The reference's choices for the gaps of the interface, in words: a reference spec's failure
// message states the choice it checks, so a vendor reads what the reference does without
// docs/decisions.md. Each constant's comment names its decision.
const (
	// D1
	choiceStatus = "the reference answers 200 to every success, and 401 to a wrong e-mail or password with one answer for both"
	// D2
	choiceBody = "the reference answers 400 to a body that is not a JSON object (422 keyed by the required fields where the operation lists no 400), and reads an empty body as {}"
	// D4
	choice403Shape = "the reference answers a superadmin refusal with a 403 of shape (b) and a domain refusal with shape (a)"
	// D10
	choiceToken = "the reference takes the login token as the bearer token; every login issues a new one and earlier ones stay valid"
	// D12
	choiceOtherProject = "the reference answers 404 to a record of another project, never its data"
	// D13
	choiceSubscription = "the reference answers 403 shape (a) to a widget list for a tool the project does not subscribe to"
	// D215
	choiceStrayAuth = "the reference ignores an Authorization header sent to authenticate, whatever it holds"
	// D14
	choiceRateWindow = "the reference keeps one one-minute window per user and operation, shared by every token of the user"
	// D15
	choiceThumbnails = "the reference accepts 5 regenerations per project per rolling 10 minutes, then answers 429 with Retry-After until the oldest leaves the window"
	// D17
	choiceMasterRecord = "the reference's master records have is_master true and no project"
	// D19
	choiceCardDefaults = "the reference creates a card with status open and priority normal unless told otherwise"
	// D219
	choiceCodePoints = "the reference counts a character beyond the Basic Multilingual Plane (an emoji) as one, as UTF-8 code points count"
	// D19
	choiceOpenValues = "the reference takes any text of at most 50 characters as a card's status (its allowed values are not shown)"
	// D20
	choiceWholeRecords = "the reference's lists carry whole records, the fields a create returns"
	// D21
	choiceMixedRecords = "the reference answers records typed \"string or mixed\" with the whole JSON record, and master-boards/list with one title per live master board"
	// D22
	choiceProjectsUpdated = "the reference counts projects_updated as the projects reached: a string on create, an integer on update"
	// D23
	choicePushTargets = "the reference pushes and syncs a master board's content to every project subscribed to the board's tool"
	// D24
	choiceSyncCounters = "the reference's sync counts synced projects, board copies created and projects skipped, adds missing card copies, and a second sync creates nothing"
	// D25
	choiceGroupDelete = "the reference deletes a group's cards with it: they leave every list"
	// D26
	choiceCommentPages = "the reference pages comments 15 at a time from page 1, oldest first, replies included"
	// D27
	choiceReplyParent = "the reference answers 404 to a reply whose parent is missing or on another card"
	// D28
	choiceCardRefs = "the reference answers 404 to a group_id, owner_id or tag_id that is not a record of the caller's project"
	// D29
	choiceSnoozed = "the reference leaves snoozed cards out of the widget list unless include_snoozed is true, and always counts them"
	// D30
	choiceToolFilter = "the reference reads boards/list's optional tool_key filter from the body"
	// D32
	choiceTourCards = "the reference's tour card update acts on master cards of type tour or widget_tour only, else 404"
	// D32
	choiceTourStatusOnMaster = "the reference keeps the status a tour card update sets on the master card itself, which master-cards/update then answers"
	// D33
	choiceConversations = "the reference lets only a conversation's owner restore it (others get 404), and restoring an active one changes nothing"
	// D34
	choiceCarts = "the reference's carts are open or locked, and total_price is the sum of the items' prices rounded to cents"
	// D35
	choiceCartChecks = "the reference answers 404 to an unknown session token, 409 to a locked cart whatever the item, and 404 to an item not in the cart"
	// D36
	choiceDeprecate = "the reference answers 400 shape (a) to a version that is not approved, and deprecating a deprecated version again changes nothing"
	// D37
	choiceThemeVersion = "the reference's theme versions carry version_id, theme_id, version, theme_status and approval_status"
	// D38
	choiceThumbnailEntities = "the reference answers 404 to a page, template or layout that is missing or of another project"
	// D43
	choiceCommentsCard = "the reference answers 422 keyed by card_id to comments/list for a card that is missing or of another project"
)
