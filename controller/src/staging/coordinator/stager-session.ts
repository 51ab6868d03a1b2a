/**
 * One stager run as the stager API sees it: the archive it reads, the archive
 * it uploaded, the package metadata it changes, and the outcome it reports.
 *
 *   running ──POST /done─────▶ done
 *      │    ──POST /failed───▶ failed
 *      │    ──POST /relaunch─▶ relaunch
 *      └────(ended, timed out, stopped: decided by the coordinator)
 *
 * Only `running` accepts changes; after an outcome every request answers 452
 * (not current) until the run ends and its token is forgotten (then 404).
 */
import type { Readable } from 'node:stream';
import { StagerApiError } from './stager-status.js';
import type { PackageTemplate, Requirement } from '../../model/package.js';

export interface ArchiveRef {
  length: number;
  digest: string;
}

/** The package metadata a pipeline changes; shared by the runs of one pipeline. */
export interface StagingMeta {
  dependencies: Requirement[];
  provides: Requirement[];
  environment: Record<string, string>;
  templates: PackageTemplate[];
}

export type StagerOutcome = { kind: 'done' } | { kind: 'failed'; reason: string } | { kind: 'relaunch' };

export class StagerSession {
  #outcome: StagerOutcome | undefined;
  #report!: (o: StagerOutcome) => void;
  /** Resolves with the first outcome the stager reports. */
  readonly reported: Promise<StagerOutcome>;
  /** The archive the stager uploaded, if any. */
  output: ArchiveRef | undefined;
  /** Uploads under way; an outcome waits for them so that it never races its own upload. */
  readonly uploads = new Set<Promise<unknown>>();
  snapshot: ((directory: string | undefined) => Promise<Readable>) | undefined;

  constructor(
    readonly token: string,
    readonly runId: string,
    readonly packageUuid: string,
    readonly stagerName: string,
    /** The archive this stager works on: the package's, or the previous stager's output. */
    readonly input: ArchiveRef,
    readonly meta: StagingMeta,
    /** Records a blob the pipeline must release at its end if unused. */
    readonly noteBlob: (digest: string) => void,
    /** Writes a line of the coordinator's in the package log; resolves once it is there. */
    readonly log: (text: string) => Promise<void>,
  ) {
    this.reported = new Promise((resolve) => (this.#report = resolve));
  }

  get outcome(): StagerOutcome | undefined {
    return this.#outcome;
  }

  /** The archive GET /data serves: the upload of this run, else its input. */
  get current(): ArchiveRef {
    return this.output ?? this.input;
  }

  /** Throws 452 unless the run still accepts requests that change it. */
  assertCurrent(): void {
    if (this.#outcome) {
      throw new StagerApiError('not_current', `this stager run has reported ${this.#outcome.kind} already; it accepts no more changes`);
    }
  }

  async report(outcome: StagerOutcome): Promise<void> {
    this.assertCurrent();
    this.#outcome = outcome;
    await Promise.allSettled([...this.uploads]);
    this.#report(outcome);
  }
}
