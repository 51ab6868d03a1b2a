/**
 * Tasks: the record of an asynchronous operation (POST /jobs/container, POST /packages/container,
 * POST /manifests), read with GET /tasks/{uuid} and streamed over a WebSocket on the same URL
 * (behaviour-notes.md, "Tasks").
 *
 *   start ──▶ running ──work resolves──▶ complete, unerrored   (last event `eos`)
 *                    └──work throws────▶ stopped, errored     (last event `error`, payload.error)
 *                    └──controller restart─▶ stopped, errored (at the next start, `error` saying so)
 *
 * Every event is stored before listeners hear it, one task's events in order (a Mailbox per
 * running task): `task/<uuid>` holds the task without its events, `task-ev/<uuid>/<seq>` each
 * event. A task acknowledged to a client (its location answered) is on disk, so a restart that
 * cuts it short ends it `errored` instead of leaving it `running` forever.
 *
 * Who may read a task: the principal that started it, or whoever may read the resource it works
 * on (`fqn`); the routes check that. Ended tasks are kept a week (TASK_RETENTION_MS), then
 * dropped at a start of the controller.
 */
import type { Deps } from '../context.js';
import { Mailbox } from '../actors/mailbox.js';
import type { BatchOp } from '../store/store.js';

export type TaskState = 'running' | 'stopped' | 'complete';
export type TaskEventType = 'event' | 'error' | 'eos' | 'disconnect' | 'cancel';

export interface TaskProgress {
  /** Units done (bytes, resources). */
  current: number;
  /** Percent done, 0-100. */
  progress: number;
}

export interface TaskSubtask {
  index: number;
  name: string;
  total: number;
  progress?: TaskProgress;
}

export interface TaskEvent {
  uuid: string;
  task_uuid: string;
  task_event_type: TaskEventType;
  thread: string;
  stage: string;
  subtask: TaskSubtask;
  payload: Record<string, string>;
  tags: string[];
  /** UNIX nanoseconds. */
  time: number;
}

export interface Task {
  uuid: string;
  state: TaskState;
  errored: 'unerrored' | 'errored';
  events: TaskEvent[];
  time_started: number;
  time_completed: number;
}

/** What the store holds for a task (its events are kept apart). */
export interface TaskRecord {
  uuid: string;
  state: TaskState;
  errored: 'unerrored' | 'errored';
  time_started: number;
  time_completed: number;
  /** What the task works on: reads need `permit read` on it, unless the reader started it. */
  fqn: string;
  /** The principal that started it. */
  principal: string;
  /** The kind of work (`container`, `manifest`): the events' thread. */
  thread: string;
  /** Events stored so far. */
  events: number;
}

/** What a step of the work reports. */
export interface TaskStep {
  stage: string;
  /** The subtask's name, e.g. "pulling layer sha256:…". */
  name: string;
  index?: number;
  total?: number;
  /** Units done and units in all (bytes of a layer, resources of a manifest). */
  progress?: { current: number; total: number };
  payload?: Record<string, string>;
  tags?: string[];
  /**
   * Progress within a step (a chunk of a layer): such events are kept at most four a second
   * per task, the others dropped. The events that start and end a step are never dropped.
   */
  partial?: boolean;
}

/** The handle the work of a task reports through. */
export interface TaskReporter {
  readonly uuid: string;
  /** Records an event (stored before listeners hear it). */
  event(step: TaskStep): Promise<void>;
}

export type TaskListener = (event: TaskEvent) => void;

const taskKey = (uuid: string) => `task/${uuid}`;
const eventKey = (uuid: string, seq: number) => `task-ev/${uuid}/${seq.toString().padStart(8, '0')}`;
const eventPrefix = (uuid: string) => `task-ev/${uuid}/`;

/** How long an ended task stays readable (dropped at the next start after that). */
export const TASK_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** At most this many progress events a second per task: the rest are folded into the next one. */
export const PROGRESS_INTERVAL_MS = 250;

class RunningTask implements TaskReporter {
  readonly mailbox = new Mailbox();
  readonly listeners = new Set<TaskListener>();
  lastProgressMs = 0;

  constructor(
    readonly record: TaskRecord,
    private readonly service: TaskService,
  ) {}

  get uuid(): string {
    return this.record.uuid;
  }

  event(step: TaskStep): Promise<void> {
    return this.service.append(this, 'event', step);
  }
}

export class TaskService {
  readonly #running = new Map<string, RunningTask>();
  readonly #work = new Set<Promise<void>>();
  #stopped = false;

  constructor(private readonly deps: Deps) {}

  /**
   * Ends the tasks a stop of the controller cut short: `stopped`, `errored`, with an `error`
   * event that says so. Returns how many.
   */
  async restore(): Promise<number> {
    const interrupted: TaskRecord[] = [];
    const expired: string[] = [];
    const horizon = Number(this.deps.clock.nowNs()) - TASK_RETENTION_MS * 1e6;
    for await (const [, value] of this.deps.store.iterate({ prefix: 'task/' })) {
      const record = JSON.parse(value) as TaskRecord;
      if (record.state === 'running') interrupted.push(record);
      else if (record.time_completed < horizon) expired.push(record.uuid);
    }
    // Ended tasks are kept for a week, then dropped with their events: the events in batches
    // the store takes (etcd bounds a transaction; a pull has hundreds of events), the record
    // last, so that a start cut short meanwhile finds the task and drops the rest next time.
    const most = this.deps.store.maxBatchOps ?? Infinity;
    for (const uuid of expired) {
      let ops: BatchOp[] = [];
      for await (const [key] of this.deps.store.iterate({ prefix: eventPrefix(uuid) })) {
        ops.push({ type: 'del', key });
        if (ops.length >= most) {
          await this.deps.store.batch(ops);
          ops = [];
        }
      }
      if (ops.length + 1 > most) {
        await this.deps.store.batch(ops);
        ops = [];
      }
      await this.deps.store.batch([...ops, { type: 'del', key: taskKey(uuid) }]);
    }
    for (const record of interrupted) {
      const task = new RunningTask(record, this);
      await this.append(task, 'error', {
        stage: 'Finish',
        name: 'execution was cut short',
        payload: { error: `the controller stopped while the task ran (a restart, or another controller took over); its ${record.thread} work was cut short: run it again` },
      });
    }
    return interrupted.length;
  }

  /**
   * Starts a task and runs `work` in the background; the task is stored before this resolves.
   * `work` resolving ends it `complete` (event `eos`), throwing ends it `errored` (event `error`
   * with the message).
   */
  async start(thread: string, owner: { fqn: string; principal: string }, work: (task: TaskReporter) => Promise<void>): Promise<TaskRecord> {
    if (this.#stopped) throw new Error('the controller is stopping');
    const now = this.#nowNs();
    const record: TaskRecord = {
      uuid: this.deps.ids.uuid(),
      state: 'running',
      errored: 'unerrored',
      time_started: now,
      time_completed: 0,
      fqn: owner.fqn,
      principal: owner.principal,
      thread,
      events: 0,
    };
    const task = new RunningTask(record, this);
    this.#running.set(record.uuid, task);
    await task.mailbox.post(() => this.deps.store.batch([{ type: 'put', key: taskKey(record.uuid), value: JSON.stringify(record) }]));
    await this.append(task, 'event', { stage: 'Start', name: 'execution started' });
    const run = (async () => {
      try {
        await work(task);
        await this.append(task, 'eos', { stage: 'Finish', name: 'execution was successful' });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.deps.log.info('task failed', { task: record.uuid, thread, error: message });
        // A stopping controller leaves the task running in the store: the next start ends it.
        if (!this.#stopped) await this.append(task, 'error', { stage: 'Finish', name: 'execution failed', payload: { error: message } }).catch(() => undefined);
      }
    })().finally(() => this.#work.delete(run));
    this.#work.add(run);
    return record;
  }

  /** Stores one event of `task` (in order) and tells its listeners; `eos` and `error` end it. */
  append(task: RunningTask, type: TaskEventType, step: TaskStep): Promise<void> {
    return task.mailbox.post(async () => {
      const record = task.record;
      if (record.state !== 'running') return;
      const nowMs = this.deps.clock.nowMs();
      // Progress within a step comes often (every chunk of a layer): at most one per interval is kept.
      if (type === 'event' && step.partial) {
        if (nowMs - task.lastProgressMs < PROGRESS_INTERVAL_MS) return;
        task.lastProgressMs = nowMs;
      }
      const event: TaskEvent = {
        uuid: this.deps.ids.uuid(),
        task_uuid: record.uuid,
        task_event_type: type,
        thread: record.thread,
        stage: step.stage,
        subtask: {
          index: step.index ?? 0,
          name: step.name,
          total: step.total ?? 0,
          ...(step.progress
            ? {
                progress: {
                  current: step.progress.current,
                  progress: step.progress.total > 0 ? Math.min(100, Math.floor((step.progress.current * 100) / step.progress.total)) : 100,
                },
              }
            : {}),
        },
        payload: step.payload ?? {},
        tags: step.tags ?? [],
        time: this.#nowNs(),
      };
      const seq = record.events;
      const ops: BatchOp[] = [{ type: 'put', key: eventKey(record.uuid, seq), value: JSON.stringify(event) }];
      const next: TaskRecord = { ...record, events: seq + 1 };
      if (type === 'eos' || type === 'error') {
        next.state = type === 'eos' ? 'complete' : 'stopped';
        next.errored = type === 'eos' ? 'unerrored' : 'errored';
        next.time_completed = event.time;
      }
      ops.push({ type: 'put', key: taskKey(record.uuid), value: JSON.stringify(next) });
      await this.deps.store.batch(ops);
      Object.assign(task.record, next);
      for (const listener of task.listeners) listener(event);
      if (next.state !== 'running') {
        task.listeners.clear();
        this.#running.delete(record.uuid);
      }
    });
  }

  /** The stored record of a task, without events. */
  async find(uuid: string): Promise<TaskRecord | undefined> {
    const live = this.#running.get(uuid);
    if (live) return { ...live.record };
    const raw = await this.deps.store.get(taskKey(uuid));
    return raw === undefined ? undefined : (JSON.parse(raw) as TaskRecord);
  }

  /**
   * The task with its events after `afterNs` (all by default). Times are compared as the JSON
   * numbers clients read (doubles): a time echoed back from an event names that event.
   */
  async get(record: TaskRecord, afterNs?: number): Promise<Task> {
    const events: TaskEvent[] = [];
    let last: TaskEvent | undefined;
    for await (const [, value] of this.deps.store.iterate({ prefix: eventPrefix(record.uuid) })) {
      const event = JSON.parse(value) as TaskEvent;
      last = event;
      if (afterNs === undefined || event.time > afterNs) events.push(event);
    }
    // The record may have been read just before its last event was stored: the events say.
    if (record.state === 'running' && last && (last.task_event_type === 'eos' || last.task_event_type === 'error')) {
      const ok = last.task_event_type === 'eos';
      record = { ...record, state: ok ? 'complete' : 'stopped', errored: ok ? 'unerrored' : 'errored', time_completed: last.time };
    }
    return taskView(record, events);
  }

  /**
   * Every event of the task, the stored ones then the new ones as they come, none twice nor
   * lost: the listener is added in the task's mailbox, between two events. Resolves with an
   * unsubscribe function once the backlog was given to `listener`.
   */
  async follow(uuid: string, listener: TaskListener): Promise<() => void> {
    const live = this.#running.get(uuid);
    const replay = async () => {
      for await (const [, value] of this.deps.store.iterate({ prefix: eventPrefix(uuid) })) listener(JSON.parse(value) as TaskEvent);
    };
    if (!live) {
      await replay();
      return () => undefined;
    }
    try {
      await live.mailbox.post(async () => {
        await replay();
        if (live.record.state === 'running') live.listeners.add(listener);
      });
    } catch {
      // The mailbox closed: the task ended meanwhile, its events are all stored.
      await replay();
    }
    return () => live.listeners.delete(listener);
  }

  /** Tasks running now (for tests and metrics). */
  get running(): number {
    return this.#running.size;
  }

  /** Tasks running now by thread (`container`, `manifest`), for /metrics. */
  runningByThread(): Record<string, number> {
    const out: Record<string, number> = { container: 0, manifest: 0 };
    for (const task of this.#running.values()) out[task.record.thread] = (out[task.record.thread] ?? 0) + 1;
    return out;
  }

  /**
   * Stops taking tasks; the work under way is abandoned where it stands (its task stays
   * `running` in the store, which the next start ends `errored`). Listeners hear a `disconnect`.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const task of this.#running.values()) {
      const event: TaskEvent = {
        uuid: this.deps.ids.uuid(),
        task_uuid: task.uuid,
        task_event_type: 'disconnect',
        thread: task.record.thread,
        stage: 'Finish',
        subtask: { index: 0, name: 'the controller is stopping', total: 0 },
        payload: { error: 'the controller is stopping; the task ends errored at its next start' },
        tags: [],
        time: this.#nowNs(),
      };
      for (const listener of task.listeners) listener(event);
      task.listeners.clear();
      void task.mailbox.close();
    }
  }

  #nowNs(): number {
    return Number(this.deps.clock.nowNs());
  }
}

export function taskView(record: TaskRecord, events: TaskEvent[]): Task {
  return {
    uuid: record.uuid,
    state: record.state,
    errored: record.errored,
    events,
    time_started: record.time_started,
    time_completed: record.time_completed,
  };
}
