package webhook

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"github.com/amlarc-go/instancetypes/validate"
)

// ratchet splits errs, the findings of the new object newRaw of an UPDATE, into those that
// deny it and those kept as warnings because the old object oldRaw has the same finding
// (field path, type, detail) and the same JSON value at its path (see the package
// documentation). Order is kept in both. An old object that is missing, or no
// InstanceType, ratchets nothing. It returns ctx's error if ctx ends on the way.
func ratchet(ctx context.Context, errs field.ErrorList, newRaw, oldRaw []byte, opts validate.Options) (deny, kept field.ErrorList, err error) {
	if len(oldRaw) == 0 {
		return errs, nil, nil
	}
	old, bad := decodeObject(oldRaw, "oldObject")
	if bad != nil {
		return errs, nil, nil
	}
	before := make(map[findingKey]bool)
	for _, e := range findings(old, opts) {
		before[keyOf(e)] = true
	}
	if err := checkpoint(ctx, stageOldObject); err != nil {
		return nil, nil, err
	}
	var paths []string
	for _, e := range errs {
		if before[keyOf(e)] {
			paths = append(paths, e.Field)
		}
	}
	if len(paths) == 0 {
		return errs, nil, nil
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	newVals, okNew := valuesAt(newRaw, paths)
	oldVals, okOld := valuesAt(oldRaw, paths)
	if !okNew || !okOld {
		return errs, nil, nil
	}
	if err := checkpoint(ctx, stageCompared); err != nil {
		return nil, nil, err
	}
	for _, e := range errs {
		if before[keyOf(e)] && unchanged(newVals, oldVals, e.Field) {
			kept = append(kept, e)
		} else {
			deny = append(deny, e)
		}
	}
	return deny, kept, nil
}

// findingKey is what makes two findings the same: path, type and detail.
type findingKey struct {
	field  string
	typ    field.ErrorType
	detail string
}

func keyOf(e *field.Error) findingKey { return findingKey{e.Field, e.Type, e.Detail} }

// value is what an object holds at a path: nothing (absent), one JSON value, or more than
// one (the path names two places, and so is never unchanged).
type value struct {
	v     any
	count int
}

// unchanged reports whether the values at path are the same in both objects: absent from
// both, or one equal JSON value in each.
func unchanged(newVals, oldVals map[string]*value, path string) bool {
	n, o := newVals[path], oldVals[path]
	switch {
	case n == nil && o == nil:
		return true
	case n == nil || o == nil || n.count != 1 || o.count != 1:
		return false
	}
	return reflect.DeepEqual(n.v, o.v)
}

// valuesAt decodes the JSON object raw and returns the values at each of paths (sorted),
// field paths as field.Path.String renders them, for the paths where raw has a value. It
// reports false if raw is not JSON.
//
// The walk renders the path of each node it visits, as field.Path does: a field of an
// object as .name, a key of a map as [key], an item of a list as [i]. Which objects are
// maps is known from the InstanceType's schema (mapFields); every other object is a
// struct. Only nodes on the way to some path are visited, so the cost is the size of
// the parts of the object the findings are about.
func valuesAt(raw []byte, paths []string) (map[string]*value, bool) {
	var root any
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, &root); err != nil {
		return nil, false
	}
	w := walker{paths: paths, found: map[string]*value{}}
	w.visit(root, nil, false)
	return w.found, true
}

// mapFields are the paths of the InstanceType's fields that are maps: their keys are
// rendered in brackets.
var mapFields = map[string]bool{
	"metadata.labels":         true,
	"metadata.annotations":    true,
	"spec.nodeSelector":       true,
	"spec.resources.limits":   true,
	"spec.resources.requests": true,
}

type walker struct {
	paths []string
	found map[string]*value
}

// visit records v if path is one of w.paths, and visits the children of v if some path
// lies below path. isMap says whether v's keys are map keys.
func (w *walker) visit(v any, path []byte, isMap bool) {
	p := string(path)
	i, exact := slices.BinarySearch(w.paths, p)
	if exact {
		if f := w.found[p]; f != nil {
			f.count++
		} else {
			w.found[p] = &value{v: v, count: 1}
		}
	}
	// The paths below p, if any, follow it in sorted order: p is a prefix of each.
	if exact {
		i++
	}
	if i == len(w.paths) || !strings.HasPrefix(w.paths[i], p) {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			next := path
			switch {
			case isMap:
				next = append(append(append(next, '['), k...), ']')
			case len(next) > 0:
				next = append(append(next, '.'), k...)
			default:
				next = append(next, k...)
			}
			w.visit(child, next, !isMap && mapFields[string(next)])
		}
	case []any:
		for j, child := range v {
			w.visit(child, append(strconv.AppendInt(append(path, '['), int64(j), 10), ']'), false)
		}
	}
}
