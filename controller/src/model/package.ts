/**
 * The Package resource: wire shape, what a client may set, and the stored record.
 *
 * The state machine of a package:
 *
 *   POST ──▶ uploading ──every archive uploaded──┬──▶ staging ──stagers succeed──▶ ready
 *             │    ▲ one of several              │        └────stager fails──────▶ failed
 *             └────┘                             └──▶ ready   (no staging pipeline)
 *   snapshot of an instance: uploading ──archive stored──▶ ready, or ──fails──▶ failed
 *
 * An upload whose length or digest differs from what was declared is refused and
 * the package stays `uploading`. Staging itself is the staging coordinator's.
 */
import { z } from 'zod';
import { StateMachine } from '@platform/proto/common';
import { InvalidRequestError, TooLargeError } from '../errors.js';
import { parseFqn } from './fqn.js';
import { envMap, int, parseInput, str, stringMap, uuid } from './validate.js';
import { formatDigest, parseDigest, type Digest } from './digest.js';
import { sortedRecord } from '../util/json.js';

export type PackageState = 'uploading' | 'staging' | 'ready' | 'failed';

/** The transitions of the diagram above (the package actor's one setter checks them). */
export const PACKAGE_MACHINE = new StateMachine<PackageState>('package', {
  uploading: ['uploading', 'staging', 'ready', 'failed'],
  staging: ['ready', 'failed'],
  ready: [],
  failed: [],
});

export interface PackageResource {
  uuid: string;
  length: number;
  digest: string;
  /** Deprecated duplicate of `digest` for SHA-1 digests. */
  sha1?: string;
}

/** The requirement types of `dependencies` and `provides`. */
export const REQUIREMENT_TYPES = ['file', 'package', 'runtime', 'os'] as const;

export interface Requirement {
  type: (typeof REQUIREMENT_TYPES)[number];
  name: string;
}

export interface PackageTemplate {
  path: string;
  left_delimiter: string;
  right_delimiter: string;
}

/** The part of a package that can change after creation through PUT. */
export interface PackageMeta {
  dependencies: Requirement[];
  provides: Requirement[];
  environment: Record<string, string>;
  templates: PackageTemplate[];
  tags: Record<string, string>;
}

export interface Package extends PackageMeta {
  uuid: string;
  fqn: string;
  name: string;
  state: PackageState;
  resources: PackageResource[];
  /** Deprecated: the first of `resources`. */
  resource?: PackageResource;
  staging_pipeline?: { uuid: string };
  staging_pipeline_fqn: string;
  stager_job_fqns: string[];
  error_message: string;
  /**
   * Host directories bound read-only into instances (built-in os, runtime and
   * stager packages, which have no archive). Set by the controller only.
   */
  host_paths?: string[];
  /** Read-only: the digest of the container image the package was made from (images/). */
  docker_image_id?: string;
  /** Read-only: the image it was made from, `registry/name:tag`, without credentials. */
  docker_origin?: string;
  version_id: number;
  created_at: string;
  updated_at: string;
  created_by: string;
  updated_by: string;
}

/** What the store holds for a package: the package and which archives have arrived. */
export interface PackageRecord {
  package: Package;
  /** Uuids of the resources whose archive is in the blob store. */
  uploaded: string[];
  /** Set while the package is the snapshot of an instance being taken (its archive comes from an agent). */
  snapshot?: { job_uuid: string; instance_uuid: string };
}

const resourceInputSchema = z.object({
  length: int(0).optional(),
  digest: str(200).optional(),
  sha1: str(200).optional(),
});

/** One `{type, name}` of `dependencies` or `provides` (also POST /packages/dependencies). */
export const requirementSchema = z.object({
  type: z.enum(REQUIREMENT_TYPES, { error: 'expected "file", "package", "runtime" or "os"' }),
  name: str(1024).min(1, { error: 'must not be empty' }),
});

const templateSchema = z.object({
  path: str(1024).min(1, { error: 'must not be empty' }),
  left_delimiter: str(16).optional(),
  right_delimiter: str(16).optional(),
});

export const packageInputSchema = z.object({
  fqn: str(512),
  name: str(512).optional(),
  resources: z.array(resourceInputSchema).max(16).optional(),
  resource: resourceInputSchema.optional(),
  dependencies: z.array(requirementSchema).max(256).optional(),
  provides: z.array(requirementSchema).max(256).optional(),
  environment: envMap().optional(),
  templates: z.array(templateSchema).max(256).optional(),
  staging_pipeline: z.union([z.object({ uuid: uuid() }), uuid()], { error: 'expected {"uuid": "<uuid>"}' }).optional(),
  staging_pipeline_fqn: str(512).optional(),
  tags: stringMap().optional(),
});

/** The served package: what a client may set (as packageInputSchema types it) and the server's fields. */
export const packageViewSchema = packageInputSchema.extend({
  uuid: z.string(),
  name: z.string(),
  state: z.string(),
  resources: z.array(z.object({ uuid: z.string(), length: z.number().int(), digest: z.string(), sha1: z.string().optional() })),
  staging_pipeline_fqn: z.string(),
  stager_job_fqns: z.array(z.string()),
  error_message: z.string(),
  version_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string(),
  updated_by: z.string(),
});

export interface ParsedPackageInput {
  fqn: string;
  localName: string;
  /** Declared archives: length and digest; uuids are assigned at creation. */
  resources: { length: number; digest: Digest }[];
  /** Pipeline named by uuid or FQN, if any. */
  pipelineUuid?: string;
  pipelineFqn?: string;
  meta: PackageMeta;
}

function parseResource(r: z.output<typeof resourceInputSchema>, field: string, maxBytes: number) {
  if (r.length === undefined) throw new InvalidRequestError(`${field}.length: the archive's length in bytes is required`);
  if (r.length > maxBytes) {
    throw new TooLargeError(`${field}.length: ${r.length} bytes is over this cluster's package limit of ${maxBytes} bytes`);
  }
  let digest: Digest | undefined;
  if (r.digest) digest = parseDigest(r.digest, `${field}.digest`);
  if (r.sha1) {
    const sha1 = parseDigest(r.sha1, `${field}.sha1`, true);
    if (sha1.algorithm !== 'sha1') throw new InvalidRequestError(`${field}.sha1: must be a SHA-1 digest`);
    if (digest && digest.algorithm === 'sha1' && digest.hex !== sha1.hex) {
      throw new InvalidRequestError(`${field}: digest and sha1 disagree`);
    }
    digest ??= sha1;
  }
  if (!digest) throw new InvalidRequestError(`${field}.digest: the archive's digest (sha1:, sha256:, sha384: or sha512:) is required`);
  return { length: r.length, digest };
}

/**
 * Why a template path is refused, or undefined when it is fine: absolute paths are in the
 * instance root, relative ones under the package's START_PATH (resolved by the agent);
 * neither may have a ".." component or a NUL byte.
 */
export function templatePathProblem(path: string): string | undefined {
  if (path === '' || path.split('/').every((seg) => seg === '' || seg === '.')) return 'names no file';
  if (path.split('/').some((seg) => seg === '..')) return 'has a ".." component: a template stays inside the instance';
  if (path.includes('\0')) return 'has a NUL byte';
  return undefined;
}

function checkTemplatePath(path: string, field: string): void {
  const problem = templatePathProblem(path);
  if (problem) throw new InvalidRequestError(`${field}: "${path}" ${problem} (absolute, or relative to the package's START_PATH)`);
}

/** Validates a package body. `maxBytes` bounds each declared archive. */
export function parsePackageInput(body: unknown, maxBytes: number): ParsedPackageInput {
  const input = parseInput(packageInputSchema, body, 'package');
  const fqn = parseFqn(input.fqn, { type: 'package' });
  if (input.name && input.name !== fqn.localName) {
    throw new InvalidRequestError(`name: "${input.name}" does not match the name in fqn "${input.fqn}"`);
  }
  const declared =
    input.resources && input.resources.length > 0
      ? input.resources.map((r, i) => parseResource(r, `resources[${i}]`, maxBytes))
      : input.resource
        ? [parseResource(input.resource, 'resource', maxBytes)]
        : [];
  const templates = (input.templates ?? []).map((t, i) => {
    checkTemplatePath(t.path, `templates[${i}].path`);
    return { path: t.path, left_delimiter: t.left_delimiter || '{{', right_delimiter: t.right_delimiter || '}}' };
  });
  const pipelineUuid =
    input.staging_pipeline === undefined
      ? undefined
      : (typeof input.staging_pipeline === 'string' ? input.staging_pipeline : input.staging_pipeline.uuid).toLowerCase();
  if (input.staging_pipeline_fqn) parseFqn(input.staging_pipeline_fqn, { type: 'stagpipe', field: 'staging_pipeline_fqn' });
  return {
    fqn: input.fqn,
    localName: fqn.localName!,
    resources: declared,
    ...(pipelineUuid ? { pipelineUuid } : {}),
    ...(input.staging_pipeline_fqn ? { pipelineFqn: input.staging_pipeline_fqn } : {}),
    meta: {
      dependencies: input.dependencies ?? [],
      provides: input.provides ?? [],
      environment: sortedRecord(input.environment),
      templates,
      tags: sortedRecord(input.tags),
    },
  };
}

/** What a package offers to dependency resolution: its `provides`, and its own name and FQN as `package`. */
export function provisionsOf(p: Pick<Package, 'provides' | 'name' | 'fqn'>): Requirement[] {
  return [...p.provides, { type: 'package', name: p.name }, { type: 'package', name: p.fqn }];
}

export function resourceView(uuid: string, length: number, digest: Digest): PackageResource {
  const text = formatDigest(digest);
  return digest.algorithm === 'sha1' ? { uuid, length, digest: text, sha1: digest.hex } : { uuid, length, digest: text };
}

/** The served form of a package: `resource` mirrors the first of `resources`. */
export function packageView(p: Package): Package {
  const { resource: _old, ...rest } = p;
  return p.resources[0] ? { ...rest, resource: p.resources[0] } : rest;
}
