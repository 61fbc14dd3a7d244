package mockserver

import (
	"net/http"
	"strconv"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// serveFunc carries out an operation for a request that passed the pipeline and gives back
// the answer to write, or a reference error (envelope.go maps its code to a status).
type serveFunc func(rq *request) (answer, error)

// answer is a success to write: the envelope {error: false, message, data} with status, or,
// where the interface adds to the envelope (authenticate's `errors`), a whole body.
type answer struct {
	status  int
	message string
	data    any
	body    any // written as it is, in place of the envelope, when set
}

// reply is the status and message of an operation's success envelope.
type reply struct {
	status  int
	message string
}

func ok(message string) reply      { return reply{http.StatusOK, message} }
func created(message string) reply { return reply{http.StatusCreated, message} }

// call makes the serveFunc of an operation: decode the body into In, run op on the request's
// world for its caller, shape the result into the envelope's data.
func call[In, Out any](r reply, op func(*reference.Store, int64, In) (Out, error), data func(Out) any) serveFunc {
	return func(rq *request) (answer, error) {
		var in In
		if err := decode(rq.body, &in); err != nil {
			return answer{}, err
		}
		out, err := op(rq.state.store, rq.caller.ID, in)
		if err != nil {
			return answer{}, err
		}
		return answer{status: r.status, message: r.message, data: data(out)}, nil
	}
}

// noInput adapts an operation without body fields.
func noInput[Out any](op func(*reference.Store, int64) (Out, error)) func(*reference.Store, int64, struct{}) (Out, error) {
	return func(st *reference.Store, userID int64, _ struct{}) (Out, error) { return op(st, userID) }
}

// noResult adapts an operation whose data is an empty array.
func noResult[In any](op func(*reference.Store, int64, In) error) func(*reference.Store, int64, In) (struct{}, error) {
	return func(st *reference.Store, userID int64, in In) (struct{}, error) {
		return struct{}{}, op(st, userID, in)
	}
}

// public adapts an operation that has no caller.
func public[In, Out any](op func(*reference.Store, In) (Out, error)) func(*reference.Store, int64, In) (Out, error) {
	return func(st *reference.Store, _ int64, in In) (Out, error) { return op(st, in) }
}

// Shapers of the envelope's data.

func asIs[T any](v T) any { return v }

func empty(struct{}) any { return emptyData }

func under[T any](key string) func(T) any {
	return func(v T) any { return map[string]any{key: v} }
}

func list[T any](key string) func([]T) any {
	return func(v []T) any {
		if v == nil {
			v = []T{}
		}
		return map[string]any{key: v}
	}
}

// masterBoardTitles: the interface types master-boards/list's data.boards as string[]; each
// entry is a master board's title, in the order of the list (D21).
func masterBoardTitles(v []reference.Board) any {
	titles := make([]string, len(v))
	for i, b := range v {
		titles[i] = b.Title
	}
	return map[string]any{"boards": titles}
}

func widgetCards(v reference.WidgetCards) any {
	if v.Cards == nil {
		v.Cards = []reference.Card{}
	}
	return v
}

// masterCardCreated: projects_updated is a string on create (D22).
func masterCardCreated(v reference.MasterCardResult) any {
	return map[string]any{"card": v.Card, "projects_updated": strconv.FormatInt(v.ProjectsUpdated, 10)}
}

// masterCardUpdated: projects_updated is an integer on update (D22).
func masterCardUpdated(v reference.MasterCardResult) any {
	return map[string]any{"card": v.Card, "projects_updated": v.ProjectsUpdated}
}

// versionDeprecated: version_id is a string in the deprecation's answer.
func versionDeprecated(v reference.ThemeVersion) any {
	return map[string]any{"version_id": strconv.FormatInt(v.VersionID, 10), "theme_status": v.ThemeStatus}
}

// authenticateBody is the answer of /v1/authenticate: the envelope plus `errors`.
type authenticateBody struct {
	Error   bool                   `json:"error"`
	Message string                 `json:"message"`
	Data    *reference.LoginResult `json:"data,omitempty"`
	Errors  []string               `json:"errors"`
}

// authenticate is the row of /v1/authenticate: 429 while the client address, or the address
// for this e-mail, has spent its failures in any world (D71, D144; the store throttles per
// e-mail in its world); 200 with a token; 401 with the same answer for a wrong e-mail and a
// wrong password (D1), counted against the address and the e-mail.
func (s *Server) authenticate(rq *request) (answer, error) {
	var in reference.AuthenticateInput
	if err := decode(rq.body, &in); err != nil {
		return answer{}, err
	}
	// One throttle for worlds with clocks of their own: it runs on real time (D144).
	if after := s.logins.blocked(rq.addr, in.Email, time.Now()); after > 0 {
		return answer{}, &reference.Error{Code: reference.ERATELIMITED, Message: reference.LoginThrottledMessage, RetryAfter: after}
	}
	res, err := rq.state.store.Authenticate(in)
	switch {
	case err == nil:
		return answer{status: http.StatusOK, body: authenticateBody{Message: "Login successful.", Data: &res, Errors: []string{}}}, nil
	case reference.ErrorCode(err) == reference.EUNAUTHENTICATED:
		s.logins.failed(rq.addr, in.Email, time.Now())
		return loginRefused(reference.ErrorMessage(err)), nil
	}
	return answer{}, err
}

// loginRefused is authenticate's 401: its own body, the message in `errors` too.
func loginRefused(msg string) answer {
	return answer{status: http.StatusUnauthorized, body: authenticateBody{Error: true, Message: msg, Errors: []string{msg}}}
}

// commentsData and cardsData shape the two answers encode.go writes by hand.
func commentsData(v reference.CommentPage) any { return commentPage(v) }
func cardsData(v []reference.Card) any         { return cardList(v) }
