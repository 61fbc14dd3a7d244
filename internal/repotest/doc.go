// Package repotest holds tests over the repository as a whole: what a clone contains and what its
// Go code shows users at run time. It has no code of its own.
package repotest
