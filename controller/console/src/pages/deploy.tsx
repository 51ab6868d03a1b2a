/**
 * Deploy from the browser, as `platform app deploy` does (cli/src/deploy/deploy.ts), with the
 * same API calls: the directory is packed here into a gzip tar (its `.platformignore` honoured,
 * `.git/` left out) or an archive is taken as it is; the runtime is detected from its top-level
 * files (GET /runtimes) or chosen; the package `<app>-<first 12 hex of its sha256>` is created
 * (or reused when staged already), uploaded and staged with its log shown live; then the job is
 * created or changed to run it, and once its instances run, its URLs are shown.
 */
import { useState } from 'preact/hooks';
import ignore from 'ignore';
import type { Instance, Job, JobInput, Package } from '@platform/cli';
import { errorMessage, routerAddress } from '../api.js';
import { formatBytes } from '../lib/format.js';
import { detectRuntime, routeUrls } from '../lib/runtime.js';
import { Sha256 } from '../lib/sha256.js';
import { gunzip, tarGz, tarPaths, type TarEntry } from '../lib/tar.js';
import { ErrorBox, Section, useLoad, usePermissions, useSession } from '../ui.js';
import { LogTail } from './job.js';

const IGNORE_FILE = '.platformignore';

interface Source {
  /** Packed later from these (a directory), or the archive's bytes as they are. */
  entries?: TarEntry[];
  archive?: File;
  topFiles: string[];
  files: number;
  bytes: number;
  suggestedName: string;
}

/** A directory chosen in the browser: its files relative to it, filtered as `platform app deploy` filters them. */
async function directorySource(list: FileList): Promise<Source> {
  const files = [...list];
  const top = files[0]?.webkitRelativePath.split('/')[0] ?? 'app';
  const rel = (f: File) => f.webkitRelativePath.split('/').slice(1).join('/');
  const ig = ignore().add(['.git/', IGNORE_FILE]);
  const ignoreFile = files.find((f) => rel(f) === IGNORE_FILE);
  if (ignoreFile) ig.add(await ignoreFile.text());
  const kept = files.filter((f) => rel(f) !== '' && !ig.ignores(rel(f)));
  const dirs = new Set<string>();
  for (const f of kept) {
    const parts = rel(f).split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const entries: TarEntry[] = [
    ...[...dirs].filter((d) => !ig.ignores(`${d}/`)).map((d): TarEntry => ({ path: d, type: 'dir' })),
    ...kept.map((f): TarEntry => ({ path: rel(f), type: 'file', data: f, mtime: f.lastModified / 1000 })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    entries,
    topFiles: kept.map(rel).filter((p) => !p.includes('/')),
    files: kept.length,
    bytes: kept.reduce((n, f) => n + f.size, 0),
    suggestedName: top,
  };
}

async function archiveSource(file: File): Promise<Source> {
  const paths = tarPaths(await gunzip(file));
  const files = paths.filter((p) => p.type === 'file');
  return {
    archive: file,
    topFiles: files.map((p) => p.path).filter((p) => !p.includes('/')),
    files: files.length,
    bytes: file.size,
    suggestedName: file.name.replace(/(\.tar\.gz|\.tgz)$/i, ''),
  };
}

function appName(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'app';
}

type Step = { label: string; state: 'doing' | 'done' | 'failed' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function DeployPage() {
  const session = useSession();
  const runtimes = useLoad(() => session.client.runtimes(), []);
  const [source, setSource] = useState<Source>();
  const [sourceError, setSourceError] = useState('');
  const [name, setName] = useState('');
  const [namespace, setNamespace] = useState(session.user.defaultNamespace);
  const [runtime, setRuntime] = useState('');
  // Empty: 1 for a new app, and an app that exists keeps its number (as the CLI without --instances).
  const [instances, setInstances] = useState('');
  const [steps, setSteps] = useState<Step[]>([]);
  const [pkg, setPkg] = useState<Package>();
  const [result, setResult] = useState<{ job: Job; urls: string[] }>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const jobFqn = `job::${namespace}::${name}`;
  const pkgFqn = `package::${namespace}::${name}`;
  const may = usePermissions(name ? [jobFqn, pkgFqn] : []);
  const allowed = name !== '' && may(pkgFqn, 'create') && (may(jobFqn, 'create') || may(jobFqn, 'update'));
  const detected = source && runtimes.data ? detectRuntime(source.topFiles, runtimes.data) : undefined;
  const chosen = runtime || detected?.runtime || '';

  const choose = async (make: () => Promise<Source>) => {
    setSourceError('');
    setResult(undefined);
    setSteps([]);
    setPkg(undefined);
    try {
      const s = await make();
      setSource(s);
      setName(appName(s.suggestedName));
    } catch (err) {
      setSource(undefined);
      setSourceError(`That is not a gzip tar archive this console can read: ${errorMessage(err)}`);
    }
  };

  const step = (label: string) => {
    setSteps((s) => [...s.map((x): Step => (x.state === 'doing' ? { ...x, state: 'done' } : x)), { label, state: 'doing' }]);
  };

  const deploy = async () => {
    if (!source) return;
    const client = session.client;
    setBusy(true);
    setError('');
    setResult(undefined);
    setSteps([]);
    setPkg(undefined);
    try {
      step(`Runtime ${chosen}`);
      if (!chosen) throw new Error(`no runtime recognizes these files; choose one (${(runtimes.data ?? []).map((r) => r.runtime).join(', ')})`);
      const pipelineFqn = `stagpipe::/platform::${chosen}`;
      const pipeline = (await client.listPipelines(pipelineFqn))[0];
      if (!pipeline) throw new Error(`the cluster has no staging pipeline ${pipelineFqn}`);
      step(source.entries ? `Packing ${source.files} files` : `Reading ${source.archive!.name}`);
      const bytes = source.entries ? await tarGz(source.entries) : new Uint8Array(await source.archive!.arrayBuffer());
      const digest = `sha256:${new Sha256().update(bytes).hex()}`;
      const fqn = `package::${namespace}::${name}-${digest.slice(7, 19)}`;
      let staged = (await client.listPackages({ fqn }))[0] as Package | undefined;
      if (staged?.state === 'ready') {
        step(`Package ${fqn} is staged already (same contents)`);
      } else {
        if (staged && staged.state !== 'staging') {
          // A deploy that stopped half way (uploading) or a failed staging: start over, as the CLI does.
          await client.deletePackage(staged.uuid);
          staged = undefined;
        }
        if (!staged) {
          staged = await client.createPackage({ fqn, resources: [{ length: bytes.length, digest }], staging_pipeline: { uuid: pipeline.uuid } });
          const resource = staged.resources[0];
          if (!resource) throw new Error(`package ${staged.uuid} was created without its resource`);
          step(`Uploading ${formatBytes(bytes.length)}`);
          await client.uploadResource(staged.uuid, resource.uuid, bytes as BodyInit, bytes.length);
        }
        step('Staging');
        setPkg(staged);
        while (staged.state !== 'ready' && staged.state !== 'failed') {
          await sleep(1000);
          staged = await client.getPackage(staged.uuid);
        }
        if (staged.state === 'failed') throw new Error(`staging failed: ${staged.error_message || 'see its log'}`);
      }
      const existing = await client.findJob(jobFqn);
      const count = instances.trim() === '' ? undefined : Number(instances);
      let job: Job;
      if (!existing) {
        step(`Creating ${jobFqn}`);
        const input: JobInput = {
          fqn: jobFqn,
          num_instances: count ?? 1,
          packages: [{ uuid: staged.uuid }],
          processes: { app: {} },
          ports: [{ number: 0, routes: [{ type: 'http', auto_provision: true }] }],
          tags: { app: '' },
          state: 'started',
        };
        job = await client.createJob(input);
      } else {
        step(`Updating ${jobFqn}`);
        job = await client.patchJob(existing.uuid, { packages: [{ uuid: staged.uuid }], state: 'started', ...(count === undefined ? {} : { num_instances: count }) }, existing.version_id);
      }
      step('Starting');
      const running = await waitRunning(job);
      const urls = routeUrls(job.ports, routerAddress());
      setSteps((s) => s.map((x): Step => (x.state === 'doing' ? { ...x, state: 'done' } : x)));
      setResult({ job: { ...job, num_instances: running.length }, urls });
    } catch (err) {
      setSteps((s) => s.map((x): Step => (x.state === 'doing' ? { ...x, state: 'failed' } : x)));
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  /** As the CLI waits: this version's instances RUNNING (and routed when the job has routes), or why not. */
  const waitRunning = async (job: Job): Promise<Instance[]> => {
    const routed = routeUrls(job.ports, undefined).length > 0;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [current, list] = await Promise.all([session.client.getJob(job.uuid), session.client.instances(job.uuid)]);
      if (current.state === 'errored') throw new Error('the app is in a crash loop (job errored): see its log on the job page');
      const fresh = list.filter((i) => (i.job_version_id ?? 0) >= job.version_id && i.state !== 'REMOVED');
      const running = fresh.filter((i) => (i.state === 'RUNNING' || i.state === 'FIRST_RUNNING') && (!routed || i.announced_routes));
      if (running.length >= current.num_instances) return running;
      if (Date.now() > deadline) throw new Error(`the app did not come up in 180 s: ${running.length}/${current.num_instances} instances running`);
      await sleep(1000);
    }
  };

  return (
    <div>
      <div class="page-head">
        <h1>Deploy an app</h1>
      </div>
      <Section title="Source" id="source">
        <div class="row">
          <label class="file">
            A directory
            <input
              type="file"
              data-testid="deploy-directory"
              {...{ webkitdirectory: true }}
              multiple
              onChange={(e) => {
                const list = e.currentTarget.files;
                if (list && list.length > 0) void choose(() => directorySource(list));
              }}
            />
          </label>
          <label class="file">
            or an archive (.tar.gz)
            <input
              type="file"
              accept=".tar.gz,.tgz,application/gzip"
              data-testid="deploy-archive"
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                if (file) void choose(() => archiveSource(file));
              }}
            />
          </label>
        </div>
        <ErrorBox error={sourceError} />
        {source && (
          <p data-testid="deploy-source">
            {source.files} files, {formatBytes(source.bytes)}; top level: {source.topFiles.slice(0, 8).join(', ')}
            {source.topFiles.length > 8 ? '…' : ''}
          </p>
        )}
      </Section>
      <Section title="App" id="app">
        <div class="form-grid">
          <label>
            Name
            <input value={name} required pattern="[a-z0-9_.@+-]+" onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label>
            Namespace
            <input value={namespace} required onInput={(e) => setNamespace(e.currentTarget.value)} />
          </label>
          <label>
            Runtime
            <select value={runtime} onChange={(e) => setRuntime(e.currentTarget.value)}>
              <option value="">{detected ? `detected: ${detected.runtime}` : 'detect from the files'}</option>
              {(runtimes.data ?? []).map((r) => (
                <option key={r.runtime} value={r.runtime}>
                  {r.runtime}
                </option>
              ))}
            </select>
          </label>
          <label>
            Instances
            <input type="number" min={1} max={100} value={instances} placeholder="1, or as it is" onInput={(e) => setInstances(e.currentTarget.value)} />
          </label>
        </div>
        {name && !allowed && <p class="notice">Your policy does not let you deploy {jobFqn} (it needs create on the package and create or update on the job).</p>}
        <button
          type="button"
          class="btn primary"
          disabled={!source || !name || busy || !allowed || !chosen || (instances.trim() !== '' && !(Number.isInteger(Number(instances)) && Number(instances) >= 0))}
          onClick={() => void deploy()}
        >
          {busy ? 'Deploying…' : 'Deploy'}
        </button>
      </Section>
      {steps.length > 0 && (
        <Section title="Progress" id="progress">
          <ol class="steps" data-testid="deploy-steps">
            {steps.map((s, i) => (
              <li key={i} class={s.state}>
                {s.label}
                {s.state === 'doing' ? '…' : s.state === 'failed' ? ' — failed' : ' ✓'}
              </li>
            ))}
          </ol>
          <ErrorBox error={error} />
          {result && (
            <div class="success" role="status" data-testid="deploy-result">
              <a href={`#/jobs/${result.job.uuid}`}>{name}</a> is running
              {result.urls.map((u) => (
                <span key={u}>
                  {' '}
                  at{' '}
                  <a href={u} target="_blank" rel="noopener noreferrer">
                    {u}
                  </a>
                </span>
              ))}
            </div>
          )}
        </Section>
      )}
      {pkg && <LogTail key={pkg.uuid} path={`/v1/packages/${pkg.uuid}/logs?tail&lines=10000`} title="Staging log" height="20rem" />}
    </div>
  );
}
