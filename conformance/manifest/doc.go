// Package manifest is the suite's fixture manifest: what a run may act on in the deployment
// (users or their tokens, record ids, carts, versions), its JSON Schema and example
// (manifest.schema.json, manifest.example.json, embedded), and what each operation's specs need
// from it. `conformance.test -check-manifest <file>` runs CheckFile.
package manifest
