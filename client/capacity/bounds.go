package capacity

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/amlarc-go/instancetypes/client/internal/clip"
)

// The default bounds of a Reader on what one list (of nodes, pods or instance types) may
// bring from the API server. They hold whatever the server sends: a server that never
// ends a list, or sends a list of a gigabyte, is refused with a *LimitError that names the
// bound, not followed until the memory runs out.
const (
	// DefaultMaxObjects is Reader.MaxObjects when it is 0: over three times the 150,000
	// pods, and a hundred times the 5,000 nodes, of the largest clusters Kubernetes is
	// tested for (its scalability thresholds). The nodes kept take about 1.4 kB each, so
	// that this many nodes are some 700 MB.
	DefaultMaxObjects = 500_000
	// DefaultMaxBytes is Reader.MaxBytes when it is 0: 2 GiB, the answers to a list of
	// 150,000 pods of 14 kB each (a pod with its managed fields is a few kilobytes in
	// protobuf), or of 5,000 nodes of 400 kB.
	DefaultMaxBytes = 2 << 30
	// DefaultMaxPageBytes is Reader.MaxPageBytes when it is 0: 128 MiB, a page of 500
	// objects of 256 kB each on average, where etcd keeps objects of at most 1.5 MiB and
	// nodes and pods are rarely beyond 50 kB. client-go holds an answer whole in memory
	// and decodes it into objects several times its size, so that this bounds the memory
	// of a page in flight (a 1 GiB list took 4.9 GB).
	DefaultMaxPageBytes = 128 << 20
)

// Bound names one of a Reader's bounds on what one list may bring: the Reader field that
// sets it.
type Bound string

// The bounds of a Reader.
const (
	// BoundObjects is Reader.MaxObjects: the objects of one list.
	BoundObjects Bound = "MaxObjects"
	// BoundBytes is Reader.MaxBytes: the bytes of all the answers to one list.
	BoundBytes Bound = "MaxBytes"
	// BoundPageBytes is Reader.MaxPageBytes: the bytes of one answer.
	BoundPageBytes Bound = "MaxPageBytes"
)

// LimitError is a list that the Reader stopped because what the API server sent passed
// one of its bounds: more objects than Reader.MaxObjects (a page that says more follow
// counts as a full page of Reader.PageSize objects, however few it holds), answers of more
// bytes than Reader.MaxBytes, or one answer of more than Reader.MaxPageBytes (refused as
// its bytes come, before it is decoded).
type LimitError struct {
	// Resource and Group are what was listed: "nodes" and "" (the core group).
	Resource, Group string
	// Bound is the bound passed, and Limit its value (objects, or bytes).
	Bound Bound
	Limit int64
	// Page is the answer, from 1, at which the list stopped.
	Page int
}

// Error says what was listed and which bound it passed: "listing nodes: more than 500000
// objects (Reader.MaxObjects)".
func (e *LimitError) Error() string {
	res := resourceName(e.Resource, e.Group)
	switch e.Bound {
	case BoundObjects:
		return fmt.Sprintf("listing %s: more than %d objects in %d pages (Reader.MaxObjects; a page that says more follow counts as full)", res, e.Limit, e.Page)
	case BoundBytes:
		return fmt.Sprintf("listing %s: the API server's answers came to more than %d bytes in %d pages (Reader.MaxBytes)", res, e.Limit, e.Page)
	}
	return fmt.Sprintf("listing %s: answer %d of the API server is longer than %d bytes (Reader.MaxPageBytes)", res, e.Page, e.Limit)
}

// Errors of a bad answer of the API server, wrapped by *AnswerError.
var (
	// ErrRepeatedContinue is a continue token that an earlier page of the same list gave
	// too: following it would list forever.
	ErrRepeatedContinue = errors.New("continue token repeated")
	// ErrTruncated is an answer that ended before its end: the server closed the
	// connection in the middle of it, or sent fewer bytes than it announced.
	ErrTruncated = errors.New("answer cut off before its end")
	// ErrMalformed is an answer that came whole but does not decode as the list asked for.
	ErrMalformed = errors.New("answer does not decode")
)

// AnswerError is an answer of the API server that the Reader refuses: one of
// ErrRepeatedContinue, ErrTruncated and ErrMalformed, which Err wraps with the details.
// The server was reached: it is the answer that is wrong.
type AnswerError struct {
	// Resource and Group are what was listed.
	Resource, Group string
	// Page is the answer, from 1, that is refused.
	Page int
	// Err says what is wrong with it.
	Err error
}

// Error says what was listed and what is wrong with the answer: "listing nodes: answer 2
// of the API server: continue token repeated: ...".
func (e *AnswerError) Error() string {
	return fmt.Sprintf("listing %s: answer %d of the API server: %v", resourceName(e.Resource, e.Group), e.Page, e.Err)
}

// Unwrap returns Err.
func (e *AnswerError) Unwrap() error { return e.Err }

func resourceName(resource, group string) string {
	if group != "" {
		return resource + "." + group
	}
	return resource
}

// budgetKey is the context key of the *listBudget of a list's requests.
type budgetKey struct{}

// listBudget follows the answers to one list as boundedTransport reads them: the bytes of
// each and of all, whether an answer came at all, and how it ended.
type listBudget struct {
	maxBytes, maxPageBytes int64

	mu       sync.Mutex
	total    int64 // bytes of every answer so far
	answered bool  // an answer (status and headers) came for the current request
	passed   Bound // the bound the current answer passed, if any
	limit    int64 // its value
	read     int64 // bytes of the current answer
	readErr  error // how reading the current answer failed, if it did
}

// start readies b for the next request of the list.
func (b *listBudget) start() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answered, b.passed, b.limit, b.read, b.readErr = false, "", 0, 0, nil
}

// pageLimit is the most bytes the current answer may have, and the bound that sets it.
func (b *listBudget) pageLimit() (int64, Bound) {
	if left := b.maxBytes - b.total; left < b.maxPageBytes {
		return max(left, 0), BoundBytes
	}
	return b.maxPageBytes, BoundPageBytes
}

// boundedTransport counts and bounds the bytes of the answers to a list's requests (those
// whose context carries a *listBudget): an answer that announces more than its bound is
// not read at all; one that comes in more is cut there. Either way, and when the reading
// fails, its body ends early with io.EOF, so that client-go neither holds more nor logs
// the error: the list's paginate reports it, from the budget.
type boundedTransport struct{ rt http.RoundTripper }

// RoundTrip sends req, and bounds the body of its answer when req belongs to a list.
func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	b, _ := req.Context().Value(budgetKey{}).(*listBudget)
	if b == nil {
		return t.rt.RoundTrip(req)
	}
	resp, err := t.rt.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answered = true
	limit, bound := b.pageLimit()
	if resp.ContentLength > limit {
		b.passed, b.limit = bound, b.limitOf(bound)
		resp.Body.Close()
		resp.Body = http.NoBody
		return resp, nil
	}
	resp.Body = &boundedBody{rc: resp.Body, b: b, limit: limit, bound: bound}
	return resp, nil
}

// limitOf is the value of the bound, for its error.
func (b *listBudget) limitOf(bound Bound) int64 {
	if bound == BoundBytes {
		return b.maxBytes
	}
	return b.maxPageBytes
}

// boundedBody is the body of an answer, cut at limit bytes.
type boundedBody struct {
	rc    io.ReadCloser
	b     *listBudget
	limit int64
	bound Bound
	n     int64
	done  bool
}

// Read reads from the answer, counting its bytes; past the limit, or when reading fails,
// it records why in the budget and ends the body.
func (r *boundedBody) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	if left := r.limit - r.n; int64(len(p)) > left+1 {
		p = p[:left+1] // one byte past the limit tells an answer too long
	}
	n, err := r.rc.Read(p)
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	r.n += int64(n)
	r.b.total += int64(n)
	r.b.read = r.n
	switch {
	case r.n > r.limit:
		r.b.passed, r.b.limit = r.bound, r.b.limitOf(r.bound)
		r.done = true
		r.rc.Close()
		return 0, io.EOF
	case err != nil && err != io.EOF:
		r.b.readErr = err
		r.done = true
		return n, io.EOF
	}
	return n, err
}

// Close closes the answer.
func (r *boundedBody) Close() error { return r.rc.Close() }

// outcome is what the budget says of the answer to the current request of the list of
// resource (page page), once the request is done: a *LimitError when the answer passed a
// bound, an *AnswerError when it was cut off, or the error of a timeout or a cancellation
// while it was read; nil when the answer was read whole or none came.
func (b *listBudget) outcome(ctx context.Context, resource, group string, page int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.passed != "":
		return &LimitError{Resource: resource, Group: group, Bound: b.passed, Limit: b.limit, Page: page}
	case b.readErr == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	var timeout interface{ Timeout() bool }
	if errors.As(b.readErr, &timeout) && timeout.Timeout() {
		return fmt.Errorf("listing %s: reading answer %d: %w", resourceName(resource, group), page, b.readErr)
	}
	return &AnswerError{Resource: resource, Group: group, Page: page,
		Err: fmt.Errorf("%w after %s bytes: %v", ErrTruncated, strconv.FormatInt(b.read, 10), b.readErr)}
}

// repeatedContinue is the error of a continue token that page first gave, repeated by
// page again.
func repeatedContinue(resource, group, token string, first, again int) error {
	return &AnswerError{Resource: resource, Group: group, Page: again,
		Err: fmt.Errorf("%w: %q, which answer %d gave too: the list would never end", ErrRepeatedContinue, clip.String(token), first)}
}
