/**
 * The entry of a stager program. `runStager(fn)` downloads nothing by itself:
 * `fn` decides. When `fn` returns without reporting, the run reports done;
 * when it throws, the run reports failed with the error's message. The
 * process exits 0 after done or relaunch and 1 after failed (behaviour notes).
 */
import { StagerClient } from './client.js';
import { StagerContext, type StagerLogger, type StagerOutcomeKind } from './context.js';
import { StagerRequestError } from './errors.js';

export type Stager = (ctx: StagerContext) => Promise<void>;

export interface StagerResult {
  outcome: StagerOutcomeKind;
  /** The error that made the run fail, if one did. */
  error?: unknown;
}

/**
 * Runs `stager` against `client` and reports its outcome, without exiting:
 * the part of `runStager` that tests call.
 */
export async function executeStager(stager: Stager, client: StagerClient, log?: StagerLogger): Promise<StagerResult> {
  const ctx = await StagerContext.create(client, log);
  try {
    await stager(ctx);
    if (!ctx.outcome) await ctx.done();
    return { outcome: ctx.outcome! };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.log(`Staging failed: ${message}`);
    // A 404 means the run is gone: there is no one left to tell.
    if (!(error instanceof StagerRequestError && error.runGone) && ctx.outcome !== 'failed') {
      await client.failed(message).catch((e: unknown) => ctx.log(`Could not report the failure: ${e instanceof Error ? e.message : String(e)}`));
    }
    return { outcome: 'failed', error };
  } finally {
    await ctx.dispose();
  }
}

/** The main function of a stager program: runs `stager` with STAGER_URL's client and exits with the outcome's code. */
export async function runStager(stager: Stager): Promise<never> {
  let code = 1;
  try {
    const result = await executeStager(stager, new StagerClient());
    code = result.outcome === 'failed' ? 1 : 0;
  } catch (err) {
    process.stderr.write(`stager: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  process.exit(code);
}
