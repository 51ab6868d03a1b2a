/**
 * The bootstrap policy, written as the document `bootstrap` on the first start
 * of a data directory (when no policy document was ever stored). It makes a
 * fresh cluster usable and safe: the administrator may do everything, every
 * user may log in and owns the sandbox `/sandbox/<name>`, and every user may
 * read the platform's built-in packages and staging pipelines. docs/policy.md
 * quotes it verbatim; keep the two equal.
 */
export const BOOTSTRAP_POLICY_NAME = 'bootstrap';

export const BOOTSTRAP_POLICY = `// The bootstrap policy, written on the first start of the cluster.
// Change it with PUT /v1/policy; its versions are kept.

// The administrator may do everything, everywhere.
on *::/ {
  if (auth_server@platform->name == "admin") {
    role admin
  }
}

// The cluster's own users and LDAP users may log in; users of an identity
// provider only as a policy of yours says (docs/policy.md). Tokens live one day.
on auth::/ {
  if (auth_server@platform->name != "" || ldap_auth@platform->name != "") {
    permit issue
  }
  tokenTimeout "86400s"
}

// Policy checks that fail are recorded in the audit log; allowed ones are not.
on audit::/ {
  log deny
}

// Each user owns a sandbox, /sandbox/<user name>: jobs, packages, pipelines and
// whatever else lives there. Basic and LDAP users alike.
on *::/sandbox/[name] {
  if (auth_server@platform->name == [name] || ldap_auth@platform->name == [name]) {
    role admin
  }
}

// Everyone may find and use the platform's runtimes, stagers and pipelines.
on package::/platform {
  permit read, use
}
on stagpipe::/platform {
  permit read, use
}
`;
