// Command bare is the yardstick of `make bench-load`: a bare net/http server that decodes a
// comments/list request body and writes the bytes the mock answers to it, with nothing else
// around it (no auth, rate limit, validation, log or journal). The mock's throughput is judged
// as a fraction of this one's (docs/performance.md).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"

	"github.com/opsapi/mocktoolkit/reference"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:4011", "address to listen on")
	answerFile := flag.String("answer", "", "file holding the answer body to write")
	flag.Parse()
	answer, err := os.ReadFile(*answerFile)
	if err != nil {
		log.Fatalf("bare: read the answer: %v", err)
	}
	length := strconv.Itoa(len(answer))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in reference.ListCommentsInput
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, `{"error":true,"message":"bad","data":[]}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", length)
		_, _ = w.Write(answer)
	})
	fmt.Println("bare listening on", *addr)
	log.Fatal(http.ListenAndServe(*addr, h))
}
