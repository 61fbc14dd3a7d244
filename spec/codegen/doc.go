// Package codegen checks that spec/openapi.yaml generates a working Go client with oapi-codegen
// and its default output (-generate types,client): client/ holds the generated code, committed,
// and the tests regenerate it (it must not drift from the document) and drive the in-process
// mock through it with typed requests and answers.
//
// It is a module of its own, so that oapi-codegen and its dependencies stay out of the main
// module's go.mod; it reaches the toolkit through a replace directive. Run it with
// `make test-codegen` (part of `make test`), or `go test ./...` in this directory; regenerate
// the client with `go generate ./...` here.
//
// oapi-codegen v2.8.2 renders the null member of a nullable enumeration (the document lists
// null in every nullable enum, as OpenAPI 3.0 requires for null to pass the enum keyword) as a
// string constant "<nil>" (constants named ...LessThannil). The client compiles and works; leave
// those constants alone, and send null by leaving the pointer field nil.
package codegen

//go:generate go tool oapi-codegen -generate types,client -package client -o client/client.gen.go ../openapi.yaml
