package mockserver

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// CheckCORSOrigins says why origins cannot be the origins browsers may call from
// (Config.CORSOrigins, --cors-origins): an empty entry (what splitting an empty variable gives),
// * beside other origins (read as neither), null (D148), or a text no browser sends as an
// Origin, which could never match. An empty list is any origin.
func CheckCORSOrigins(origins []string) error {
	for _, origin := range origins {
		switch {
		case strings.TrimSpace(origin) == "":
			return errors.New("an empty origin; list the origins browsers may call from (such as http://localhost:5173), or * for any")
		case origin == "*" && len(origins) > 1: // as --allowed-hosts: a list with * in it is read as neither
			return errors.New("* allows any origin, so it stands alone: give '*', or list origins without it")
		case strings.EqualFold(origin, "null"):
			return errors.New("null is not an origin to list: every sandboxed iframe, file:// page and redirected request sends it, so allowing it with credentials lets any page in")
		}
		if err := checkOrigin(origin); err != nil {
			return err
		}
	}
	return nil
}

// checkOrigin refuses what a browser never sends as an Origin, so it could never match: an
// origin is *, or a scheme http or https and a host with an optional port, nothing after.
func checkOrigin(origin string) error {
	if origin == "*" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(origin, "/") {
		return fmt.Errorf("%q is not an origin: want a scheme and a host, as a browser sends them, such as http://localhost:5173 (no path, no trailing slash), or *", clip(origin, 80))
	}
	if strings.Contains(u.Host, "*") {
		return fmt.Errorf("%q: an origin names one site; patterns are not read (list each origin, or give * for any)", clip(origin, 80))
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		switch {
		case err != nil || n < 1 || n > 65535:
			return fmt.Errorf("%q: the port %s is not one a browser can send (1 to 65535)", clip(origin, 80), clip(p, 80))
		case strconv.Itoa(n) != p:
			return fmt.Errorf("%q: a browser writes the port without leading zeros: list %s://%s:%d", clip(origin, 80), u.Scheme, u.Hostname(), n)
		case (u.Scheme == "http" && n == 80) || (u.Scheme == "https" && n == 443):
			return fmt.Errorf("%q: a browser leaves the scheme's default port out of an Origin, so this never matches: list %s://%s", clip(origin, 80), u.Scheme, u.Hostname())
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return fmt.Errorf("%q: a colon with no port after it; leave it out or give the port", clip(origin, 80))
	}
	return nil
}
