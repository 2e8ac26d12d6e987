package rules

import "strings"

// PlaceholderKind is what kind of placeholder a value holds: text a person or a tool was
// meant to replace before the file is used.
type PlaceholderKind uint8

// The kinds of placeholders, as PlaceholderOf tells them.
const (
	// NoPlaceholder: the value is what it says.
	NoPlaceholder PlaceholderKind = iota
	// AngleBrackets: a placeholder of documentation, <instance type name>, which nothing
	// fills in.
	AngleBrackets
	// ShellVariable: $VAR or ${VAR} (${VAR:-default} too), which a shell expands in a
	// heredoc or envsubst in a template; azure-ai-ml reads the $ as text.
	ShellVariable
	// TemplateAction: {{ … }}, an action of a Go, Jinja or Mustache template not rendered.
	TemplateAction
	// Expression: ${{ … }}, an Azure ML expression (${{parent.inputs.x}}), which Azure ML
	// fills in when the job is submitted.
	Expression
)

// PlaceholderOf tells whether the value s holds a placeholder, and of which kind: an Azure
// ML expression (${{ … }}), a shell variable ($NAME, ${NAME…}), a template action
// ({{ … }}) or text in angle brackets (<name>), anywhere in s. A value that holds none is
// NoPlaceholder; so is a lone $ or <, which can be written on purpose. Of two kinds in
// one value, the first of that order is told. It does not allocate.
func PlaceholderOf(s string) PlaceholderKind {
	if i := strings.Index(s, "${{"); i >= 0 && strings.Contains(s[i+3:], "}}") {
		return Expression
	}
	for i := strings.IndexByte(s, '$'); i >= 0 && i+1 < len(s); {
		switch c := s[i+1]; {
		case c == '{' && i+2 < len(s) && isNameStart(s[i+2]) && strings.IndexByte(s[i+2:], '}') > 0:
			return ShellVariable
		case isNameStart(c):
			return ShellVariable
		}
		j := strings.IndexByte(s[i+1:], '$')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if i := strings.Index(s, "{{"); i >= 0 && strings.Contains(s[i+2:], "}}") {
		return TemplateAction
	}
	if i := strings.IndexByte(s, '<'); i >= 0 && strings.IndexByte(s[i+1:], '>') > 0 {
		return AngleBrackets
	}
	return NoPlaceholder
}

// Describe says what a value of the kind is, for a finding: "a shell variable, which
// azure-ai-ml does not expand (…)". It is "" for NoPlaceholder.
func (k PlaceholderKind) Describe() string {
	switch k {
	case AngleBrackets:
		return "a placeholder in angle brackets, which nothing fills in"
	case ShellVariable:
		return "a shell variable, which azure-ai-ml does not expand (a heredoc or a template whose variables were not substituted: " +
			"expand them first, with the shell or envsubst, and check the result)"
	case TemplateAction:
		return "a template action ({{ }}) that was not rendered (render the template first, and check the result)"
	case Expression:
		return "an Azure ML expression, which Azure ML fills in only when the job is submitted (from the pipeline's inputs), so what it names cannot be checked here"
	}
	return ""
}

// isNameStart reports a byte that can begin a shell variable's name.
func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// IsObjectName reports whether s is a Kubernetes object name, a DNS-1123 subdomain of at
// most 253 bytes: labels of [a-z0-9-] separated by single dots, each starting and ending
// with [a-z0-9]. It accepts exactly the strings apimachinery's
// validation.IsDNS1123Subdomain accepts, and does not allocate. Only such a name can be an
// InstanceType's in a cluster.
func IsObjectName(s string) bool {
	n := len(s)
	if n == 0 || n > 253 || !isLowerAlnum(s[0]) || !isLowerAlnum(s[n-1]) {
		return false
	}
	for i := 1; i < n-1; i++ {
		switch c := s[i]; {
		case isLowerAlnum(c), c == '-':
		case c == '.':
			// A dot must sit between two alphanumerics: it ends one label and the next
			// begins, so "a..b", "a.-b" and "a-.b" are refused.
			if !isLowerAlnum(s[i-1]) || !isLowerAlnum(s[i+1]) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
