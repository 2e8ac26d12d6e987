package azureml

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
)

// The keys of an Azure ML file are checked as azure-ai-ml's marshmallow schemas check them
// when the Azure ML CLI loads the file: a key no schema of its place declares is refused
// ("Unknown field"), but where the schema tolerates unknown keys (unknown=INCLUDE or
// EXCLUDE: a pipeline's settings, a parallel step's task and retry_settings, a pipeline
// step that uses a component). The tables (fields_gen.go) are generated from azure-ai-ml
// itself by scripts/azureml-fields; nothing here names a field.

// fieldSchema is one of azure-ai-ml's schemas: its fields, sorted by key, those a mapping
// must have (marshmallow's required), and whether it tolerates unknown keys.
type fieldSchema struct {
	name     string
	open     bool
	required []string
	// types are the values its type field allows (an enum), none when it has no such
	// field: a union reads a mapping by it only when the mapping's type is one of them.
	types  []string
	fields []schemaField
}

// reads reports whether the schema can read the mapping m, as a union tries it: m has
// its required fields and, if the schema has a type of its own, one it allows.
func (s *fieldSchema) reads(m map[string]any) bool {
	for _, r := range s.required {
		if _, ok := m[r]; !ok {
			return false
		}
	}
	if len(s.types) == 0 {
		return true
	}
	// An untyped mapping is read by a schema of typed values that tolerates any key
	// only when it has what that schema requires (a pipeline step's component): an
	// untyped inline step is not taken for a parallel step (PipelineParallelJobSchema
	// requires nothing, but the ParallelJob it makes refuses the keys it kept, so
	// azure-ai-ml reports them as unknown for the other alternatives).
	t, ok := m["type"].(string)
	if !ok {
		return !s.open || len(s.required) > 0
	}
	for _, v := range s.types {
		if strings.EqualFold(v, t) {
			return true
		}
	}
	return false
}

// schemaField is a key of a schema and the shape of value it takes.
type schemaField struct {
	name  string
	value uint16
}

// valueKind is the shape of value a field takes, as far as keys go.
type valueKind uint8

const (
	// valueAny takes anything (marshmallow's Raw, a Dict of any values).
	valueAny valueKind = iota
	// valueScalar takes a scalar: a mapping or list there is refused, but not for its keys.
	valueScalar
	// valueSchema is a mapping read by the schema elem.
	valueSchema
	// valueList is a list of values of the shape elem.
	valueList
	// valueDict is a mapping of any keys to values of the shape elem.
	valueDict
	// valueUnion is any of the shapes alts, or, when the mapping's typeKey names one of
	// byType, those of that type.
	valueUnion
)

// fieldValue is a shape of value.
type fieldValue struct {
	kind    valueKind
	elem    uint16
	alts    []uint16
	typeKey string
	byType  []typedValues
}

// typedValues are the shapes of value a union takes for one value of its type key.
type typedValues struct {
	typ    string
	values []uint16
}

// lookup returns the shape of the value of key in s, and whether s declares it.
func (s *fieldSchema) lookup(key string) (uint16, bool) {
	i := sort.Search(len(s.fields), func(i int) bool { return s.fields[i].name >= key })
	if i < len(s.fields) && s.fields[i].name == key {
		return s.fields[i].value, true
	}
	return 0, false
}

// fieldRoot is the name of the generated table's root for a document of kind, whose
// value is v, "" for a kind whose keys are not checked. A batch deployment whose $schema
// is modelBatchDeployment's, or of type model, is read by that schema (load_model_batch_deployment);
// another by the batch deployment's (load_batch_deployment).
func fieldRoot(kind Kind, v any) string {
	switch kind {
	case KindJob:
		return "CommandJob"
	case KindSweepJob:
		return "SweepJob"
	case KindPipelineJob:
		return "PipelineJob"
	case KindAutoMLJob:
		return "AutoMLJob"
	case KindDeployment:
		return "KubernetesOnlineDeployment"
	case KindBatchDeployment:
		m, _ := v.(map[string]any)
		if schemaName(scalarText(m["$schema"])) == "modelbatchdeployment" || scalarText(m["type"]) == "model" {
			return "ModelBatchDeployment"
		}
		return "BatchDeployment"
	case KindCompute:
		return "Compute"
	}
	return ""
}

// UnknownFields returns the keys of the Azure ML document v, of kind, that azure-ai-ml
// refuses as unknown: each a finding at its path (rule unknown-field), with the field most
// likely meant. A kind whose keys are not checked (an endpoint with deployments inline, a
// compute list) has none.
func UnknownFields(kind Kind, v any) field.ErrorList {
	root, ok := fieldRoots[fieldRoot(kind, v)]
	if !ok {
		return nil
	}
	c := fieldChecker{foldType: kind == KindCompute}
	c.check(v, []uint16{root}, nil)
	if kind == KindJob {
		for i, e := range c.errs {
			if e.Field == "component" {
				c.errs[i] = field.Forbidden(field.NewPath("component"), "unknown field \"component\": a pipeline step's key, not a job's (what azure-ai-ml's dump() writes for a command() builder); "+
					"write the command, code and environment in the job itself, or make the file a pipeline with this step under jobs (the Azure ML CLI refuses it: \"Unknown field\")").WithOrigin(rules.UnknownField)
			}
		}
	}
	return c.errs
}

// fieldChecker walks a document beside the shapes azure-ai-ml's schemas give its values.
type fieldChecker struct {
	errs field.ErrorList
	// known are the known keys of each set of schemas a finding was made in, kept for
	// the next finding in the same place.
	known map[string][]string
	// foldType: the type that chooses a schema is compared regardless of case (a
	// compute's, as load_compute compares it).
	foldType bool
}

// check checks the value v at p, which may take any of the shapes vals.
func (c *fieldChecker) check(v any, vals []uint16, p *field.Path) {
	var schemas, lists, dicts []uint16
	anything := false
	var flatten func(vals []uint16)
	flatten = func(vals []uint16) {
		for _, i := range vals {
			fv := &fieldValues[i]
			switch fv.kind {
			case valueAny:
				anything = true
			case valueSchema:
				schemas = append(schemas, fv.elem)
			case valueList:
				lists = append(lists, fv.elem)
			case valueDict:
				dicts = append(dicts, fv.elem)
			case valueUnion:
				if chosen, ok, refused := c.byType(v, fv); refused {
					// A type the union does not know: azure-ai-ml refuses the value for
					// that, and reads none of its keys.
					continue
				} else if ok {
					flatten(chosen)
					continue
				}
				flatten(fv.alts)
			}
		}
	}
	flatten(vals)
	if anything {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if len(schemas) > 0 {
			c.mapping(v, schemas, dicts, p)
		} else if len(dicts) > 0 {
			for _, k := range strict.SortedKeys(v) {
				c.check(v[k], dicts, entry(p, k))
			}
		}
	case []any:
		if len(lists) > 0 {
			for i, e := range v {
				c.check(e, lists, p.Index(i))
			}
		}
	}
}

// byType returns the shapes the union fv takes for the type the mapping v names, if it
// names one the union chooses by; refused when it names another.
func (c *fieldChecker) byType(v any, fv *fieldValue) (vals []uint16, ok, refused bool) {
	if fv.typeKey == "" {
		return nil, false, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, false, false
	}
	t, has := m[fv.typeKey].(string)
	if !has {
		return nil, false, false
	}
	for _, b := range fv.byType {
		if b.typ == t || c.foldType && strings.EqualFold(b.typ, t) {
			vals = append(vals, b.values...)
		}
	}
	if vals == nil {
		return nil, false, true
	}
	return vals, true, false
}

// mapping checks the keys of the mapping m at p, which any of the schemas may read (and,
// when dicts is not empty, a mapping of any keys to values of those shapes). As
// marshmallow's unions do, the value is read by the schemas it can be read by: those
// whose required fields and type it has (else the strict ones among all, else all). A key that
// none of them declares, when none tolerates unknown keys, is a finding.
func (c *fieldChecker) mapping(m map[string]any, schemas, dicts []uint16, p *field.Path) {
	cands := slices.DeleteFunc(slices.Clone(schemas), func(i uint16) bool { return !fieldSchemas[i].reads(m) })
	if len(cands) == 0 {
		cands = slices.DeleteFunc(slices.Clone(schemas), func(i uint16) bool { return fieldSchemas[i].open })
	}
	if len(cands) == 0 {
		cands = schemas
	}
	open := len(dicts) > 0
	for _, i := range cands {
		open = open || fieldSchemas[i].open
	}
	for _, k := range strict.SortedKeys(m) {
		var vals []uint16
		for _, i := range cands {
			if v, ok := fieldSchemas[i].lookup(k); ok && !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		switch {
		case len(vals) > 0:
			c.check(m[k], vals, p.Child(k))
		case len(dicts) > 0:
			c.check(m[k], dicts, entry(p, k))
		case !open:
			c.errs = append(c.errs, unknownField(k, c.knownKeys(cands), p.Child(k)))
		}
	}
}

// unknownField is the finding of the key at p, which azure-ai-ml refuses, with the known
// key most likely meant.
func unknownField(key string, known []string, p *field.Path) *field.Error {
	detail := "unknown field " + clip.Quote(key)
	if s := strict.Closest(key, known); s != "" {
		detail += "; did you mean " + strconv.Quote(s) + "?"
	}
	return field.Forbidden(p, detail+" (the Azure ML CLI refuses it: \"Unknown field\")").WithOrigin(rules.UnknownField)
}

// entry is the path of the entry key of a mapping of names to values at p: p.key, as
// a pipeline's steps are named (jobs.train), or p[key] for a key that is not a name.
func entry(p *field.Path, key string) *field.Path {
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return p.Key(key)
		}
	}
	if key == "" {
		return p.Key(key)
	}
	return p.Child(key)
}

// knownKeys are the keys the schemas declare, sorted, once each.
func (c *fieldChecker) knownKeys(schemas []uint16) []string {
	id := make([]byte, 0, 2*len(schemas))
	for _, i := range schemas {
		id = append(id, byte(i>>8), byte(i))
	}
	if keys, ok := c.known[string(id)]; ok {
		return keys
	}
	if c.known == nil {
		c.known = map[string][]string{}
	}
	var keys []string
	for _, i := range schemas {
		for _, f := range fieldSchemas[i].fields {
			keys = append(keys, f.name)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	c.known[string(id)] = keys
	return keys
}
