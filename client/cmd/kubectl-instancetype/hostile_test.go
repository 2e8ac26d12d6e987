package main

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// nodesPage is a page of n nodes of the pool p, named for the page.
func nodesPage(page, n int) []string {
	items := make([]string, n)
	for i := range items {
		items[i] = nodeJSON(fmt.Sprintf("node-%d-%d", page, i), "p")
	}
	return items
}

// A continue token that repeats one of the same list ends the list with an error that
// names it: right away, or after a cycle through other tokens. Every command that reads
// the cluster stops there.
func TestRepeatedContinueToken(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tokens   []string // the token of answer n is tokens[(n-1) % len]
		requests int64
		token    string
	}{
		{"the same token", []string{"again"}, 2, `"again"`},
		{"a cycle", []string{"a", "b", "c"}, 4, `"a"`},
		{"a token with a terminal escape", []string{"x\x1b]0;t\a"}, 2, `"x\x1b]0;t\a"`},
	} {
		for _, cmd := range [][]string{{"capacity"}, {"list"}, {"validate"}} {
			f := newFakeAPI(t, map[string]listHandler{"nodes": func(w http.ResponseWriter, r *http.Request, n int) {
				writeList(w, "nodes", tc.tokens[(n-1)%len(tc.tokens)], nodesPage(n, 1))
			}})
			code, out, errOut := f.run(cmd...)
			if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "continue token repeated: "+tc.token) || !strings.Contains(errOut, "bad answer of the API server") {
				t.Errorf("%s, %s: exit %d, stdout %q, stderr %q; want exit 2 and the token %s named", tc.name, cmd[0], code, out, errOut, tc.token)
			}
			if got := f.requests["nodes"].Load(); got != tc.requests {
				t.Errorf("%s, %s: %d requests of nodes; want %d", tc.name, cmd[0], got, tc.requests)
			}
		}
	}
}

// Pages that never end, each with a new continue token, are stopped by --max-objects:
// full pages, or pages that say more follow while holding nothing (they count as full).
// The list makes --max-objects / --chunk-size requests and one more, then stops.
func TestEndlessPages(t *testing.T) {
	for _, tc := range []struct {
		name     string
		resource string
		items    func(page, limit int) []string
	}{
		{"full pages of nodes", "nodes", nodesPage},
		{"empty pages of nodes", "nodes", func(int, int) []string { return nil }},
		{"empty pages of pods", "pods", func(int, int) []string { return nil }},
		{"instance types", "instancetypes", func(page, limit int) []string {
			items := make([]string, limit)
			for i := range items {
				items[i] = instanceTypeJSON(fmt.Sprintf("t-%d-%d", page, i))
			}
			return items
		}},
	} {
		f := newFakeAPI(t, map[string]listHandler{
			"nodes": func(w http.ResponseWriter, r *http.Request, n int) { writeList(w, "nodes", "", nodesPage(n, 1)) },
			tc.resource: func(w http.ResponseWriter, r *http.Request, n int) {
				writeList(w, tc.resource, "page-"+strconv.Itoa(n), tc.items(n, limitOf(r)))
			},
		})
		code, out, errOut := f.run("capacity", "--chunk-size", "10", "--max-objects", "50")
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "sent more than 50 "+listed(tc.resource, map[bool]string{true: "amlarc.azureml.com"}[tc.resource == "instancetypes"])) ||
			!strings.Contains(errOut, "give a larger --max-objects") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want the bound --max-objects named", tc.name, code, out, errOut)
		}
		if got := f.requests[tc.resource].Load(); got != 6 {
			t.Errorf("%s: %d requests; want 6 (50 objects in pages of 10, and the one past them)", tc.name, got)
		}
	}
}

// Pages that never end, each of some 100 kB, are stopped by --max-bytes (the answers to
// one list together) before --max-objects.
func TestEndlessPagesBytes(t *testing.T) {
	f := newFakeAPI(t, map[string]listHandler{"nodes": func(w http.ResponseWriter, r *http.Request, n int) {
		writeList(w, "nodes", "page-"+strconv.Itoa(n), nodesPage(n, limitOf(r)))
	}})
	code, _, errOut := f.run("capacity", "--max-bytes", "1Mi")
	if code != cli.ExitUsage || !strings.Contains(errOut, "sent more than 1Mi in its answers to the list of nodes (--max-bytes 1Mi)") {
		t.Errorf("exit %d, stderr %q; want the bound --max-bytes named", code, errOut)
	}
	// A page of 500 nodes is some 80 kB: the list stops at the page that passes 1 MiB.
	if got, written := f.requests["nodes"].Load(), f.written.Load(); got > 20 || written > 1<<20+200<<10 {
		t.Errorf("%d requests, %d bytes written; want the list stopped at the page past 1 MiB", got, written)
	}
}

// streamNodes streams one list of nodes, node after node, until the client goes away or
// 256 MiB are written (a plugin that read it all would fail its test, not the machine);
// when declared, with a Content-Length of 1 GiB.
func streamNodes(declared bool) listHandler {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		const total = 256 << 20
		w.Header().Set("Content-Type", "application/json")
		if declared {
			w.Header().Set("Content-Length", strconv.Itoa(1<<30))
		}
		bw := bufio.NewWriterSize(w, 64<<10)
		head := `{"apiVersion":"v1","kind":"NodeList","metadata":{},"items":[`
		written, err := bw.WriteString(head)
		for i := 0; err == nil && written < total-1024; i++ {
			var n int
			n, err = bw.WriteString(nodeJSON("n"+strconv.Itoa(i), "p") + ",")
			written += n
		}
	}
}

// One huge list is refused as it comes: the plugin stops reading it at --max-page-bytes,
// so that the server writes little more than that (what the sockets buffer), not its
// 256 MiB; with the default bounds, one that announces 1 GiB is not read at all.
func TestHugeList(t *testing.T) {
	for _, tc := range []struct {
		name     string
		declared bool
		args     []string
		want     string
		most     int64
	}{
		{"streamed", false, []string{"--max-page-bytes", "1Mi"}, "an answer of more than 1Mi to the list of nodes, answer 1 (--max-page-bytes 1Mi)", 64 << 20},
		{"announced, default bounds", true, nil, "an answer of more than 128Mi to the list of nodes, answer 1 (--max-page-bytes 128Mi)", 64 << 20},
		{"streamed, --max-bytes below the page bound", false, []string{"--max-bytes", "1Mi"}, "sent more than 1Mi in its answers to the list of nodes (--max-bytes 1Mi)", 64 << 20},
	} {
		f := newFakeAPI(t, map[string]listHandler{"nodes": streamNodes(tc.declared)})
		code, out, errOut := f.run(append([]string{"capacity"}, tc.args...)...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", tc.name, code, out, errOut, tc.want)
		}
		f.srv.Close() // waits for the handler, which ends when the client is gone
		if written := f.written.Load(); written > tc.most {
			t.Errorf("%s: the server wrote %d bytes of its 256 MiB; want at most %d", tc.name, written, tc.most)
		}
	}
}

// An answer cut off (the server closes the connection before the end it announced, or
// in the middle of a chunked body), or whole but not a list, is a bad answer of the
// server, not a server that cannot be reached.
func TestTruncatedAnswer(t *testing.T) {
	list := map[string]string{
		"nodes":         listJSON("nodes", "", nodesPage(1, 3)),
		"instancetypes": listJSON("instancetypes", "", []string{instanceTypeJSON("a"), instanceTypeJSON("b")}),
	}
	for _, res := range []string{"nodes", "instancetypes"} {
		body := list[res]
		for _, tc := range []struct {
			name    string
			handler listHandler
			want    string
		}{
			{"fewer bytes than announced", func(w http.ResponseWriter, r *http.Request, _ int) {
				conn, rw, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				defer conn.Close()
				fmt.Fprintf(rw, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2])
				rw.Flush()
			}, "answer cut off before its end"},
			{"chunked, aborted", func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(body[:len(body)/2]))
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			}, "answer cut off before its end"},
			{"whole, but half a list", func(w http.ResponseWriter, r *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(body[:len(body)/2]))
			}, "answer does not decode"},
		} {
			f := newFakeAPI(t, map[string]listHandler{res: tc.handler})
			code, out, errOut := f.run("capacity")
			if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "bad answer of the API server at "+f.srv.URL) ||
				!strings.Contains(errOut, tc.want) || strings.Contains(errOut, "cannot reach") {
				t.Errorf("%s, %s: exit %d, stdout %q, stderr %q; want a bad answer: %s", res, tc.name, code, out, errOut, tc.want)
			}
		}
	}
}

// The bounds' flags: sizes as quantities, positive; the defaults are the library's.
func TestBoundFlags(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"--max-objects 0", "invalid --max-objects 0"},
		{"--max-bytes 0", `invalid value "0" for flag -max-bytes: "0" is not a positive whole number of bytes`},
		{"--max-page-bytes 1.5", `"1.5" is not a positive whole number of bytes`},
		{"--max-page-bytes lots", `"lots" is not a size`},
	} {
		code, _, errOut := run(append([]string{"capacity", "--server", "https://127.0.0.1:1"}, strings.Fields(tc.args)...)...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("capacity %s = %d, %q; want %q", tc.args, code, errOut, tc.want)
		}
	}
	pl := newPlugin()
	if pl.maxObjects != capacity.DefaultMaxObjects || int64(pl.maxBytes) != capacity.DefaultMaxBytes || int64(pl.maxPageBytes) != capacity.DefaultMaxPageBytes {
		t.Errorf("defaults %d, %d, %d; want the library's", pl.maxObjects, pl.maxBytes, pl.maxPageBytes)
	}
	if _, out, _ := run("help", "capacity"); !strings.Contains(out, "--max-bytes SIZE") || !strings.Contains(out, "(default 2Gi)") || !strings.Contains(out, "(default 128Mi)") || !strings.Contains(out, "(default 500000)") {
		t.Errorf("help capacity lacks the bounds:\n%s", out)
	}
}
