package flow_test

import (
	"encoding/json"
	"fmt"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// Build writes recorded calls as a flow: the group id the manifest names becomes a reference
// to its key, the card id the first answer made a reference to that answer.
func ExampleBuild() {
	manifest := map[string]any{"operations": map[string]any{"group_id": 7}}
	doc := flow.Build("checkout", []flow.Call{
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"Toner","group_id":7}`), Status: 200,
			Answer: []byte(`{"error":false,"message":"Card created.","data":{"card":{"id":51,"title":"Toner"}}}`)},
		{Operation: "commentsCreate", As: flow.AsMember, Request: []byte(`{"card_id":51,"comment":"Two"}`), Status: 200,
			Answer: []byte(`{"error":false,"message":"Comment created.","data":{"comment":{"id":9}}}`)},
	}, manifest)
	for _, st := range doc.Steps {
		body, _ := json.Marshal(st.Body)
		outline, _ := json.Marshal(st.Answer.Outline)
		fmt.Printf("%d %s as %s %s -> %d %s\n", st.Step, st.Operation, st.As, body, st.Answer.Status, outline)
	}
	// Output:
	// 1 cardsCreate as member {"group_id":{"manifest":"operations.group_id"},"title":"Toner"} -> 200 {"data":{"card":{"id":"integer","title":"string"}},"error":"boolean","message":"string"}
	// 2 commentsCreate as member {"card_id":{"path":"data.card.id","step":1},"comment":"Two"} -> 200 {"data":{"comment":{"id":"integer"}},"error":"boolean","message":"string"}
}
