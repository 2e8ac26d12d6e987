package integration_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The webhook is tested as a cluster runs it: command instancetype-webhook, built as the
// image builds it (CGO_ENABLED=0, a static binary), run as a process of its own.
var webhookBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// buildWebhook builds the webhook's binary once per test binary, and returns its path.
func buildWebhook(t testing.TB) string {
	t.Helper()
	webhookBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "instancetype-webhook-bin")
		if err != nil {
			webhookBinary.err = err
			return
		}
		webhookBinary.dir = dir
		webhookBinary.path = filepath.Join(dir, "instancetype-webhook")
		cmd := exec.Command("go", "build", "-trimpath", "-o", webhookBinary.path, "../cmd/instancetype-webhook")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			webhookBinary.err = fmt.Errorf("go build ../cmd/instancetype-webhook: %v\n%s", err, out)
		}
	})
	if webhookBinary.err != nil {
		t.Fatal(webhookBinary.err)
	}
	return webhookBinary.path
}

// removeWebhookBinary removes what buildWebhook made; TestMain calls it.
func removeWebhookBinary() {
	if webhookBinary.dir != "" {
		os.RemoveAll(webhookBinary.dir)
	}
}

// webhookProcess is a running instancetype-webhook.
type webhookProcess struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	err  error         // its exit error, once done

	mu    sync.Mutex
	lines []map[string]any // its JSON log lines
	addrs map[string]string
	raw   bytes.Buffer // every byte of its standard error, for failure messages
}

// startWebhookProcess starts the binary with certDir and extra flags, every server on a
// free loopback port, and waits until it logs that it is ready.
func startWebhookProcess(t testing.TB, certDir string, extra ...string) *webhookProcess {
	t.Helper()
	args := append([]string{
		"--cert-dir", certDir,
		"--bind-address", "127.0.0.1:0",
		"--health-probe-bind-address", "127.0.0.1:0",
		"--metrics-bind-address", "127.0.0.1:0",
	}, extra...)
	p := &webhookProcess{cmd: exec.Command(buildWebhook(t), args...), done: make(chan struct{}), addrs: map[string]string{}}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stderr, lockedWriter{&p.mu, &p.raw}))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			p.mu.Lock()
			p.lines = append(p.lines, m)
			if m["msg"] == "serving" {
				p.addrs[fmt.Sprint(m["server"])] = fmt.Sprint(m["address"])
			}
			p.mu.Unlock()
		}
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	deadline := time.After(60 * time.Second) // a bound on a hang, not on speed
	for len(p.logs("ready")) == 0 {
		select {
		case <-p.done:
			t.Fatalf("instancetype-webhook exited: %v\n%s", p.err, p.stderr())
		case <-deadline:
			p.kill()
			t.Fatalf("instancetype-webhook did not get ready\n%s", p.stderr())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return p
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// addr returns the address a server (webhook, probes, metrics) listens on.
func (p *webhookProcess) addr(server string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addrs[server]
}

// logs returns the log lines with the message msg.
func (p *webhookProcess) logs(msg string) []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []map[string]any
	for _, l := range p.lines {
		if l["msg"] == msg {
			out = append(out, l)
		}
	}
	return out
}

func (p *webhookProcess) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.raw.String()
}

// terminate sends SIGTERM and waits for the process to exit, for at most a minute; it
// returns the exit error (nil for status 0).
func (p *webhookProcess) terminate() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.done:
		return p.err
	case <-time.After(time.Minute):
		p.kill()
		return errors.New("instancetype-webhook did not exit within a minute of SIGTERM")
	}
}

func (p *webhookProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}
