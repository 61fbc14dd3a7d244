package spec_test

import "testing"

// A nullable enumeration lists null among its values; the mock still accepts null and still
// names only the real values when it refuses one.
func TestNullableEnumsAcceptNullAndNameOnlyTheirValues(t *testing.T) {
	base, m := startMock(t)
	member := loginAs(t, base, m.Users.Member)
	admin := loginAs(t, base, m.Users.Superadmin)
	o := m.Operations
	cases := []struct {
		name, token, path, body string
		status                  int
		field, sentence         string
	}{
		{"cards/create accepts a null priority", member, pCardsCreate,
			`{"title": "Null priority", "priority": null}`, 200, "", ""},
		{"cards/update accepts a null priority", member, pCardsUpdate,
			jsonf(`{"id": %d, "priority": null}`, o.CardID), 200, "", ""},
		{"master-cards/update accepts null card_type, status and priority", admin, pMasterCardsUpd,
			jsonf(`{"id": %d, "card_type": null, "status": null, "priority": null}`, o.MasterCardID), 200, "", ""},
		{"cards/create refuses an unknown priority, naming the four values", member, pCardsCreate,
			`{"title": "Bad priority", "priority": "asap"}`, 422, "priority",
			"The selected priority is invalid (allowed: low, normal, high, urgent)."},
		{"master-cards/create refuses an unknown status, naming the five values", admin, pMasterCardsNew,
			jsonf(`{"group_id": %d, "title": "Bad status", "status": "done"}`, o.MasterGroupID), 422, "status",
			"The selected status is invalid (allowed: open, in_progress, closed, to_check, blocked)."},
		{"master-cards/update refuses an unknown card type, naming the three values", admin, pMasterCardsUpd,
			jsonf(`{"id": %d, "card_type": "banner"}`, o.MasterCardID), 422, "card_type",
			"The selected card type is invalid (allowed: widget, widget_tour, tour)."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, v := postJSON(t, base+c.path, c.token, c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, v)
			}
			if c.field == "" {
				return
			}
			errs, _ := v["errors"].(map[string]any)
			got, _ := errs[c.field].([]any)
			if len(got) != 1 || got[0] != c.sentence {
				t.Errorf("errors.%s = %v, want [%q]", c.field, got, c.sentence)
			}
		})
	}
}
