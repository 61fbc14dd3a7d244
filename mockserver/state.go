package mockserver

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/text"
	"github.com/opsapi/mocktoolkit/reference"
)

// deriveManifest checks a manifest against records a snapshot put in its place (D102): a
// login whose user is gone, or an id whose record is gone, is blanked (empty credentials, id 0)
// and named in the notes; a user whose password changed gets the new one. The rest of the
// manifest still holds and is kept.
func deriveManifest(m fixtures.Manifest, st reference.State) (fixtures.Manifest, []string) {
	m = m.Clone() // changed in place below: the manifest as built stays as it was
	notes := []string{"A snapshot replaced this world's records: the manifest was checked against them."}
	users := map[string]reference.User{}
	for _, u := range st.Users {
		users[u.Email] = u
	}
	stand := standIns(m, st)
	for _, r := range []struct {
		role string
		c    *fixtures.Credentials
	}{{"member", &m.Users.Member}, {"teammate", &m.Users.Teammate}, {"superadmin", &m.Users.Superadmin}, {"outsider", &m.Users.Outsider}} {
		role, c := r.role, r.c
		if role == "teammate" {
			if c.Email == "" { // optional: a manifest without one stays without
				continue
			}
			stand["teammate"] = teammateStandIn(st, m.Users.Member.Email) // the member is settled by now
		}
		u, ok := users[c.Email]
		gone := "no user has the e-mail " + c.Email + " any more"
		if ok && (role == "superadmin") != u.IsSuperadmin { // the login no longer acts in its role
			ok, gone = false, "the user "+c.Email+" is no longer a superadmin"
			if u.IsSuperadmin {
				gone = "the user " + c.Email + " is a superadmin now"
			}
		}
		switch {
		case !ok && stand[role] != nil:
			notes = append(notes, fmt.Sprintf("users.%s: %s; %s, a user of the snapshot in the same role, stands in.", role, gone, stand[role].Email))
			*c = fixtures.Credentials{Email: stand[role].Email, Password: stand[role].Password}
		case !ok:
			notes = append(notes, fmt.Sprintf("users.%s: %s; the manifest no longer knows this login.", role, gone))
			*c = fixtures.Credentials{}
		case u.Password != c.Password:
			c.Password = u.Password
			notes = append(notes, fmt.Sprintf("users.%s: the password is the snapshot's.", role))
		}
	}
	checkRefs(reflect.ValueOf(&m).Elem(), "", recordIDs(st), &notes)
	return m, notes
}

// standIns finds, among the users of a snapshot whose users are not the manifest's (one saved
// from a world of another seed), a user for each role: the superadmin, a member of the project
// of the manifest's card, and an outsider of another project; the lowest id of each.
func standIns(m fixtures.Manifest, st reference.State) map[string]*reference.User {
	var project int64
	for _, c := range st.Cards {
		if c.ID == m.Operations.CardID && c.ProjectID != nil {
			project = *c.ProjectID
		}
	}
	out := map[string]*reference.User{}
	pick := func(role string, u *reference.User) {
		if out[role] == nil || u.ID < out[role].ID {
			out[role] = u
		}
	}
	for i := range st.Users {
		u := &st.Users[i]
		switch {
		case u.IsSuperadmin:
			pick("superadmin", u)
		case project != 0 && u.ProjectID == project:
			pick("member", u)
		case project != 0:
			pick("outsider", u)
		}
	}
	return out
}

// teammateStandIn is the user of lowest id, other than the member, of the member's project.
func teammateStandIn(st reference.State, member string) *reference.User {
	var project int64
	for _, u := range st.Users {
		if u.Email == member {
			project = u.ProjectID
		}
	}
	var out *reference.User
	for i := range st.Users {
		u := &st.Users[i]
		if project != 0 && u.ProjectID == project && u.Email != member && !u.IsSuperadmin && (out == nil || u.ID < out.ID) {
			out = u
		}
	}
	return out
}

// checkRefs walks v, a part of the manifest named path, and blanks every id or token whose
// field's `ref` tag names a kind of record that does not hold it in ids (D102, D181): an id
// becomes 0, a token "", a list loses the ids that are gone, and a list entry left with nothing
// (a cart whose token and items are gone) is dropped. Each one blanked is named in notes. The
// walk is by the tags, so a manifest field added with its tag is checked without more code.
func checkRefs(v reflect.Value, path string, ids map[string]map[string]bool, notes *[]string) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if path != "" {
				name = path + "." + name
			}
			if kind := f.Tag.Get("ref"); kind != "" {
				checkRef(v.Field(i), name, kind, ids[kind], notes)
			} else {
				checkRefs(v.Field(i), name, ids, notes)
			}
		}
	case reflect.Slice:
		kept := reflect.MakeSlice(v.Type(), 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			checkRefs(v.Index(i), fmt.Sprintf("%s[%d]", path, i), ids, notes)
			if !blank(v.Index(i)) {
				kept = reflect.Append(kept, v.Index(i))
			}
		}
		v.Set(kept)
	}
}

// checkRef blanks the id, token or ids of v (a field tagged with kind) that have gone.
func checkRef(v reflect.Value, path, kind string, have map[string]bool, notes *[]string) {
	gone := func(x reflect.Value) bool {
		return !x.IsZero() && !have[fmt.Sprint(x.Interface())]
	}
	switch v.Kind() {
	case reflect.Slice:
		kept := reflect.MakeSlice(v.Type(), 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			if gone(v.Index(i)) {
				*notes = append(*notes, fmt.Sprintf("%s: %s %v is not in the snapshot, or is deleted there; the manifest no longer lists it.", path, kindWords(kind), v.Index(i).Interface()))
				continue
			}
			kept = reflect.Append(kept, v.Index(i))
		}
		v.Set(kept)
	default:
		if gone(v) {
			*notes = append(*notes, fmt.Sprintf("%s: %s %v is not in the snapshot, or is deleted there; the manifest no longer knows one.", path, kindWords(kind), v.Interface()))
			v.Set(reflect.Zero(v.Type()))
		}
	}
}

// kindWords is how notes name a kind of record.
func kindWords(kind string) string { return strings.ReplaceAll(kind, "_", " ") }

// blank tells whether every leaf of v is zero or an empty list.
func blank(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !blank(v.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return v.Len() == 0
	default:
		return v.IsZero()
	}
}

// recordIDs indexes the ids and tokens of st by the kinds the manifest's `ref` tags name.
func recordIDs(st reference.State) map[string]map[string]bool {
	ids := map[string]map[string]bool{}
	add := func(kind string, id any) {
		if ids[kind] == nil {
			ids[kind] = map[string]bool{}
		}
		ids[kind][fmt.Sprint(id)] = true
	}
	// A deleted record is gone for the manifest as for the API (404): a manifest naming the
	// card of a deleted group sent a conformance run to 404s after a snapshot load.
	for _, r := range st.Boards {
		if r.DeletedAt == nil {
			add("board", r.ID)
		}
	}
	for _, r := range st.Groups {
		if r.DeletedAt == nil {
			add("group", r.ID)
		}
	}
	for _, r := range st.Cards {
		if r.DeletedAt == nil {
			add("card", r.ID)
		}
	}
	for _, r := range st.Tags {
		if r.DeletedAt == nil {
			add("tag", r.ID)
		}
	}
	for _, r := range st.Conversations {
		add("conversation", r.ID)
	}
	for _, r := range st.Carts {
		add("cart", r.SessionToken)
		for _, it := range r.Items {
			add("cart_item", it.ID)
		}
	}
	for _, r := range st.Entities {
		add("entity", r.ID)
	}
	for _, r := range st.ThemeVersions {
		add("version", r.VersionID)
	}
	return ids
}

// SetScenarios replaces the user-authored scenarios (Config.Scenarios) that resets and new
// worlds may name from now on; worlds already built keep their records. The binary calls it when
// a file of its --scenarios directory changes (D101).
func (s *Server) SetScenarios(m map[string]*fixtures.ScenarioFile) { s.scenarios.Store(&m) }

// SetScenarioProblem records why the source of the user-authored scenarios no longer loads
// (nil once it loads again): the scenarios set last stay, and a reset naming one not among
// them is told why it may be missing. The binary calls it when its --scenarios directory
// changes and does not load (D101).
func (s *Server) SetScenarioProblem(err error) {
	problem := ""
	if err != nil {
		problem = err.Error()
	}
	s.scenarioProblem.Store(&problem)
}

// unknownScenario words the refusal of a reset naming no scenario the mock can build.
func (s *Server) unknownScenario() string {
	msg := reference.MsgOneOf("scenario", s.scenarioNames())
	if p := s.scenarioProblem.Load(); p != nil && *p != "" {
		msg += " The scenarios directory changed and does not load, so resets name the scenarios it held before: " + text.Clip(*p, 600)
	}
	return msg
}

// userScenarios are the user-authored scenarios now.
func (s *Server) userScenarios() map[string]*fixtures.ScenarioFile { return *s.scenarios.Load() }

// scenario builds the world of src at now: a user-authored scenario (userScenarios), or one
// shipped in package fixtures (D101).
func (s *Server) scenario(src Source, now time.Time) (fixtures.World, error) {
	if f, ok := s.userScenarios()[src.Scenario]; ok {
		return f.Build(src.Seed, now)
	}
	w, err := fixtures.BuildScenario(src.Scenario, src.Seed, now)
	if err != nil {
		return fixtures.World{}, fmt.Errorf("build scenario: %w", err)
	}
	return w, nil
}

// knownScenario tells whether name is a scenario the mock can build.
func (s *Server) knownScenario(name string) bool {
	return slices.Contains(s.scenarioNames(), name)
}

// scenarioNames are the shipped scenarios and the user-authored ones, sorted.
func (s *Server) scenarioNames() []string {
	names := slices.Clone(fixtures.Scenarios)
	for name := range s.userScenarios() {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
