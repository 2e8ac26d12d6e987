// Package validate checks instance types, online deployments and jobs against the rules
// of Azure Machine Learning on Kubernetes, and reports every problem at once, each as a
// [k8s.io/apimachinery/pkg/util/validation/field] error at its field path, with a detail
// that says how to fix it. A controller can hand the errors straight to
// apierrors.NewInvalid; the command-line tool maps each path to its file and line.
//
// The validators compose as Kubernetes' own do: each takes the object, the path of the
// object inside its document (nil for a whole document, items[1] for a list item) and
// [resolve.Options] (the extension's nodeSelector, which resolution uses too, and the
// settings of validation), and returns a field.ErrorList in a fixed order, whatever the
// order of map iteration. Map keys are part of paths (spec.nodeSelector[pool],
// spec.resources.limits[nvidia.com/gpu]); no error is reported on a whole map.
//
// Each error carries the id of its rule in its Origin (apimachinery's field for where an
// error was made, which messages and apierrors causes leave out): R1 to R10 as the tables
// below say, and, for the checks the source document does not number, metadata (an
// instance type's labels), request-above-limit and resource-name. Package lint lists
// every id (lint.Rules), and suppressions name them.
//
// # Instance types
//
// [InstanceType] checks one instance type, [InstanceTypes] several given together (files,
// list items), [InstanceTypeList] the items of one list. Paths are below the object's
// root:
//
//	rule  what                                          error type    path
//	R1    name missing                                  Required      metadata.name
//	R1    name not a DNS-1123 subdomain, or > 253 bytes Invalid       metadata.name
//	R1    name given again by a later instance type     Duplicate     metadata.name (of every one but the
//	      (the last definition is the one in effect)                  last, which is in effect)
//	meta  metadata: what the API server refuses in a cluster-scoped custom resource's
//	      metadata (apimachinery's ValidateObjectMeta, which the tests compare with):
//	      label key or value invalid                    Invalid       metadata.labels[KEY]
//	      annotation key not a qualified name           Invalid       metadata.annotations[KEY]
//	      annotations over 256 KiB, keys and values     TooLong       metadata.annotations
//	      finalizer not a qualified name                Invalid       metadata.finalizers[i]
//	      finalizers orphan and foregroundDeletion      Invalid       metadata.finalizers
//	      generateName not the start of a DNS-1123      Invalid       metadata.generateName
//	      subdomain
//	      owner reference without apiVersion, kind,     Required,     metadata.ownerReferences[i].FIELD
//	      name or uid; a v1 Event as owner; two         Invalid       (two controllers:
//	      controllers                                                 metadata.ownerReferences)
//	R2    cpu or memory request or limit missing, null  Required      spec.resources.requests[cpu] ...
//	R2    ... written as ""                             Invalid       spec.resources.limits[memory] ...
//	R2    ... not a quantity ("2Gx", "1e400")           Invalid       the same
//	R2    ... zero or negative                          Invalid       the same
//	R2    ... text of more than 64 bytes, or an         Invalid       the same
//	      exponent of more than 3 digits ("2e+0009"):
//	      the bounds of the CRD (R3 for an extended
//	      resource); 2^63-1 written with a binary
//	      suffix, which the API server cannot tell
//	      from a larger value it caps
//	RaL   cpu or memory request above its limit         Invalid       spec.resources.requests[cpu|memory]
//	R3    extended resource not a whole number, or < 0  Invalid       spec.resources.limits[nvidia.com/gpu]
//	R3    extended resource in requests                 Forbidden     spec.resources.requests[nvidia.com/gpu]
//	R3    more than 16 resources in requests or in      TooMany       spec.resources.limits (or requests)
//	      limits (nulls not counted), the CRD's bound
//	RN    unqualified name other than cpu and memory    NotSupported  spec.resources.limits[cpus]
//	      ("cpus", "gpu", "mem", "CPU"; with a did-you-mean)
//	RN    qualified name that is no extended resource   Invalid       spec.resources.limits[Nvidia.com/gpu]
//	      (not a qualified name, kubernetes.io domain,
//	      "requests." prefix)
//	R4    nodeSelector key or value not a valid label   Invalid       spec.nodeSelector[KEY]
//	R4    more than 64 nodeSelector entries, the CRD's  TooMany       spec.nodeSelector
//	      bound
//	R7    key the extension's selector sets otherwise   Invalid       spec.nodeSelector[KEY]
//	R7    with StrictSubset, pair the extension lacks   Invalid       spec.nodeSelector[KEY]
//
// The bounds of this project's CRD (client/manifests/crd) are checked, so that an
// instance type that validates is one the API server takes: [MaxResources],
// [MaxNodeSelectorEntries], and a value written as a string of at most 64 bytes with an
// exponent, if any, of at most 3 digits. A value written as a number that is
// not an integer is package decode's finding (rule wrong-type): the CRD types the values
// int-or-string.
//
// Metadata the API server sets itself on a create is not checked: the namespace (cleared
// on a cluster-scoped object), generation, managed fields, uid and timestamps; nor is a
// resourceVersion (refused when a new object is stored, required on an update: validation
// cannot tell which, and kubectl get -o yaml prints one).
//
// (meta is the rule id metadata, RaL request-above-limit, RN resource-name.)
//
// An extended resource is a fully qualified name such as nvidia.com/gpu or amd.com/gpu,
// as Kubernetes defines it. Written as null, it means none. A custom instance type named
// defaultinstancetype overrides the built-in one (R5): it is not a duplicate of it.
//
// [NodeSelector] checks the extension's own selector, as given on a command line, with the
// R4 rule.
//
// # Deployments and jobs
//
// [Workload] checks a deployment or a job (a [workload.Workload]) against a catalog of
// instance types (resolve.Catalog); [Resolve] does the same and returns the placement too,
// as resolve.Resolve does, so that a caller who needs both resolves once;
// [DeploymentResources] checks a deployment's resources section alone (its R8 rows), for a
// section whose deployment is not known. Paths are below the document's root:
//
//	rule  what                                          error type    path
//	R8    cpu or memory request missing, null           Required      resources.requests[cpu|memory]
//	R8    request or limit "", not a quantity, <= 0     Invalid       resources.requests[cpu] ...
//	R8    memory request below 1M (10^6 bytes)          Invalid       resources.requests[memory]
//	R8    cpu or memory limit missing with a GPU asked  Required      resources.limits[cpu|memory]
//	R8    extended resource not a whole number, or < 0  Invalid       resources.limits[nvidia.com/gpu]
//	R8    extended resource in requests                 Forbidden     resources.requests[nvidia.com/gpu]
//	RN    resource names, as for instance types         NotSupported  resources.limits[NAME] ...
//	R6    instance type name not an object name, or an  Invalid       instance_type (job: resources.instance_type)
//	      Azure VM size (Standard_DS3_v2)
//	R6    instance type not in the catalog              NotFound      instance_type (job: resources.instance_type)
//	      (not with resolve.Options.NamesUnchecked)
//	R7    selector conflicts with the extension's       Invalid       instance_type
//	R9    limit above the instance type's               Invalid       resources.limits[NAME]
//	R9    GPU the instance type does not provide        Invalid       resources.limits[NAME]
//	R9    request above the effective limit             Invalid       resources.requests[NAME]
//	R10   MLflow: own cpu request < 2, memory < 4G      Invalid       resources.requests[cpu|memory]
//	R10   MLflow: the instance type's requests are      Invalid       instance_type (naming the type)
//	      (no resources section) below those minimums
//
// The R6 (not found), R7 and R9 findings are those of resolve.Resolve, which Workload
// calls: both entry points give the same answer. An amount that has a finding of its own —
// in the workload or in its instance type (a cpu limit of 0, a GPU limit of 1.5) — takes
// part in no comparison, so one mistake makes one finding. A deployment's effective
// limits are its own completed from its instance type's (see package resolve). "A GPU asked for" is any extended resource set to something other than
// null or 0. The MLflow minimums apply to the effective requests: the deployment's own, or
// else its instance type's — so an MLflow deployment on the built-in default fails.
// A job has no resources section of its own (its resources come from its instance type;
// resolve.Resolve ignores a job's Workload.Resources too): only its instance type must
// exist.
//
// # Messages and cost
//
// Details are short and say what to write: "must be greater than zero", "must be less than
// or equal to cpu limit of 1", `supported values: "cpu", "memory", …; did you mean
// "cpu"?`. User-supplied text longer than [MaxValueLen] is cut in bad values and details,
// so that a 1 MB value cannot make a 1 MB message; paths are never cut.
//
// Checking a valid instance type, with or without the extension's selector, does not
// allocate: paths are built only when an error is reported, and names are sorted only
// when some have findings. The same holds for a valid workload whose selector needs no
// merging (see resolve.Resolve).
package validate
