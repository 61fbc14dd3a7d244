package redact

import (
	"net/http"
	"strings"
	"testing"
)

// Names a reviewer calls credentials, in every case style, and names that are not (D142).
func TestIsSecretName(t *testing.T) {
	secrets := []string{
		"password", "Password", "PASSWORD", "passwd", "pwd", "new_password", "newPassword", "password_confirmation",
		"currentPasswd", "passphrase", "passcode", "passWord", "PassWord", "pass_word", "PASS-WORD", "newPassWord", "passPhrase", "pass_code",
		"token", "TOKEN", "accessToken", "access_token", "access-token", "AccessToken", "ACCESS_TOKEN", "accesstoken", "ACCESSTOKEN",
		"refreshToken", "refresh_token", "REFRESH-TOKEN", "idToken", "id_token", "ID-TOKEN", "IDToken", "session_token",
		"sessionToken", "csrfToken", "X-CSRF-Token", "X-Auth-Token", "X-Mock-Admin-Token", "oauth2Token", "bearerToken",
		"privateKey", "private_key", "PRIVATE-KEY", "privatekey", "apiKey", "api_key", "APIKey", "apikey", "API_KEY",
		"X-Api-Key", "Authentication", "X-Signature", "signature", "x-api-key", "secretKey", "secret_key", "accessKey", "signing_key", "clientKey",
		"client_secret", "clientSecret", "CLIENT_SECRET", "clientsecret", "secret", "webhookSecret", "secrets",
		"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "credentials", "awsCredentials",
		"code", "otp", "otpCode", "auth_code", "authorizationCode", "verification_code", "mfaCode", "totp",
		"sessionId", "session_id", "SESSION-ID", "SESSIONID", "jwt", "idJwt", "user[password]", "data.accessToken",
		"auth", "AUTH", "session", "pin", "PIN", "pin_code", "creditCard", "credit_card", "cardNumber", "card_number", "account_number", "cvv", "CVC", "DPoP",
		"pass", "PASS", "sig", "token[0]", "password[1]", "api_key_2", "jsessionid", "JSESSIONID", "phpsessid_sessionid",
		// keys of API gateways and SaaS clients, as net/http canonicalizes them too
		"Ocp-Apim-Subscription-Key", "X-Subscription-Key", "subscription_key", "subscription-key", "X-RapidAPI-Key", "X-Rapidapi-Key",
		"DD-Application-Key", "Dd-Application-Key", "X-App-Key", "appKey", "X-Consumer-Key", "consumer_key",
		"X-Sentry-Auth", "X-Auth", "basic_auth", "X-Session", "user_session",
		"bearer", "X-Bearer", "sid", "X-Sid", "refresh", "X-Refresh", "csrf", "X-Csrf", "xsrf", "X-XSRF-TOKEN", "assertion", "samlAssertion", "hmac", "X-Hmac",
		"PHPSESSID", "phpsessid", "privKey", "priv_key", "SAMLResponse", "saml_response", "connectionString", "connection_string", "ConnStr", "dsn", "DATABASE_DSN", "sentryDsn",
		"Sec-WebSocket-Protocol", // browsers carry a bearer token to a WebSocket in it (Kubernetes: base64url.bearer…)
	}
	plain := []string{
		"token_count", "tokenCount", "TOKEN_TYPE", "token_type", "tokens_used", "tour_key", "tool_key", "toolKey",
		"key", "keys", "primary_key", "evaluation_check", "status_code", "statusCode", "country_code", "zip_code",
		"email", "title", "name", "position", "description", "session_count", "auth_method", "pinned", "card", "card_type", "id", "user_id", "card_id", "tokenizer",
		"secretary_name", "passport", "passes", "word", "pass_count", "keyboard", "author", "cookieless", "is_recovery", "Accept", "Content-Type",
		"X-Request-Id", "X-RateLimit-Remaining", "X-Mock-World", "", "items[0]", "tags_2", "signal", "sig_count",
		"sort_key", "cache_key", "idempotency_key", "foreign_key", "session_started", "auth_type", "authors",
		"connection", "connection_count", "response", "saml_enabled", "privacy", "private", "is_private",
	}
	for _, n := range secrets {
		if !IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = false, want true: it holds a credential", n)
		}
	}
	for _, n := range plain {
		if IsSecretName(n) {
			t.Errorf("IsSecretName(%q) = true, want false: it holds no credential", n)
		}
	}
}

// camelCase credentials in a JSON body, at any depth, and in text are redacted (D142).
func TestRedactCamelCase(t *testing.T) {
	body := `{"data":{"accessToken":"s3cr3t-a","refreshToken":"s3cr3t-r","idToken":"s3cr3t-i","privateKey":"s3cr3t-p","tokenCount":12,"toolKey":"kept"}}`
	got := Body([]byte(body)).(map[string]any)["data"].(map[string]any)
	for _, k := range []string{"accessToken", "refreshToken", "idToken", "privateKey"} {
		if got[k] != redacted {
			t.Errorf("%s: %v, want it redacted", k, got[k])
		}
	}
	if got["toolKey"] != "kept" || got["tokenCount"] == redacted {
		t.Errorf("plain fields changed: %v", got)
	}
	if text := Text("accessToken=s3cr3t&ID-TOKEN: s3cr3t2\n"); text != "accessToken=[redacted]&ID-TOKEN: [redacted]\n" {
		t.Errorf("Text: %q", text)
	}
}

// A request target's credentials are redacted in its query, in indexed query names and in its
// path's ';' parameters, which servers read as they read a query.
func TestTargetRedactsQueryAndPathParameters(t *testing.T) {
	for in, want := range map[string]string{
		"/tags/list;access_token=S1":        "/tags/list;access_token=[redacted]",
		"/a;jsessionid=S2/b;x=1":            "/a;jsessionid=[redacted]/b;x=1",
		"/tags/list?token%5B0%5D=S3&page=2": "/tags/list?page=2&token%5B0%5D=%5Bredacted%5D",
		"/tags/list;v=1?q=1":                "/tags/list;v=1?q=1",
		"/tags/list;sig=S4?jsessionid=S5":   "/tags/list;sig=[redacted]?jsessionid=%5Bredacted%5D",
	} {
		if got := Target(in); got != want {
			t.Errorf("Target(%q) = %q, want %q", in, got, want)
		}
	}
}

// A password written into a URL (a DSN, a proxy address) is redacted wherever the URL stands:
// a field's value, text, a header, a query parameter.
func TestRedactURLUserinfo(t *testing.T) {
	got := Body([]byte(`{"database_url":"postgres://app:Pg-S3cret@db:5432/x","note":"see https://u:Other-S3cret@h.example/p","plain":"https://h.example/p?q=1"}`)).(map[string]any)
	if got["database_url"] != "postgres://app:[redacted]@db:5432/x" || got["note"] != "see https://u:[redacted]@h.example/p" || got["plain"] != "https://h.example/p?q=1" {
		t.Errorf("Body: %v", got)
	}
	if text := Text("db=postgres://u:Pw-1234@h&x=1"); text != "db=postgres://u:[redacted]@h&x=1" {
		t.Errorf("Text: %q", text)
	}
	if h := Headers(http.Header{"X-Upstream": {"http://proxy:Pr0xy-pw@10.0.0.1:3128"}}); h["X-Upstream"] != "http://proxy:[redacted]@10.0.0.1:3128" {
		t.Errorf("Headers: %v", h)
	}
	if target := Target("/x?db=postgres%3A%2F%2Fu%3APw-1234%40h"); strings.Contains(target, "Pw-1234") {
		t.Errorf("Target: %q", target)
	}
}

// A credential in an XML element is redacted as one in an attribute or a form is.
func TestRedactXMLElements(t *testing.T) {
	in := `<login><password>XMLPW-A</password><api_key attr="1">K-9</api_key><title>kept</title><ns:token>T-1</ns:token></login>`
	got := Text(in)
	for _, leak := range []string{"XMLPW-A", "K-9", "T-1"} {
		if strings.Contains(got, leak) {
			t.Errorf("Text kept %s: %s", leak, got)
		}
	}
	if !strings.Contains(got, "<title>kept</title>") {
		t.Errorf("Text changed a plain element: %s", got)
	}
}
