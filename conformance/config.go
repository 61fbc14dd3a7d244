package conformance

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
)

// The environment variables of the suite, and the values they name.
const (
	// EnvBaseURL names the deployment under test (e.g. http://127.0.0.1:4010). Unset: the image,
	// else the in-process reference mock.
	EnvBaseURL = "CONFORMANCE_BASE_URL"
	// EnvImage names a container image of the mock to start and test (see startContainerTarget).
	EnvImage = "CONFORMANCE_IMAGE"
	// EnvImageArgs holds flags for the mock started from EnvImage, separated by spaces (e.g.
	// "--seed 7 --rate-limit 60").
	EnvImageArgs = "CONFORMANCE_IMAGE_ARGS"
	// EnvManifest names a file holding the fixture manifest; unset: GET <base>/__mock/fixtures.
	EnvManifest = "CONFORMANCE_MANIFEST"
	// EnvAdminToken is the mock's --admin-token, sent as X-Mock-Admin-Token when the manifest is
	// read from GET <base>/__mock/fixtures of a guarded mock.
	EnvAdminToken = "CONFORMANCE_ADMIN_TOKEN"
	// EnvSummary names a file the per-operation summary is also written to.
	EnvSummary = "CONFORMANCE_SUMMARY"
	// EnvRateLimitMax bounds the requests a rate-limit spec may send to spend a window
	// (default 2000); a larger X-RateLimit-Limit makes the spec skip.
	EnvRateLimitMax = "CONFORMANCE_RATE_LIMIT_MAX"
	// EnvRetryMax bounds the wait on a 429 outside the rate-limit specs, in seconds (default 65).
	EnvRetryMax = "CONFORMANCE_RETRY_MAX"
	// EnvRateSenders is how many requests the rate-limit spec keeps in flight at once to spend a
	// window (default 128, D162): raise it for a deployment with a high limit and slow answers.
	EnvRateSenders = "CONFORMANCE_RATE_SENDERS"
	// EnvPushWait is how long the suite waits for the cards a push or a sync adds to show up, a
	// Go duration (default 20s): such work may be carried out after the answer (D210).
	EnvPushWait = "CONFORMANCE_PUSH_WAIT"
	// EnvTimeout is the timeout of one HTTP request, a Go duration (default 30s).
	EnvTimeout = "CONFORMANCE_TIMEOUT"
	// EnvProfile narrows the run: ProfileReadOnly, or a label filter used when no
	// --ginkgo.label-filter is given (e.g. "contract").
	EnvProfile = "CONFORMANCE_PROFILE"
	// ProfileReadOnly is the EnvProfile for production-like targets: only specs that change
	// nothing on the target run, those labelled effect:read (D110).
	ProfileReadOnly = "readonly"
	// EnvAllowRateLimit, set to 1, lets the readonly profile run the specs that spend a rate
	// window (login throttles included).
	EnvAllowRateLimit = "CONFORMANCE_ALLOW_RATELIMIT"
	// EnvReports names a directory the run writes every report to (ReportFiles), unless a flag
	// or another variable names a file: junit.xml, conformance.json, conformance.html and
	// summary.txt. The suite image sets it to /reports.
	EnvReports = "CONFORMANCE_REPORTS"
	// EnvHTML names the file of the self-contained HTML report.
	EnvHTML = "CONFORMANCE_HTML"
	// EnvFlows names a flow file, or a folder of them (*.json), to replay as specs labelled
	// flow (flows.go; GET /__mock/flow writes them).
	EnvFlows = "CONFORMANCE_FLOWS"
	// EnvParallel is how many specs run at once (default 4, D161; 1: one after
	// another): the suite binary runs itself as that many Ginkgo parallel processes (D160).
	EnvParallel = "CONFORMANCE_PARALLEL"
)

// defaultParallel is the number of specs run at once when EnvParallel is unset (D161).
const defaultParallel = 4

// Config is the suite's environment.
type Config struct {
	BaseURL      string
	Image        string
	ManifestFile string
	AdminToken   string
	SummaryFile  string
	// HTMLFile is the HTML report's file (EnvHTML); ReportsDir the directory of EnvReports.
	HTMLFile   string
	ReportsDir string
	// Profile is EnvProfile; AllowRateLimit is EnvAllowRateLimit=1.
	Profile        string
	AllowRateLimit bool
	RateLimitMax   int
	RateSenders    int
	RetryMax       time.Duration
	Timeout        time.Duration
	PushWait       time.Duration
	// Parallel is EnvParallel: the number of Ginkgo processes the run is split across.
	Parallel int
}

// LoadConfig reads the suite's environment through getenv (os.Getenv in the suite).
func LoadConfig(getenv func(string) string) (Config, error) {
	cfg := Config{
		BaseURL:      getenv(EnvBaseURL),
		Image:        getenv(EnvImage),
		ManifestFile: getenv(EnvManifest),
		AdminToken:   getenv(EnvAdminToken),
		SummaryFile:  getenv(EnvSummary),
		HTMLFile:     getenv(EnvHTML),
		ReportsDir:   getenv(EnvReports),
		Profile:      getenv(EnvProfile),
		RateLimitMax: 2000,
		RateSenders:  128,
		RetryMax:     65 * time.Second,
		Timeout:      30 * time.Second,
		PushWait:     check.ListSettle,
		Parallel:     defaultParallel,
	}
	if v := cfg.BaseURL; v != "" {
		u, err := url.Parse(v)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			return cfg, fmt.Errorf("load config: %s=%q is not an http or https URL such as http://127.0.0.1:4010", EnvBaseURL, v)
		case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(v, "#"):
			return cfg, fmt.Errorf("load config: %s=%q holds a query or a fragment: give the scheme, the host and an optional base path; the suite appends each operation's path", EnvBaseURL, v)
		case u.User != nil:
			return cfg, fmt.Errorf("load config: %s holds a user name or password: the suite logs in with the manifest's credentials", EnvBaseURL)
		}
	}
	if err := checkProfile(cfg.Profile); err != nil {
		return cfg, err
	}
	switch v := getenv(EnvAllowRateLimit); v {
	case "", "0", "false":
	case "1", "true":
		cfg.AllowRateLimit = true
	default:
		return cfg, fmt.Errorf("load config: %s=%q is not 1 or 0", EnvAllowRateLimit, v)
	}
	retry := int(cfg.RetryMax / time.Second)
	for _, set := range []error{
		intSetting(getenv, EnvRateLimitMax, 1, math.MaxInt32, "a positive integer", &cfg.RateLimitMax),
		intSetting(getenv, EnvRateSenders, 1, 256, "a number from 1 to 256", &cfg.RateSenders),
		intSetting(getenv, EnvParallel, 1, 64, "a number from 1 to 64", &cfg.Parallel),
		intSetting(getenv, EnvRetryMax, 0, 86400, "a number of seconds from 0 to 86400", &retry),
		durationSetting(getenv, EnvPushWait, 0, time.Hour, "a duration from 0s to 1h, such as 20s", &cfg.PushWait),
		durationSetting(getenv, EnvTimeout, 1, math.MaxInt64, "a positive duration, such as 30s", &cfg.Timeout),
	} {
		if set != nil {
			return cfg, set
		}
	}
	cfg.RetryMax = time.Duration(retry) * time.Second
	return cfg, nil
}

// intSetting sets *dst to the integer the variable name holds, when it is set, from lo to hi.
func intSetting(getenv func(string) string, name string, lo, hi int, want string, dst *int) error {
	v := getenv(name)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return fmt.Errorf("load config: %s=%q is not %s", name, v, want)
	}
	*dst = n
	return nil
}

// durationSetting sets *dst to the duration the variable name holds, when it is set, from lo
// to hi.
func durationSetting(getenv func(string) string, name string, lo, hi time.Duration, want string, dst *time.Duration) error {
	v := getenv(name)
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		return fmt.Errorf("load config: %s=%q is not %s", name, v, want)
	}
	*dst = d
	return nil
}

// keepAlive is the client's transport: it keeps as many idle connections as the rate-limit spec
// has senders (D162), so a spent window costs no new connection (a TLS handshake, against a
// deployment) per request past net/http's default of two.
func keepAlive(senders int) http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = max(senders, 2)
	return t
}
