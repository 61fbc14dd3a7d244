package mockserver

// LowerAnswersInFlight sets the bytes of large answers being written past which another is
// refused; the returned func restores it. Not for parallel tests.
func LowerAnswersInFlight(n int64) (restore func()) {
	old := maxAnswersInFlight
	maxAnswersInFlight = n
	return func() { maxAnswersInFlight = old }
}

// LowerLargeRead sets the size past which whole reads of a world take turns, for a test that
// must not build worlds of 16 MiB; the returned func restores it. Not for parallel tests.
func LowerLargeRead(n int64) (restore func()) {
	old := largeRead
	largeRead = n
	return func() { largeRead = old }
}

// OnSnapshotBuild sets a func called as each GET /__mock/state builds its answer; the returned
// func removes it. Not for parallel tests.
func OnSnapshotBuild(f func()) (restore func()) {
	snapshotBuilding = f
	return func() { snapshotBuilding = nil }
}
