package conformance_test

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	. "github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/flow"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// Recorded flows (CONFORMANCE_FLOWS, D170–D172): one spec per flow, a By per step. A step
// fails when a reference cannot be bound, when the answer breaks what every answer must
// satisfy (send: the suite's answer checks), or when its status class is not the recording's.
var _ = Describe("Recorded flows", func() {
	path := os.Getenv(EnvFlows)
	if path == "" {
		return
	}
	files, err := flow.Load(path, operationIDs())
	if err != nil {
		It("reads the flows of "+EnvFlows, Label(LabelFlow, LabelEffectRead), func() {
			Fail(fmt.Sprintf("%s=%s: %s", EnvFlows, path, err))
		})
		return
	}
	for _, f := range files {
		// The flow's name is cut as its failures quote it: the spec name heads every report.
		name := fmt.Sprintf("replays %s (%s)", text.Clip(noControls(f.Doc.Name), 200), noControls(filepath.Base(f.Path)))
		if f.Err != nil {
			It(name, Label(LabelFlow, LabelEffectRead), func() { Fail(f.Err.Error()) })
			continue
		}
		It(name, FlowLabels(f.Doc), func() { replay(f.Doc) })
	}
})

// noControls writes the control characters of a name a flow file gave (its own or the file's)
// as "?": the spec name is printed to the terminal and the reports, which a flow must not
// recolour, clear or retitle.
func noControls(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// replay sends the steps of doc in order, each bound through the target's manifest and the
// answers of the steps before it.
func replay(doc flow.Document) {
	if err := flow.CheckManifest(doc, manifest); err != nil {
		Fail(err.Error() + " (nothing was sent)")
	}
	if slices.ContainsFunc(doc.Steps, func(st flow.Step) bool { return st.As == flow.AsTeammate }) && !hasTeammate() {
		Fail(fmt.Sprintf("flow %q calls as the member's teammate, whom the target's manifest does not name: add users.teammate (or tokens.teammate) to the manifest (nothing was sent)", noControls(doc.Name)))
	}
	answers := map[int]any{}
	for _, st := range doc.Steps {
		By(st.Title())
		op, _ := OperationByID(st.Operation) // Parse checked it
		body, err := flow.Bind(doc.Name, st, manifest, answers)
		if be := (*flow.BindError)(nil); errors.As(err, &be) && be.Target {
			Skip(be.Error() + ": the deployment holds other records than the mock the flow was recorded on, as it may, so the flow cannot be replayed here (this says nothing against the deployment; replay it against a deployment seeded alike, or record the flow choosing a record every deployment holds)")
		}
		if err != nil {
			Fail(err.Error())
		}
		r := Request{Op: op, As: st.As, Intent: Raw}
		if body != nil { // a step without a body sends {} (a nil map would encode as null)
			r.Body = body
		}
		if st.RawBody != nil {
			r.RawBody = []byte(*st.RawBody)
		}
		switch st.As {
		case flow.AsMember:
			r.Token = token(member, op)
		case flow.AsSuperadmin:
			r.Token = token(superadmin, op)
		case flow.AsOutsider:
			r.Token = token(outsider, op)
		case flow.AsTeammate:
			r.Token = token(teammate, op)
		case flow.AsInvalid:
			r.Token = BadToken
		}
		for k, v := range st.Headers {
			if r.Header == nil {
				r.Header = http.Header{}
			}
			r.Header.Set(k, v)
		}
		var ex *Exchange
		if err := InterceptGomegaFailure(func() { ex = send(r) }); err != nil {
			Fail(doc.CheckFailure(st, err.Error())) // the suite's answer checks, in the flow's words
		}
		if why := doc.ClassMismatch(st, ex.Status, ex.RefusedInSuccess(), ex.Describe()); why != "" {
			Fail(why)
		}
		if ex.JSON != nil {
			answers[st.Step] = ex.JSON
		}
	}
}

// operationIDs are the operation ids a flow may name.
func operationIDs() []string {
	ids := make([]string, len(Operations))
	for i, op := range Operations {
		ids[i] = op.ID
	}
	return ids
}
