/**
 * App tokens: a job with `app_token` gets a short-lived token of its own principal, the job's
 * FQN (mechanism `app`, claims of issuer `app_auth@platform`), so that its instances call the
 * API without anyone's password. What it may do is what policy grants that principal.
 *
 *   instance started ──▶ PLATFORM_API_TOKEN (the token now), PLATFORM_API_URL, and the file
 *                        $PLATFORM_FILES/token (PLATFORM_TOKEN_FILE), read-only to the instance
 *   every tick       ──▶ a token past half its life is renewed; the agents holding the job's
 *                        instances rewrite their files (InstanceFiles), nothing restarts
 *   each request     ──▶ the job must still exist (same uuid and FQN) with `app_token` on,
 *                        turned on in the same turn as the token's (Job.app_token_since)
 *
 * So a token is dead once its job is deleted or the setting removed (at once, not at its
 * expiry, and for good: the setting given again starts a new turn whose tokens are others),
 * and lives at most its lifetime (15 min by default) otherwise: a token copied out of
 * an instance is worth little for long. The variable holds the token the instance started
 * with; long-running processes read the file.
 */
import type { PlatformFile } from '@platform/proto';
import type { Job } from '../model/job.js';
import type { TokenClaims, TokenService } from './tokens.js';

/** The mechanism of app tokens: policy reads their claims as `app_auth@platform->name`. */
export const APP_MECHANISM = 'app';
export const DEFAULT_APP_TOKEN_TTL_SECONDS = 900;

export interface AppTokenDeps {
  tokens: TokenService;
  nowMs: () => number;
  /** The job of a token (cached reads; never activates an actor). */
  findJob: (uuid: string) => Promise<Job | undefined>;
  /** The started jobs (from memory). */
  startedJobs: () => Job[];
  /** Sends new files to the agents of the job's live instances. */
  pushFiles: (job: Job, files: PlatformFile[]) => void;
  /** The API's URL as instances reach it. */
  apiUrl: () => string;
  ttlSeconds?: number;
}

export class AppTokens {
  readonly #ttl: number;
  /** The current token of each job that has one. */
  readonly #current = new Map<string, { token: string; since: number | undefined; issuedMs: number; expiresAtMs: number }>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: AppTokenDeps) {
    this.#ttl = deps.ttlSeconds ?? DEFAULT_APP_TOKEN_TTL_SECONDS;
  }

  /** Renews tokens past half their life (see `tick`) every tenth of the lifetime (an unref'd timer). */
  start(): void {
    const every = Math.max(1_000, (this.#ttl * 1000) / 10);
    this.#timer ??= setInterval(() => this.tick(), every);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The job's token now, made or renewed when it is past half its life or of an earlier turn of the setting. */
  #tokenOf(job: Job): { token: string; renewed: boolean } {
    const now = this.deps.nowMs();
    const known = this.#current.get(job.uuid);
    if (known && known.since === job.app_token_since && now - known.issuedMs < (known.expiresAtMs - known.issuedMs) / 2) return { token: known.token, renewed: false };
    const since = job.app_token_since;
    const { token, expiresAtMs } = this.deps.tokens.issueSync({ sub: job.fqn, name: job.fqn, mechanism: APP_MECHANISM, job: job.uuid, ...(since === undefined ? {} : { agen: since }) }, this.#ttl);
    this.#current.set(job.uuid, { token, since, issuedMs: now, expiresAtMs });
    return { token, renewed: known !== undefined };
  }

  /** The variables of a starting instance of `job`. */
  environmentFor(job: Job): Record<string, string> {
    if (!job.app_token) return {};
    return { PLATFORM_API_TOKEN: this.#tokenOf(job).token, PLATFORM_API_URL: this.deps.apiUrl() };
  }

  /** The token file of a starting instance of `job`. */
  filesFor(job: Job): PlatformFile[] {
    if (!job.app_token) return [];
    return [{ name: 'token', content: Buffer.from(this.#tokenOf(job).token) }];
  }

  /** Renews what is past half its life and sends it to the instances; forgets jobs that no longer have tokens. */
  tick(): void {
    const live = new Set<string>();
    for (const job of this.deps.startedJobs()) {
      if (!job.app_token) continue;
      live.add(job.uuid);
      const { token, renewed } = this.#tokenOf(job);
      if (renewed) this.deps.pushFiles(job, [{ name: 'token', content: Buffer.from(token) }]);
    }
    for (const uuid of this.#current.keys()) if (!live.has(uuid)) this.#current.delete(uuid);
  }

  /** Why a verified app token is no longer good (authenticate.ts), or undefined when it is. */
  async problem(claims: TokenClaims): Promise<string | undefined> {
    const job = claims.job === undefined ? undefined : await this.deps.findJob(claims.job);
    if (!job || job.fqn !== claims.sub) return `the job ${claims.sub} of this app token has been deleted`;
    if (!job.app_token) return `the job ${claims.sub} no longer has app tokens (app_token is off)`;
    if (job.app_token_since !== claims.agen) return `the app_token setting of the job ${claims.sub} was removed since this token was issued; its instances have a new one`;
    return undefined;
  }
}
