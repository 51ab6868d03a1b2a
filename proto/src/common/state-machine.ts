/**
 * Guarded state machines, one helper for every machine of the controller and the agent (the
 * agent's instance runner and session, the controller's agent directory and package actor).
 *
 * Each machine writes down, where it lives, a union of its states, a table of the transitions
 * its diagram draws, and changes its state in one place: a `StateMachine` (or `GuardedState`)
 * that refuses what the table does not allow with an `IllegalTransitionError` and logs every
 * change. A refused transition is a bug in the machine, never the doing of a peer or a user:
 * callers let the error surface (it names the machine, `from` and `to`).
 */
import type { LogFields, Logger } from './logger.js';

/** For each state, the states it may go to; a state that may stay (and report again) lists itself. */
export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

/** A transition that a machine's table does not allow. */
export class IllegalTransitionError<S extends string = string> extends Error {
  override readonly name: string = 'IllegalTransitionError';
  constructor(
    /** The machine, as named in the message ("the agent session", "instance"). */
    readonly machine: string,
    readonly from: S,
    readonly to: S,
  ) {
    super(`${machine} cannot go from ${from} to ${to}`);
  }
}

/** A machine's name and table; `check` is its transition function. */
export class StateMachine<S extends string> {
  constructor(
    readonly name: string,
    readonly table: TransitionTable<S>,
  ) {}

  /** True when the table allows `from -> to`. */
  allows(from: S, to: S): boolean {
    return this.table[from].includes(to);
  }

  /** `to`, when the table allows `from -> to`; an IllegalTransitionError otherwise. */
  check(from: S, to: S): S {
    if (!this.allows(from, to)) throw new IllegalTransitionError<S>(this.name, from, to);
    return to;
  }

  /**
   * The setter of a machine whose state lives in a record of its own: checks `from -> to` and
   * logs the change at debug level (`<name> state` with `from`, `to` and `fields`; a state that
   * stays is not logged). Returns `to`.
   */
  transition(from: S, to: S, log: Logger, fields?: LogFields): S {
    this.check(from, to);
    if (from !== to) log.debug(`${this.name} state`, { ...fields, from, to });
    return to;
  }

  /** A holder of one machine's current state, starting at `initial`. */
  start(initial: S, log: Logger, fields: LogFields = {}): GuardedState<S> {
    return new GuardedState(this, initial, log, fields);
  }
}

/**
 * The current state of one machine, with its one setter. Every change is logged at debug level
 * (`<name> state` with `from` and `to`); a transition a state makes to itself (allowed only when
 * the table lists it) is not logged.
 */
export class GuardedState<S extends string> {
  #state: S;

  constructor(
    readonly machine: StateMachine<S>,
    initial: S,
    private readonly log: Logger,
    private readonly fields: LogFields = {},
  ) {
    this.#state = initial;
  }

  get current(): S {
    return this.#state;
  }

  /** Goes to `to`, refusing what the table does not allow; returns the state it left. */
  set(to: S, fields?: LogFields): S {
    const from = this.#state;
    this.#state = this.machine.transition(from, to, this.log, { ...this.fields, ...fields });
    return from;
  }
}
