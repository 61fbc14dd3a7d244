package proxy

import (
	"context"
	"fmt"

	"github.com/opsapi/mocktoolkit/spec"
)

// loadOperations reads the 24 operations from the spec's operation model, by path.
func loadOperations(ctx context.Context) (map[string]spec.Operation, error) {
	doc, err := spec.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("new proxy: %w", err)
	}
	ops := make(map[string]spec.Operation)
	for _, o := range spec.Operations(doc) {
		ops[o.Path] = o
	}
	return ops, nil
}
