import { createHash } from 'node:crypto';

/**
 * The key layout of the store. Records hold JSON; index entries point from a
 * secondary key to a uuid. Every change writes a record and its index entries
 * in one batch, so they never disagree.
 *
 *   job/<uuid>                         Job record
 *   idx/job-fqn/<fqn>                  -> job uuid      (unique)
 *   idx/job-pkg/<package>/<job>        -> ""            (jobs using a package)
 *   idx/job-tag/<tag>/<fqn>            -> job uuid      (jobs with a tag, in FQN order)
 *   idx/job-link/<target>/<linker>     -> ""            (jobs with a link to the target job)
 *   idx/job-tagv/<tag>/<value>/<fqn>   -> job uuid      (jobs with a tag of that value, in FQN order;
 *                                                        tag and value URI-encoded, a value over 128
 *                                                        characters as #<sha256>)
 *   pkg/<uuid>                         Package record
 *   idx/pkg-fqn/<fqn>                  -> package uuid  (unique)
 *   idx/pkg-res/<resource uuid>        -> package uuid
 *   idx/blob-ref/<digest>/<package>    -> ""            (packages whose archive is that blob)
 *   idx/provides/<type>/<name>/<pkg>   -> ""            (what a package provides, for dependency resolution)
 *   stagpipe/<uuid>                    StagingPipeline record
 *   idx/stagpipe-fqn/<fqn>             -> pipeline uuid (unique)
 *   idx/stager/<job>/<pipeline>        -> ""            (pipelines that run a job as a stager)
 *   audit/<ns timestamp>/<uuid>        AuditLogItem (time order is key order)
 *   user/<name>                        basic-auth user
 *   agent/<uuid>                       instance manager (agent) as it last registered
 *   inst/<job>/<instance>              job instance: where it runs, its last reported state
 *   log/<owner>/<seq 12 digits>        log line of a job (or a package's staging), in order
 *   meta/<name>                        controller metadata (schema version, ...; with etcd, the
 *                                      agents' join secret, meta/join-token, and the secrets key,
 *                                      meta/secrets-key, unless given)
 *   policydoc/<name>                   policy document policydoc::/::<name>, current version
 *   policydoc-ver/<name>/<version>     every version of it (version zero-padded to 10 digits)
 *   gateway/<type>                     the gateway of a service type (services/)
 *   idx/gateway-job/<job>              -> type          (the job is a gateway: it cannot be deleted)
 *   provider/<uuid>                    Provider record, with the gateway's id and state header
 *   service/<uuid>                     Service record, with the gateway's id and state header
 *   svcbind/<uuid>                     a job-to-service binding: the gateway's id, state header and url
 *   net/<uuid>                         virtual network (networks/), with its members' join options;
 *                                      an instance's address on it is in its inst/ record
 *   secret/<uuid>                      Secret record (secrets/), its value encrypted
 *   idx/secret-fqn/<fqn>               -> secret uuid   (unique)
 *   idx/secret-job/<secret>/<job>      -> ""            (jobs the secret is installed in)
 */
/** A tag name or value as one key segment (no `/`). */
function tagSegment(text: string): string {
  return text.length > 128 ? `#${createHash('sha256').update(text).digest('hex')}` : encodeURIComponent(text);
}

export const keys = {
  job: (uuid: string) => `job/${uuid}`,
  jobPrefix: 'job/',
  jobByFqn: (fqn: string) => `idx/job-fqn/${fqn}`,
  jobByFqnPrefix: 'idx/job-fqn/',
  jobByPackage: (pkg: string, job: string) => `idx/job-pkg/${pkg}/${job}`,
  jobsByPackagePrefix: (pkg: string) => `idx/job-pkg/${pkg}/`,
  jobLinkedBy: (target: string, linker: string) => `idx/job-link/${target}/${linker}`,
  jobsLinkingPrefix: (target: string) => `idx/job-link/${target}/`,
  jobByTag: (tag: string, fqn: string) => `idx/job-tag/${tagSegment(tag)}/${fqn}`,
  jobsByTagPrefix: (tag: string) => `idx/job-tag/${tagSegment(tag)}/`,
  jobByTagValue: (tag: string, value: string, fqn: string) => `idx/job-tagv/${tagSegment(tag)}/${tagSegment(value)}/${fqn}`,
  jobsByTagValuePrefix: (tag: string, value: string) => `idx/job-tagv/${tagSegment(tag)}/${tagSegment(value)}/`,

  package: (uuid: string) => `pkg/${uuid}`,
  packagePrefix: 'pkg/',
  packageByFqn: (fqn: string) => `idx/pkg-fqn/${fqn}`,
  packageByFqnPrefix: 'idx/pkg-fqn/',
  packageByResource: (resource: string) => `idx/pkg-res/${resource}`,
  blobRef: (digest: string, pkg: string) => `idx/blob-ref/${digest}/${pkg}`,
  blobRefPrefix: (digest: string) => `idx/blob-ref/${digest}/`,
  /** The package uuid is always the last 36 characters of the key (names may hold `/`). */
  provides: (type: string, name: string, pkg: string) => `idx/provides/${type}/${name}/${pkg}`,
  /** Every entry whose name starts with `name` (general requirements match longer names). */
  providesNamePrefix: (type: string, name: string) => `idx/provides/${type}/${name}`,

  pipeline: (uuid: string) => `stagpipe/${uuid}`,
  pipelinePrefix: 'stagpipe/',
  pipelineByFqn: (fqn: string) => `idx/stagpipe-fqn/${fqn}`,
  stagerOf: (job: string, pipeline: string) => `idx/stager/${job}/${pipeline}`,
  pipelinesOfStagerPrefix: (job: string) => `idx/stager/${job}/`,

  audit: (ns: bigint, uuid: string) => `audit/${ns.toString().padStart(20, '0')}/${uuid}`,
  auditPrefix: 'audit/',
  /** The first key at or after UNIX second `seconds`. */
  auditTimeBound: (seconds: number) => `audit/${(BigInt(Math.floor(seconds)) * 1_000_000_000n).toString().padStart(20, '0')}`,
  user: (name: string) => `user/${name}`,
  meta: (name: string) => `meta/${name}`,

  agent: (uuid: string) => `agent/${uuid}`,
  agentPrefix: 'agent/',
  instance: (job: string, instance: string) => `inst/${job}/${instance}`,
  instancePrefix: 'inst/',
  logLine: (owner: string, seq: number) => `log/${owner}/${seq.toString().padStart(12, '0')}`,
  logPrefix: (owner: string) => `log/${owner}/`,

  policyDoc: (name: string) => `policydoc/${name}`,
  policyDocPrefix: 'policydoc/',
  policyDocVersion: (name: string, version: number) => `policydoc-ver/${name}/${String(version).padStart(10, '0')}`,
  policyDocVersionPrefix: 'policydoc-ver/',

  gateway: (type: string) => `gateway/${type}`,
  gatewayPrefix: 'gateway/',
  gatewayOfJob: (job: string) => `idx/gateway-job/${job}`,
  provider: (uuid: string) => `provider/${uuid}`,
  providerPrefix: 'provider/',
  service: (uuid: string) => `service/${uuid}`,
  servicePrefix: 'service/',
  serviceBinding: (uuid: string) => `svcbind/${uuid}`,
  serviceBindingPrefix: 'svcbind/',

  network: (uuid: string) => `net/${uuid}`,
  networkPrefix: 'net/',

  secret: (uuid: string) => `secret/${uuid}`,
  secretPrefix: 'secret/',
  secretByFqn: (fqn: string) => `idx/secret-fqn/${fqn}`,
  secretJob: (secret: string, job: string) => `idx/secret-job/${secret}/${job}`,
  secretJobsPrefix: (secret: string) => `idx/secret-job/${secret}/`,
} as const;
