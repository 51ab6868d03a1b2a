/**
 * What jobs ask of secrets (implemented in secrets/): a change that installs secrets holds them
 * from the moment they are resolved until its write is done, so that a secret cannot be deleted
 * between the check that it exists and the write of the job that refers to it.
 *
 *   job change: resolve FQNs ─▶ hold (each must still exist) ─▶ write job and index ─▶ release
 *   secret delete: refused while held; while it runs, holds are refused
 *
 * Together with the index of the jobs each secret is in (written with the job), a delete either
 * sees the job (or its hold) and is refused, or the job's change is refused: never a job that
 * refers to a missing secret.
 */
export interface SecretHold {
  /** The current version of each secret held, by uuid. */
  versions: Map<string, number>;
  /**
   * Gives the hold back, once the job's change is written (`jobUuid`: the job written) or has
   * failed (no argument). A secret that got a new version while held rolls the written job to it,
   * as the new version's own roll did not see the job yet.
   */
  release(jobUuid?: string): void;
}

export interface JobSecrets {
  /**
   * Holds `secrets`: throws InvalidRequestError (400) naming one that no longer exists, and
   * ConflictError (409) for one being deleted now.
   */
  hold(secrets: readonly { uuid: string; fqn: string }[]): SecretHold;
}
