// Package resolve tells what a workload really gets: which instance type applies, on which
// nodes it runs and with which requests and limits.
//
// A [Catalog] is an immutable set of instance types that always holds
// instancetype.DefaultName: the built-in definition (instancetype.Default) unless a custom
// instance type of that name overrides it (R5). [Resolve] turns a [workload.Workload] — a
// training job or an online deployment, as packages azureml and lint read it — plus the
// extension's own nodeSelector ([Options]) into a [Placement], or into the field errors
// that prevent one; package validate's validators take the same [Options]. A [Store] holds
// the catalog of a controller, fed by informer events (typed instance types, or the
// *unstructured.Unstructured objects of a dynamic informer; what it cannot use it counts,
// [Store.Dropped], and reports to a hook, [Store.SetDropHandler]), and publishes
// copy-on-write snapshots that any number of goroutines resolve against without locking.
//
// # Rules of resolution
//
// Resolve(c, w, fldPath, opts) — and the same as methods of [Catalog] and [Store] —
// applies, in order:
//
//  1. Instance type (R6). The workload's instance type is w.InstanceType, or
//     instancetype.DefaultName when that is "". A name the catalog does not hold is a
//     field.NotFound error at w.InstanceTypePath(fldPath) (instance_type for a deployment,
//     resources.instance_type for a job) whose detail names the close matches
//     (case-insensitive equality, edit distance, prefix) or else the known names.
//  2. Node selector (R7). The effective selector is the union of the extension's
//     (opts.NodeSelector) and the instance type's. A key the two set to different values
//     can match no node: each such key is a field.Invalid error at the instance type path,
//     in key order, with a detail such as `instance type "gpu" sets pool=gpu but the
//     extension's nodeSelector sets pool=cpu; no node can match both`.
//  3. Resources. A job gets its instance type's requests and limits: it has no resources
//     section of its own (w.Resources is ignored for one). So does a deployment without a
//     resources section (w.Resources == nil). A deployment with one gets the section's
//     requests as written, and as limits the section's own completed from the instance
//     type's: a resource the section does not limit (left out, or null) is capped by the
//     type's limit, so a placement never lacks a limit its type sets. A section without
//     limits thus gets the type's limits whole.
//  4. Limits within the type (R9). Each limit of the section must be less than or equal
//     to the instance type's limit of the same resource ("within" is ≤); a violation is a
//     field.Invalid error at resources.limits[NAME]. An extended resource (a qualified
//     name such as nvidia.com/gpu) asked for with a positive amount that the instance
//     type does not provide (absent or null in its limits) is a field.Invalid error too.
//  5. Requests within the limits. Each request of the section must be less than or equal
//     to its effective limit: the section's own limit of the resource, or where the
//     section leaves it out, the instance type's. A violation is a field.Invalid error at
//     resources.requests[NAME].
//
// Amounts are compared with quantity.Quantity.Cmp. Only usable amounts take part in a
// comparison, in the workload or in the instance type: an amount that is unset (missing or
// null), invalid (text that is not a quantity), of an unknown resource name, a cpu or
// memory of zero or less, or an extended resource that is negative or not whole has a
// finding of its own — package validate's to report, as are the shape rules (R2, R3, R8)
// and the MLflow minimums (R10) — and causes none here: one mistake, one finding. Resolve
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
//   - Unknown instance type: Found and BuiltIn are false, the node selector is the
//     extension's (which applies to every instance type), the requests and limits are the
//     section's as written, or none without a section.
//   - Conflicting selectors: the node selector is the extension's; the rest is filled in
//     as on success.
//   - Resources over a limit: the placement is filled in as on success.
//
// A controller must not build a pod from a placement that came with errors.
//
// # Sharing and cost
//
// Resolve copies nothing: a [Placement] refers to the maps of the workload, of the
// extension's selector and of the catalog entry, and its methods read them without
// handing them out. [Placement.NodeSelector], [Placement.Requests] and [Placement.Limits]
// build new maps the caller owns; [Placement.Request], [Placement.Limit] and
// [Placement.Matches] do not allocate. Resolve costs two map lookups at most whatever the
// size of the catalog, and allocates nothing on success. A name the catalog lacks costs
// more: finding the close matches takes one pass over its names (a couple of milliseconds
// for 10,000), on that error path only. Every error repeats at most 256 bytes of any
// user-supplied text, so no error grows with hostile input. The instance types a
// [Catalog] returns are shared, as an informer's lister shares its objects: they must not
// be modified. instancetype.Quantities converts a placement's lists for a pod spec.
package resolve
