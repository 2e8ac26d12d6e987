package lint

import (
	"cmp"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/source"
)

// Findings are suppressed in two ways:
//
//   - a suppression comment in the finding's file (read with each document that holds
//     one: source.Document.Comments):
//     "# instancetype:ignore R9" after the finding's line, alone on the line above it (or
//     above a block of comment lines above it), or alone at the top of its document for
//     the whole document. A comment that names no rule, a rule that does not exist, or a
//     rule none of whose findings it suppresses is a finding of its own (rule
//     "suppression"), so that stale comments do not pile up; those findings are not
//     suppressed by comments, only by an Ignore of "suppression".
//   - an Ignore (Options.Ignore: --ignore RULE[=GLOB], the config file's ignore): a rule,
//     everywhere or in the files whose paths match a pattern. An Ignore that suppresses
//     nothing is not reported: a run may check some of the files only (those of the
//     inputs it is given), and a config file's ignores are written for all of them.
//
// A finding both suppress is counted for the comment. Suppressed findings are not in
// Report.Findings, but in Report.Suppressed, with what suppressed each. The count of a
// file's findings beyond Options.MaxFindings (too-many-findings) cannot be suppressed.

// Ignore suppresses the findings of one rule, everywhere or in some files.
type Ignore struct {
	// Rule is the rule's id, as Rules has it.
	Rule string
	// Glob, when set, limits the Ignore to the files whose path, or a trailing part of it
	// that starts at a path element, matches it (path.Match), as the patterns of
	// Options.Exclude match: "legacy/*", "*.json", "deploy". The path is the file's as
	// findings name it, or, with Dir, relative to Dir.
	Glob string
	// Dir, when set, is the directory Glob is relative to (relative itself to the working
	// directory, unless absolute): a finding's file is matched by its path relative to
	// Dir, so that the Ignore names the same files from any working directory. The
	// ignores of a config file have its directory (Config.Dir).
	Dir string
	// Source says where the Ignore was given, for Suppressed.By: "--ignore R9",
	// ".instancetype.yaml:7". Empty means "Options.Ignore".
	Source string
}

// ParseIgnore parses RULE[=GLOB], the form of --ignore and of the config file's ignore
// entries. RULE is the id of one of Rules, in any case (the Ignore has it as Rules does);
// GLOB a pattern path.Match takes. too-many-findings cannot be suppressed.
func ParseIgnore(s string) (Ignore, error) {
	id, glob, _ := strings.Cut(s, "=")
	id = strings.TrimSpace(id)
	if id == "" {
		return Ignore{}, errors.New("no rule: want RULE or RULE=GLOB ('instancetype rules' lists the rules)")
	}
	r, ok := LookupRule(id)
	if !ok {
		return Ignore{}, errors.New("unknown rule " + clip.Quote(id) + suggestRule(id) + " ('instancetype rules' lists the rules)")
	}
	if r.ID == rules.TooManyFindings {
		return Ignore{}, errors.New(r.ID + " cannot be suppressed: it counts the findings not shown; raise the limit instead")
	}
	if err := ValidExclude(glob); err != nil {
		return Ignore{}, errors.New("bad pattern " + clip.Quote(glob) + ": " + err.Error())
	}
	return Ignore{Rule: r.ID, Glob: glob}, nil
}

// suggestRule is ", did you mean R9?" for an id that differs from a rule's in case, or
// in punctuation, or "".
func suggestRule(id string) string {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r == ' ' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	for _, r := range registry {
		if norm(r.ID) == norm(id) {
			return "; did you mean " + strconv.Quote(r.ID) + "?"
		}
	}
	return ""
}

// matches reports whether the Ignore, whose Dir is absolute, applies to the finding f; cwd
// is the working directory its file is named from.
func (ig Ignore) matches(f Finding, cwd string) bool {
	if f.Rule() != ig.Rule {
		return false
	}
	if ig.Glob == "" {
		return true
	}
	p := filepath.ToSlash(f.File)
	if ig.Dir != "" {
		abs := f.File
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, abs)
		}
		p = relPath(abs, ig.Dir)
	}
	return excluded(p, []string{ig.Glob})
}

func (ig Ignore) by() string {
	if ig.Source != "" {
		return ig.Source
	}
	return "Options.Ignore"
}

// Suppressed is a finding a suppression kept out of Report.Findings.
type Suppressed struct {
	Finding
	// By says what suppressed it: "comment on line 12" (in the finding's file), or the
	// Source of an Ignore ("--ignore R9").
	By string
	// InSource reports a suppression comment in the finding's file; false for an Ignore.
	InSource bool
}

// comment is a suppression comment of a file, with the rules it names that exist and
// how many findings of each it suppressed.
type comment struct {
	source.Comment
	ids  []string // as Rules has them, without repeats
	used []int    // per id
}

// ruleIDs are the rule ids a suppression comment names, after the marker: separated by
// commas, blanks or both, up to " -- " and a reason.
func ruleIDs(text string) []string {
	if i := strings.Index(text, "--"); i >= 0 {
		text = text[:i]
	}
	return strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' })
}

// comments are the suppression comments of a file, indexed by the lines they apply to, so
// that a finding is matched with those of its line and of its document alone, whatever
// their number.
type comments struct {
	all    []comment
	byLine map[int][]int // the comments that apply to one line (ScopeLine, ScopeNextLine)
	// docs are the comments that apply to a document, sorted by first line: the ranges
	// of two documents do not overlap, and those of one document are the same.
	docs []int
}

// addComments adds suppression comments of the file (as package source's reader hands
// them over, a document's with it, before its findings are filtered), and the findings
// about them that do not depend on the file's findings: a comment that names no rule, or
// one that does not exist. A file without any keeps nil comments.
func (res *fileResult) addComments(ss []source.Comment) {
	if len(ss) == 0 {
		return
	}
	cs := res.comments
	if cs == nil {
		cs = &comments{byLine: map[int][]int{}}
		res.comments = cs
	}
	for _, s := range ss {
		c := comment{Comment: s}
		ids := ruleIDs(s.Text)
		if len(ids) == 0 {
			res.commentProblems = append(res.commentProblems, suppressionFinding(res.name, s.Position,
				"this suppression comment names no rule: write the ids of the rules it suppresses, # "+IgnoreMarker+" R9 ('instancetype rules' lists them)"))
		}
		for _, id := range ids {
			r, ok := LookupRule(id)
			if !ok {
				res.commentProblems = append(res.commentProblems, suppressionFinding(res.name, s.Position,
					"unknown rule "+clip.Quote(id)+suggestRule(id)+" in this suppression comment ('instancetype rules' lists the rules)"))
				continue
			}
			if !slices.Contains(c.ids, r.ID) {
				c.ids = append(c.ids, r.ID)
			}
		}
		c.used = make([]int, len(c.ids))
		i := len(cs.all)
		cs.all = append(cs.all, c)
		if c.Scope != source.ScopeDocument {
			cs.byLine[c.From] = append(cs.byLine[c.From], i)
			continue
		}
		// In order of first line, after those of the same: documents come in file order,
		// but the file's own comments (of documents skipped) come last.
		j, _ := slices.BinarySearchFunc(cs.docs, c.From+1, func(k, l int) int { return cmp.Compare(cs.all[k].From, l) })
		cs.docs = slices.Insert(cs.docs, j, i)
	}
}

// covering calls fn with the comments that apply to line, those of the line first, until
// fn returns false.
func (cs *comments) covering(line int, fn func(c *comment) bool) {
	if cs == nil {
		return
	}
	for _, i := range cs.byLine[line] {
		if !fn(&cs.all[i]) {
			return
		}
	}
	// The last document that starts at or before line, and every comment of it.
	j, _ := slices.BinarySearchFunc(cs.docs, line+1, func(i, l int) int { return cmp.Compare(cs.all[i].From, l) })
	for k := j - 1; k >= 0 && cs.all[cs.docs[k]].From == cs.all[cs.docs[j-1]].From; k-- {
		if c := &cs.all[cs.docs[k]]; line <= c.To && !fn(c) {
			return
		}
	}
}

func suppressionFinding(file string, pos Position, detail string) Finding {
	f := fileProblemAt(file, pos.Line, SuppressionProblem, detail)
	f.Column = pos.Column
	return f
}

// suppressor applies a run's suppressions.
type suppressor struct {
	ignores []Ignore // their Dirs absolute
	cwd     string   // the working directory, when an Ignore has a Dir
}

// filter returns the findings of fs that no suppression suppresses, and appends the others
// to *out: those a comment of cs suppresses (counted in the comment), then those an Ignore
// does. Findings of rule suppression, and the count of findings left out, are suppressed
// by Ignores only, and the count not at all.
func (s suppressor) filter(fs []Finding, cs *comments, out *[]Suppressed) []Finding {
	if len(s.ignores) == 0 && cs == nil {
		return fs
	}
	kept := fs[:0:0]
findings:
	for _, f := range fs {
		rule := f.Rule()
		if rule == rules.TooManyFindings {
			kept = append(kept, f)
			continue
		}
		if rule != rules.Suppression {
			var by *comment
			cs.covering(f.Line, func(c *comment) bool {
				if j := slices.Index(c.ids, rule); j >= 0 {
					c.used[j]++
					by = c
					return false
				}
				return true
			})
			if by != nil {
				*out = append(*out, Suppressed{Finding: f, By: "comment on line " + strconv.Itoa(by.Line), InSource: true})
				continue findings
			}
		}
		for _, ig := range s.ignores {
			if ig.matches(f, s.cwd) {
				*out = append(*out, Suppressed{Finding: f, By: ig.by()})
				continue findings
			}
		}
		kept = append(kept, f)
	}
	return kept
}

// unused returns a finding for each rule of a comment of cs that suppressed nothing.
func unused(file string, cs *comments) []Finding {
	if cs == nil {
		return nil
	}
	var out []Finding
	for _, c := range cs.all {
		for j, id := range c.ids {
			if c.used[j] > 0 {
				continue
			}
			where := "on its line"
			switch c.Scope {
			case source.ScopeNextLine:
				where = "on the line below it"
			case source.ScopeDocument:
				where = "in its document"
			}
			out = append(out, suppressionFinding(file, c.Position,
				"this suppression of "+id+" suppresses nothing: there is no "+id+" finding "+where+"; remove it"))
		}
	}
	return out
}

// sortSuppressed orders suppressed findings as findings are ordered, and keeps the first
// limit of each file (all of them when limit < 0).
func sortSuppressed(ss []Suppressed, limit int) []Suppressed {
	slices.SortStableFunc(ss, func(a, b Suppressed) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	if limit < 0 {
		return ss
	}
	out := ss[:0]
	n := 0
	for i, s := range ss {
		if i > 0 && s.File != ss[i-1].File {
			n = 0
		}
		if n < limit {
			out = append(out, s)
		}
		n++
	}
	return out
}
