package conformance

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// deployment is the client of every request the suite makes to a deployment outside Send (the
// manifest, the login check, the first ping): like Send's, it follows no redirect.
var deployment = &http.Client{CheckRedirect: keepRedirect}

// keepRedirect makes a client return a redirect as the answer it is. A 3xx is the deployment's
// own answer to an operation, judged as any other (STATUS-1; the proxy judges it the same way),
// and following it would send the request, with its bearer token, password or admin token, to
// wherever the Location header names: a deployment that only redirected passed every spec.
func keepRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// redirected words a 3xx answer the suite did not follow, for a setup step that needs a real
// answer ("" when resp is no redirect).
func redirected(resp *http.Response) string {
	if resp.StatusCode < 300 || resp.StatusCode > 399 {
		return ""
	}
	where := resp.Header.Get("Location")
	if where == "" {
		where = "nowhere (no Location)"
	}
	return fmt.Sprintf("it answered %d, a redirect to %s; the suite follows no redirect (it would carry credentials elsewhere): set %s to the address that answers", resp.StatusCode, deploymentText(where, 200), EnvBaseURL)
}

// oneLine writes the line ends and tabs printable keeps as escapes too.
var oneLine = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// deploymentText is a deployment's text (an answer's body, a Location, a manifest value it
// served) as a start-up error quotes it: cut to n bytes at a character boundary, its control and
// bidirectional characters escaped as a failure's exchange is (printable), and its line ends and
// tabs too, so the text stays on the error's one line. Quoted raw, an answer cleared or retitled
// the terminal and reordered the error in junit.xml and conformance.json.
func deploymentText(s string, n int) string {
	return oneLine.Replace(printable(text.Clip(s, n)))
}
