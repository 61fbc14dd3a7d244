package proxy

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loadable marshals the scenario and loads it with check, the loader `mockserver --scenario`
// uses (D197): each record it refuses is dropped, with a note naming the record and the
// problem, until the file loads. A problem that names no record is an error.
func (b *scenarioBuilder) loadable(opts ScenarioOptions, note func(string)) ([]byte, error) {
	for {
		out, err := marshalScenario(b.doc)
		if err != nil {
			return nil, fmt.Errorf("write scenario: %w", err)
		}
		var problems []string
		if opts.Check != nil {
			problems = opts.Check(out)
		}
		if len(problems) == 0 {
			if opts.MaxBytes > 0 && len(out)+len(opts.Comment)+64 > opts.MaxBytes {
				if n := b.trim(); n > 0 {
					note(fmt.Sprintf("%d records left out of the recording, the last seen first: the file would pass the %d MiB a scenario file may hold", n, opts.MaxBytes>>20))
					continue
				}
			}
			return out, nil
		}
		var root yaml.Node
		if err := yaml.Unmarshal(out, &root); err != nil || len(root.Content) == 0 {
			return nil, fmt.Errorf("write scenario: the recording does not load (%s)", strings.Join(problems, "; "))
		}
		drop := map[string]map[int]map[int]bool{}
		for _, p := range problems {
			at, ok := recordAt(root.Content[0], problemLine(p))
			if !ok {
				at, ok = b.cartAt(opts.BaseCarts, p)
			}
			if !ok {
				return nil, fmt.Errorf("write scenario: the recording does not load (%s)", p)
			}
			if drop[at.kind] == nil {
				drop[at.kind] = map[int]map[int]bool{}
			}
			if drop[at.kind][at.i] == nil {
				drop[at.kind][at.i] = map[int]bool{}
			}
			drop[at.kind][at.i][at.item] = true
			note(fmt.Sprintf("%s left out of the recording: the mock refuses it (%s)%s", at.name, p, b.movedWords(at, p)))
		}
		b.drop(drop)
	}
}

// trim leaves out an eighth of the records of the longest list, the last first, and returns
// how many (0 when there is nothing left to take).
func (b *scenarioBuilder) trim() int {
	d := &b.doc
	cuts := []func() int{cutLast(&d.Cards), cutLast(&d.Comments), cutLast(&d.Tags), cutLast(&d.Groups), cutLast(&d.Boards), cutLast(&d.Carts)}
	kinds := []string{"cards", "comments", "tags", "groups", "boards", "carts"}
	lens := []int{len(d.Cards), len(d.Comments), len(d.Tags), len(d.Groups), len(d.Boards), len(d.Carts)}
	i := slices.Index(lens, slices.Max(lens))
	n := cuts[i]()
	b.leftOut[kinds[i]] += n
	b.trimmed += n
	return n
}

// cutLast returns what drops the last eighth of *list and says how many it dropped.
func cutLast[T any](list *[]T) func() int {
	return func() int {
		n := (len(*list) + 7) / 8
		*list = (*list)[:len(*list)-n]
		return n
	}
}

// recordPlace is a record of the file: its list, its place, and for a cart item its place
// in the cart (-1: the whole record).
type recordPlace struct {
	kind    string
	i, item int
	name    string
}

// recordAt finds the record of the document's lists that holds line.
func recordAt(doc *yaml.Node, line int) (recordPlace, bool) {
	var at recordPlace
	found := false
	for k := 0; k+1 < len(doc.Content); k += 2 {
		key, list := doc.Content[k], doc.Content[k+1]
		if key.Line > line {
			break
		}
		found = false
		if list.Kind != yaml.SequenceNode {
			continue
		}
		for i, rec := range list.Content {
			if rec.Line > line {
				break
			}
			at, found = recordPlace{kind: key.Value, i: i, item: -1, name: key.Value + " " + field(rec, "ref")}, true
			if items := valueOf(rec, "items"); key.Value == "carts" && items != nil {
				for j, it := range items.Content {
					if it.Line <= line {
						at.item, at.name = j, fmt.Sprintf("the %s item (%s) of cart %s", ordinal(j+1), field(it, "domain_name"), field(rec, "ref"))
					}
				}
			}
		}
	}
	return at, found && line > 0
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	for k := 0; m.Kind == yaml.MappingNode && k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			return m.Content[k+1]
		}
	}
	return nil
}

func field(m *yaml.Node, key string) string {
	if v := valueOf(m, key); v != nil {
		return v.Value
	}
	return ""
}

// drop removes the records (or cart items) drop names, by list and place.
func (b *scenarioBuilder) drop(drop map[string]map[int]map[int]bool) {
	whole := func(kind string) map[int]bool {
		out := map[int]bool{}
		for i, items := range drop[kind] {
			out[i] = items[-1]
		}
		return out
	}
	for kind, recs := range drop {
		for _, items := range recs {
			if items[-1] { // a whole record (a cart with its items)
				b.leftOut[kind]++
			} else {
				b.leftOut["cart items"] += len(items)
			}
		}
	}
	d := &b.doc
	d.Boards, d.Groups, d.Tags = without(d.Boards, whole("boards")), without(d.Groups, whole("groups")), without(d.Tags, whole("tags"))
	d.Cards, d.Comments = without(d.Cards, whole("cards")), without(d.Comments, whole("comments"))
	for i, items := range drop["carts"] {
		d.Carts[i].Items = without(d.Carts[i].Items, items)
	}
	d.Carts = without(d.Carts, whole("carts"))
}

func without[T any](list []T, drop map[int]bool) []T {
	var out []T
	for i, e := range list {
		if !drop[i] {
			out = append(out, e)
		}
	}
	return out
}

// problemLine is the line a loader's problem names ("line 12: …"), 0 for none.
func problemLine(p string) int {
	rest, ok := strings.CutPrefix(p, "line ")
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(rest[:strings.IndexFunc(rest+":", func(r rune) bool { return r < '0' || r > '9' })])
	return n
}

// cartProblem is how the loader names a cart it refuses: by its place among the world's carts
// (the base scenario's, then the file's), carts having no id.
var cartProblem = regexp.MustCompile(`^carts\[(\d+)\]: (?:items\[(\d+)\])?`)

// cartAt finds the file's cart (or cart item) a problem of the loader names; baseCarts is
// the number of carts of the base world.
func (b *scenarioBuilder) cartAt(baseCarts int, p string) (recordPlace, bool) {
	m := cartProblem.FindStringSubmatch(p)
	if m == nil {
		return recordPlace{}, false
	}
	n, _ := strconv.Atoi(m[1])
	i := n - baseCarts
	if i < 0 || i >= len(b.doc.Carts) {
		return recordPlace{}, false
	}
	at := recordPlace{kind: "carts", i: i, item: -1, name: "cart " + b.doc.Carts[i].Ref}
	if m[2] != "" {
		j, _ := strconv.Atoi(m[2])
		if j < len(b.doc.Carts[i].Items) {
			at.item, at.name = j, fmt.Sprintf("the %s item (%s) of cart %s", ordinal(j+1), b.doc.Carts[i].Items[j].DomainName, b.doc.Carts[i].Ref)
		}
	}
	return at, true
}

// marshalScenario writes doc as YAML with every text value that YAML would read as something
// else quoted: the YAML library leaves "<<" plain, which a reader takes for a merge key, so a
// card titled "<<" was left out of the recording as one the mock refuses.
func marshalScenario(doc any) ([]byte, error) {
	var root yaml.Node
	if err := root.Encode(doc); err != nil {
		return nil, err
	}
	quoteMergeKeys(&root)
	return yaml.Marshal(&root)
}

// quoteMergeKeys quotes the values "<<" under n.
func quoteMergeKeys(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Value == "<<" { // the recording's keys are its own names: this is text
		n.Tag, n.Style = "!!str", yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteMergeKeys(c)
	}
}
