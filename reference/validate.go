package reference

import "strings"

// Field limits and enumerations of the interface (its Limits and States tables). On the HTTP
// path the OpenAPI document is the one validator of a request's fields; the store checks only
// what a schema cannot say (blank strings D44, references, caps, states). These values serve
// the checks of whole records that do not come through a request (a loaded snapshot).
const (
	maxTitle      = 255
	maxColor      = 50
	maxIcon       = 100
	maxStatus     = 50
	maxToolKey    = 100 // master board create
	maxWidgetTool = 50  // widget cards list
	maxMasterKey  = 100 // unique_identifier, evaluation_check, tour_key
	maxSession    = 64
	maxPerPage    = 100 // comments list
)

// Enumerations of the interface.
var (
	priorities         = []string{"low", "normal", "high", "urgent"}
	masterCardStatuses = []string{"open", "in_progress", "closed", "to_check", "blocked"}
	tourCardStatuses   = []string{"open", "closed"}
	cardTypes          = []string{"widget", "widget_tour", "tour"}
	entityTypes        = []string{EntityPage, EntityTemplate, EntityLayout}
)

// fieldErrors collects the field failures a store method finds, worded by messages.go.
type fieldErrors map[string][]string

func (f *fieldErrors) add(field, sentence string) {
	if *f == nil {
		*f = fieldErrors{}
	}
	(*f)[field] = append((*f)[field], sentence)
}

// notBlank checks a required string: empty or white space only is missing (D44).
func (f *fieldErrors) notBlank(field, v string) {
	if strings.TrimSpace(v) == "" {
		f.add(field, MsgRequired(field))
	}
}

// optNotBlank checks a string that may be omitted but, when sent, must not be blank (D44).
func (f *fieldErrors) optNotBlank(field string, o Optional[string]) {
	if o.Present() {
		f.notBlank(field, o.Value)
	}
}

// err returns nil or the EVALIDATION error of the failures (D5).
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return Invalid(f)
}
