package proxy_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkExchangeDistinctTokens: one exchange through the proxy (the mock upstream answering
// 401), each client with its own bearer token, as a fleet of test workers or real users sends
// them: every token is a credential the journal scrubs from then on (D200).
func BenchmarkExchangeDistinctTokens(b *testing.B) {
	for _, distinct := range []bool{false, true} {
		name := map[bool]string{false: "one token", true: "distinct tokens"}[distinct]
		b.Run(name, func(b *testing.B) {
			s := startProxy(b, newMock(b))
			for i := 0; b.Loop(); i++ {
				tok := "tok-" + strings.Repeat("x", 40)
				if distinct {
					tok = "tok-" + strconv.Itoa(i) + strings.Repeat("x", 40)
				}
				req, _ := http.NewRequest(http.MethodPost, s.url+pTagsList, strings.NewReader(`{}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+tok)
				res, err := s.client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		})
	}
}
