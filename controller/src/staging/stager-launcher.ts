/**
 * The contract between the staging coordinator and whatever runs stager
 * instances (the scheduler and agents in a cluster; `LocalStagerLauncher` on
 * one host for development and tests).
 */
import type { Readable } from 'node:stream';

export interface StagerLaunch {
  /** Unique per stager run (a relaunch is a new run). */
  runId: string;
  /** The stager job: its packages and its one process are what runs. */
  stagerJobUuid: string;
  /** The package being staged. */
  packageUuid: string;
  /** STAGER_URL and friends, set in the stager's processes over the job's own environment. */
  environment: Record<string, string>;
  /**
   * Dependencies of the staged package, resolved (dependencies first): installed
   * in the instance like the job's own packages, their environment applied to the
   * stager's processes, and laid out again under `/stagerfs` (stager rule 3; see
   * docs/stager-authors.md). Grows when a stager relaunches.
   */
  extraPackageUuids: string[];
}

export interface StagerRunEnd {
  failed: boolean;
  exitCode?: number;
  reason?: string;
}

export interface StagerRun {
  /** Resolves once the stager instance has ended (exited, stopped or lost). Never rejects. */
  readonly ended: Promise<StagerRunEnd>;
  /** Stops the instance (graceful, then forced); resolves when it has ended. Idempotent. */
  stop(reason: string): Promise<void>;
  /**
   * Optional: a gzip tar of the files that the stager changed in its instance
   * (under `directory` when given), paths from the instance root. Launchers
   * without a layered file system leave it out; POST /snapshot answers 499 then.
   */
  snapshot?(directory: string | undefined): Promise<Readable>;
  /**
   * Optional: resolves once the output the stager has written so far has reached the sink
   * (bounded; never rejects). The coordinator calls it before a line of its own about a stager
   * request, so that the package log keeps the order in which things happened.
   */
  flushLogs?(): Promise<void>;
}

export interface StagerLauncher {
  /**
   * Starts one stager instance. Rejects when it cannot be started at all (no
   * agent, unknown job); the package fails with that error's message.
   */
  launch(request: StagerLaunch): Promise<StagerRun>;
}

/**
 * Where staging output goes: the coordinator's `[staging] ...` lines and the
 * stager's stdout and stderr (written by the launcher). The lead wires it to
 * the package's log, tailable like job logs. `text` is one line, without `\n`.
 */
export type StagingLogSink = (packageUuid: string, stream: 'stdout' | 'stderr' | 'staging', text: string) => void;
