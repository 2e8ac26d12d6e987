package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoPrivateImportsOfTheLibrary: no package of the client module, nor its tests,
// imports a package internal to the library's module (the library's own packages do, as
// they may). The two modules are released
// apart (RELEASING.md): what one imports of the other is its public, versioned API.
func TestNoPrivateImportsOfTheLibrary(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}: {{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}",
		"github.com/amlarc-go/instancetypes/client/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const private = "github.com/amlarc-go/instancetypes/internal/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		for _, p := range strings.Fields(imports) {
			if strings.HasPrefix(p, private) {
				t.Errorf("%s imports %s, internal to the library's module", pkg, p)
			}
		}
	}
}
