package check

import "time"

// A sliding window, a log of the minute's requests, lets each request go a minute after it was
// counted: after a burst, many go at once, and answers in a row may rightly keep
// X-RateLimit-Remaining where it was, or raise it, however quickly they come. LIMIT-1 is judged
// only over runs no such release can explain: the tracker has watched since before the minute
// preceding the run and saw no request, of any caller or operation (whatever a limit is keyed
// by), sent a minute before it (D123). An outside vendor's sliding window failed LIMIT-1 in
// three of eleven runs, a minute after the suite's parallel specs.

// slidingWindow is the window of a per-minute limit; quietSlack widens the seconds judged
// quiet on either side, for a window of 61 seconds and counts kept by the second.
const (
	slidingWindow = time.Minute
	quietSlack    = 2 * time.Second
)

// trafficSeconds is how many seconds of requests a tracker counts: more than the minute and
// the slack a run's quiet reaches back.
const trafficSeconds = 128

// traffic counts the requests a tracker saw, by the second they were sent in, over the last
// trafficSeconds; since is when it began to see every request.
type traffic struct {
	since    time.Time
	sinceSet bool
	secs     [trafficSeconds]struct {
		sec int64
		n   int
	}
}

// saw counts a request sent at sent. The first one seen starts the watch, unless Watching set
// it.
func (tf *traffic) saw(sent time.Time) {
	if !tf.sinceSet {
		tf.since, tf.sinceSet = sent, true
	}
	s := sent.Unix()
	b := &tf.secs[mod(s, trafficSeconds)]
	switch {
	case b.sec > s: // older than what the slot counts now: too old to matter
		return
	case b.sec < s:
		b.sec, b.n = s, 0
	}
	b.n++
}

// quietBefore tells whether no request could leave a minute's sliding window while a run,
// whose first request was sent at start and whose last was answered at end, was answered.
func (tf *traffic) quietBefore(start, end time.Time) bool {
	from, to := start.Add(-slidingWindow-quietSlack), end.Add(-slidingWindow+quietSlack)
	if !tf.sinceSet || tf.since.After(from) {
		return false
	}
	for s := from.Unix(); s <= to.Unix(); s++ {
		if b := tf.secs[mod(s, trafficSeconds)]; b.sec == s && b.n > 0 {
			return false
		}
	}
	return true
}

func mod(a, n int64) int64 { return (a%n + n) % n }

// Watching tells the tracker it sees every request a deployment's rate limits may count since
// since (the suite's own, while no other spec sends): LIMIT-1 judges the runs that begin a
// minute after it. Without it, the watch begins with the first exchange judged.
func (t *Tracker) Watching(since time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.traffic.since, t.traffic.sinceSet = since, true
}
