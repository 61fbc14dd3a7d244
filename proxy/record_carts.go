package proxy

import (
	"fmt"
	"strings"
)

// scenarioCart is a cart of the scenario file (D177): its session token is left out, so the
// mock makes one (the upstream's is a customer's capability).
type (
	scenarioCart struct {
		Ref      string         `yaml:"ref"`
		Status   *string        `yaml:"status,omitempty"`
		Currency *string        `yaml:"currency,omitempty"`
		Items    []scenarioItem `yaml:"items,omitempty"`
	}
	scenarioItem struct {
		ID         *int64   `yaml:"id,omitempty"`
		DomainName string   `yaml:"domain_name"`
		Action     *string  `yaml:"action,omitempty"`
		Years      *int64   `yaml:"years,omitempty"`
		Price      *float64 `yaml:"price,omitempty"`
	}
)

// cartList writes the carts seen, in the order first seen, each item's domain replaced by
// domain-N with its top-level domain kept (D175) and its id kept where free (D176).
func (b *scenarioBuilder) cartList() {
	domains := map[string]string{}
	for i, cart := range b.carts {
		c := scenarioCart{Ref: fmt.Sprintf("cart-%d", i+1)}
		done := b.within(c.Ref)
		c.Status, c.Currency = b.enum(cart, "status", "open", "locked"), b.text(cart, "currency", 0)
		items, _ := cart["items"].([]any)
		for j, raw := range items {
			it, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			name, nameIsText := it["domain_name"].(string)
			tld, tldIsText := it["tld"].(string)
			if dot := strings.LastIndex(name, "."); tld == "" && dot > 0 {
				tld = name[dot+1:]
			}
			if tld == "" {
				tld = "example"
			}
			key := strings.ToLower(name)
			if !nameIsText { // names no domain, so shares a stand-in with no other item
				key = fmt.Sprintf("\x00item %d %d", i, j)
			}
			if domains[key] == "" {
				domains[key] = fmt.Sprintf("domain-%d.%s", len(domains)+1, tld)
			}
			// Each item is named on its own in the notes, as the loader's notes name it: named
			// by its cart, two items' notes of one field were one.
			doneItem := b.within(fmt.Sprintf("the %s item (%s) of cart %s", ordinal(j+1), domains[key], c.Ref))
			switch v, ok := it["domain_name"]; {
			case !ok:
				b.changes[fmt.Sprintf("%s: domain_name is missing: written as %q", b.at, domains[key])] = true
			case !nameIsText:
				b.notText("domain_name", v, fmt.Sprintf("written as %q", domains[key]))
			}
			if v := it["tld"]; !tldIsText && v != nil {
				b.notText("tld", v, fmt.Sprintf("left out: the domain is written as %q", domains[key]))
			}
			item := scenarioItem{DomainName: domains[key], Action: b.text(it, "action", 0), Years: b.integer(it, "years")}
			if id := number(it, "id"); id != nil {
				item.ID = b.keep("cart_items", *id)
			}
			item.Price = b.price(it)
			c.Items = append(c.Items, item)
			doneItem()
		}
		done()
		b.doc.Carts = append(b.doc.Carts, c)
	}
}
