package azureml

import "github.com/amlarc-go/instancetypes/source"

// azure-ai-ml, the SDK under the Azure ML CLI v2, loads an Azure ML file with PyYAML's safe
// loader, which types a plain scalar (unquoted, without a tag) by YAML 1.1's rules as
// PyYAML writes them. They differ from the rules kubectl's reader applies (yaml11.go):
// 1e3, 0.5e1, 5e+1, -.5, .5e1, 09, 0o10 and y are strings to PyYAML, numbers or true to
// kubectl (sigs.k8s.io/yaml); 1:30 is a number to PyYAML, a string to kubectl. Where
// azure-ai-ml wants a string (a deployment's resources), its reading decides: the one
// piece of typing here, held to PyYAML's by a table PyYAML itself wrote
// (testdata/pyyaml/types.tsv, scripts/pyyaml-types.py).

// pyYAMLScalar is the type azure-ai-ml's reading gives the scalar s, as written, as
// pyYAMLType names it: a quoted or block scalar is a string; one with a tag is what the
// tag says.
func pyYAMLScalar(s source.Scalar) string {
	switch {
	case s.Tagged:
		switch s.Tag {
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "null"
		}
		return ""
	case s.Quoted || s.Block:
		return ""
	}
	return pyYAMLType(s.Value)
}

// pyYAMLType is the type PyYAML's safe loader gives the plain scalar s: "" for a string,
// else "null", "a boolean" or "a number" (an integer or a float). Timestamps, which it
// reads too, are left strings here: none is a quantity, so a value written as one has a
// finding anyway.
func pyYAMLType(s string) string {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return "null"
	case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
		"false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF":
		return "a boolean"
	}
	if pyYAMLInt(s) || pyYAMLFloat(s) {
		return "a number"
	}
	return ""
}

// pyYAMLInt reports an integer to PyYAML: with an optional sign, 0b and binary digits,
// 0 and octal digits, 0 alone, a decimal that starts with 1 to 9, 0x and hex digits, or a
// sexagesimal one (1:30, 190:20:30); underscores anywhere after the first digit.
func pyYAMLInt(s string) bool {
	t := trimSign(s)
	switch {
	case t == "":
		return false
	case len(t) > 2 && t[0] == '0' && t[1] == 'b':
		return spanOf(t, 2, isBinaryDigit) == len(t)
	case len(t) > 2 && t[0] == '0' && t[1] == 'x':
		return spanOf(t, 2, isHexDigit) == len(t)
	case t[0] == '0':
		return spanOf(t, 1, isOctalDigit) == len(t)
	case '1' <= t[0] && t[0] <= '9':
		i := spanOf(t, 1, isDecimalDigit)
		return i+sexagesimal(t[i:]) == len(t)
	}
	return false
}

// pyYAMLFloat reports a float to PyYAML: a decimal with a point, and an exponent only
// with its sign ([-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)?); a point and digits with no
// sign (.5, .5e+1); a sexagesimal one with a point (1:30.5); .inf with an optional sign;
// .nan without one.
func pyYAMLFloat(s string) bool {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return true
	}
	t := trimSign(s)
	switch t {
	case ".inf", ".Inf", ".INF":
		return true
	}
	if s != "" && s[0] == '.' {
		if len(s) < 2 || !isDecimal(s[1]) {
			return false
		}
		return signedExponent(s[spanOf(s, 2, isDecimalDigit):])
	}
	if t == "" || !isDecimal(t[0]) {
		return false
	}
	i := spanOf(t, 1, isDecimalDigit)
	if i < len(t) && t[i] == ':' {
		n := sexagesimal(t[i:])
		if n == 0 {
			return false
		}
		i += n
		return i < len(t) && t[i] == '.' && spanOf(t, i+1, isDecimalDigit) == len(t)
	}
	if i == len(t) || t[i] != '.' {
		return false
	}
	return signedExponent(t[spanOf(t, i+1, isDecimalDigit):])
}

// sexagesimal is the length of the groups (:[0-5]?[0-9])+ at the start of s, 0 when there
// are none. Taking two digits when they fit is right: what may follow a group (":", ".",
// the end) is never a digit.
func sexagesimal(s string) int {
	i := 0
	for i < len(s) && s[i] == ':' {
		switch {
		case i+2 < len(s) && '0' <= s[i+1] && s[i+1] <= '5' && isDecimal(s[i+2]):
			i += 3
		case i+1 < len(s) && isDecimal(s[i+1]):
			i += 2
		default:
			return i
		}
	}
	return i
}

// signedExponent reports s empty or an exponent with its sign: [eE][-+][0-9]+.
func signedExponent(s string) bool {
	if s == "" {
		return true
	}
	if len(s) < 3 || s[0] != 'e' && s[0] != 'E' || s[1] != '-' && s[1] != '+' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isDecimal(s[i]) {
			return false
		}
	}
	return true
}

// trimSign drops one leading sign.
func trimSign(s string) string {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		return s[1:]
	}
	return s
}

// spanOf is the index of the first byte of s at or after i that ok refuses (len(s) if none).
func spanOf(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

func isDecimal(c byte) bool      { return '0' <= c && c <= '9' }
func isDecimalDigit(c byte) bool { return isDecimal(c) || c == '_' }
func isOctalDigit(c byte) bool   { return '0' <= c && c <= '7' || c == '_' }
func isBinaryDigit(c byte) bool  { return c == '0' || c == '1' || c == '_' }
func isHexDigit(c byte) bool {
	return isDecimal(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == '_'
}
