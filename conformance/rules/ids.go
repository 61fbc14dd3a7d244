package rules

// ID is the stable id of a rule of the registry ("ENV-2"). Every id has one constant below,
// named after it without its hyphens; a check cites the constant of the rule it judges, so a
// citation of a rule the registry lacks does not compile.
type ID string

// The ids of the registry, in its order.
const (
	ENV1      ID = "ENV-1"
	ENV2      ID = "ENV-2"
	ENV3      ID = "ENV-3"
	ENV4      ID = "ENV-4"
	DOC1      ID = "DOC-1"
	STATUS1   ID = "STATUS-1"
	STATUS2   ID = "STATUS-2"
	DATA1     ID = "DATA-1"
	HDR1      ID = "HDR-1"
	HDR2      ID = "HDR-2"
	UP1       ID = "UP-1"
	REQ1      ID = "REQ-1"
	AUTH1     ID = "AUTH-1"
	AUTH2     ID = "AUTH-2"
	AUTH3     ID = "AUTH-3"
	AUTH4     ID = "AUTH-4"
	AUTH5     ID = "AUTH-5"
	ERR1      ID = "ERR-1"
	ERR2      ID = "ERR-2"
	ERR3      ID = "ERR-3"
	ERR4      ID = "ERR-4"
	ERR5      ID = "ERR-5"
	ERR7      ID = "ERR-7"
	ERR6      ID = "ERR-6"
	ERR8      ID = "ERR-8"
	LIMIT1    ID = "LIMIT-1"
	LIMIT2    ID = "LIMIT-2"
	LIMIT3    ID = "LIMIT-3"
	CART1     ID = "CART-1"
	CART2     ID = "CART-2"
	CART3     ID = "CART-3"
	CART4     ID = "CART-4"
	TRANS1    ID = "TRANS-1"
	TRANS2    ID = "TRANS-2"
	TRANS3    ID = "TRANS-3"
	TRANS4    ID = "TRANS-4"
	TRANS5    ID = "TRANS-5"
	LIST1     ID = "LIST-1"
	PUSH1     ID = "PUSH-1"
	SYNC1     ID = "SYNC-1"
	SNOOZE1   ID = "SNOOZE-1"
	TOOL1     ID = "TOOL-1"
	GROUP1    ID = "GROUP-1"
	COMMENT1  ID = "COMMENT-1"
	PAGE1     ID = "PAGE-1"
	ISO1      ID = "ISO-1"
	REFLIMIT  ID = "REF-LIMIT"
	REFTHUMB  ID = "REF-THUMB"
	REFGROUP  ID = "REF-GROUP"
	REFCART   ID = "REF-CART"
	REFCOUNTS ID = "REF-COUNTS"
	REFERRORS ID = "REF-ERRORS"
)

// The ids of the probe matrix's rules (conformance/probe.go), kept apart so the block above
// keeps its alignment.
const (
	AUTH6         ID = "AUTH-6"
	AUTH7         ID = "AUTH-7"
	ID1           ID = "ID-1"
	SCOPE1        ID = "SCOPE-1"
	LIMIT4        ID = "LIMIT-4"
	LIMIT5        ID = "LIMIT-5"
	LIMIT6        ID = "LIMIT-6"
	REFID         ID = "REF-ID"
	REFLIMITFRESH ID = "REF-LIMIT-FRESH"
)
