// Package resolve tells what a workload really gets: which instance type applies, on which
// nodes it runs and with which requests and limits.
//
// A [Catalog] is an immutable set of instance types that always holds
// instancetype.DefaultName: the built-in definition (instancetype.Default) unless a custom
// instance type of that name overrides it (R5). [Resolve] turns a [Workload] — a training
// job or an online deployment, as package manifest decodes it — plus the extension's own
// nodeSelector into a [Placement], or into the field errors that prevent one. A [Store]
// holds the catalog of a controller, fed by informer events, and publishes copy-on-write
// snapshots that any number of goroutines resolve against without locking.
//
// # Rules of resolution
//
// Resolve(c, w, extension, fldPath) applies, in order:
//
//  1. Instance type (R6). The workload's instance type is w.InstanceType, or
//     instancetype.DefaultName when that is "". A name the catalog does not hold is a
//     field.NotFound error at w.InstanceTypePath(fldPath) (instance_type for a deployment,
//     resources.instance_type for a job) whose detail names the close matches
//     (case-insensitive equality, edit distance, prefix) or else the known names.
//  2. Node selector (R7). The effective selector is the union of the extension's and the
//     instance type's (selector.Merge). A key the two set to different values can match
//     no node: each such key is a field.Invalid error at the instance type path, in key
//     order, with a detail such as
//     `instance type "gpu" sets pool=gpu but the extension's nodeSelector sets pool=cpu;
//     no node can match both`.
//  3. Resources (R9). With no resources section (w.Resources == nil) the workload gets the
//     instance type's requests and limits, exactly. With one, it gets the section's
//     requests as written, and the section's limits as written — or, when the section has
//     no limits (none written, or an empty map), the instance type's limits as a whole:
//     the instance type is the cap.
//  4. Limits within the type (R9). Each limit of the section must be less than or equal
//     to the instance type's limit of the same resource ("within" is ≤); a violation is a
//     field.Invalid error at resources.limits[NAME]. An extended resource (a qualified
//     name such as nvidia.com/gpu) asked for with a positive amount that the instance
//     type does not provide (absent or null in its limits) is a field.Invalid error too.
//  5. Requests within the limits. Each request of the section must be less than or equal
//     to the effective limit of the same resource; where the section's limits leave that
//     resource out, to the instance type's limit of it. A violation is a field.Invalid
//     error at resources.requests[NAME].
//
// Amounts are compared with quantity.Quantity.Cmp. An amount that is unset (missing or
// null) or invalid (text that is not a quantity), in the workload or in the instance type,
// takes part in no comparison and causes no error here: reporting it is package
// validate's business, as are the shape rules (R2, R3, R8: required requests, memory of at
// least 1M, GPUs as integers and in limits only) and the MLflow minimums (R10). Resolve
// never panics on such input.
//
// Every error is reported, never only the first: an unknown instance type still has the
// section's requests checked against its own limits.
//
// # The placement on errors
//
// Resolve always returns the best placement it can, so that a command-line tool can show
// it next to the errors:
//
//   - Kind and Name are the workload's; InstanceType is the effective name (the one
//     written, or instancetype.DefaultName), even when the catalog lacks it.
//   - Unknown instance type: BuiltIn is false, NodeSelector is the extension's selector
//     (which applies to every instance type), Requests and Limits are the section's as
//     written, or nil with no section.
//   - Conflicting selectors: NodeSelector is the extension's selector; the rest is filled
//     in as on success.
//   - Resources over a limit: the placement is filled in as on success.
//
// A controller must not build a pod from a placement that came with errors.
//
// # Sharing and cost
//
// Nothing is copied: a placement's NodeSelector, Requests and Limits may be the very maps
// of the workload, of the extension's selector or of a catalog entry, and catalog entries
// are shared by every caller. Treat all of them as read-only. In exchange, Resolve costs
// two map lookups at most whatever the size of the catalog, and allocates nothing on
// success except the merged selector map when both selectors are non-empty and neither
// holds the other (see selector.Merge). A name the catalog lacks costs more: finding the
// close matches takes one pass over its names (a couple of milliseconds for 10,000), on
// that error path only. [ResourceList] converts a list into apimachinery quantities for a
// pod spec.
package resolve
