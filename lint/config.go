package lint

// ConfigName is the name of the instancetype command's config file, which it reads from
// the working directory or the nearest parent: a walk skips it, with why (it holds
// settings, not manifests).
const ConfigName = ".instancetype.yaml"
