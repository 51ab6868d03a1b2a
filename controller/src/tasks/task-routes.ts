/**
 * GET /tasks/{uuid}: the Task (`?time=<UNIX ns>`: only events after that time); with a WebSocket
 * upgrade on the same URL, its TaskEvents, one JSON object per message, the stored ones first,
 * ending with `eos` or `error` (then the server closes, code 1000). A controller stopping
 * sends `disconnect` and closes with 1001.
 *
 * Policy: the principal that started the task reads it; anyone else needs `permit read` on
 * what it works on. A task the caller may not read answers 404.
 */
import { baseUrl, queryValue, sendJson, v1, type ApiContext, type Endpoint } from '../api/endpoint.js';
import { acceptWebSocket, wantsWebSocket } from '../api/websocket.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { requireUuid } from '../model/validate.js';
import { authorizeFound } from '../policy/access.js';
import type { TaskEvent, TaskRecord, TaskService } from './task-service.js';

/** The `location` an asynchronous endpoint answers with. */
export function taskLocation(ctx: ApiContext, uuid: string): string {
  return `${baseUrl(ctx)}/v1/tasks/${uuid}`;
}

/** The answer of an endpoint that started a task: `{"location": ...}` (TaskResponse). */
export function sendTaskRef(ctx: ApiContext, task: TaskRecord, media = v1('taskref')): void {
  const location = taskLocation(ctx, task.uuid);
  ctx.set('Location', location);
  sendJson(ctx, media, { location });
}

export function taskEndpoints(tasks: TaskService): Endpoint[] {
  const readableTask = async (ctx: ApiContext): Promise<TaskRecord> => {
    const uuid = requireUuid(ctx.params['uuid'] ?? '', 'task uuid');
    const notFound = `task ${uuid} not found`;
    const record = await tasks.find(uuid);
    if (!record) throw new NotFoundError(notFound);
    if (record.principal !== ctx.state.principal) await authorizeFound(ctx, record.fqn, 'read', notFound);
    return record;
  };

  return [
    {
      method: 'GET',
      path: '/tasks/:uuid',
      media: v1('task'),
      handler: async (ctx) => {
        const record = await readableTask(ctx);
        if (wantsWebSocket(ctx)) return stream(ctx, tasks, record);
        const time = queryValue(ctx, 'time');
        if (time !== undefined && !/^\d{1,20}$/.test(time)) throw new InvalidRequestError(`query time: "${time}" is not a time in UNIX nanoseconds`);
        sendJson(ctx, v1('task'), await tasks.get(record, time === undefined ? undefined : Number(time)));
      },
    },
  ];
}

async function stream(ctx: ApiContext, tasks: TaskService, record: TaskRecord): Promise<void> {
  const ws = await acceptWebSocket(ctx);
  const log = ctx.state.log;
  let unsubscribe: () => void = () => undefined;
  let ended = false;
  const send = (event: TaskEvent) => {
    if (ended) return;
    ws.send(JSON.stringify(event));
    if (event.task_event_type === 'eos' || event.task_event_type === 'error') {
      ended = true;
      ws.close(1000, event.task_event_type);
    } else if (event.task_event_type === 'disconnect') {
      ended = true;
      ws.close(1001, 'the controller is stopping');
      // A client that does not answer the close does not hold the controller's stop.
      setTimeout(() => ws.terminate(), 1_000).unref();
    }
  };
  ws.on('close', () => {
    ended = true;
    unsubscribe();
  });
  ws.on('error', (err) => log.debug('task stream error', { task: record.uuid, err: err.message }));
  try {
    unsubscribe = await tasks.follow(record.uuid, send);
  } catch (err) {
    log.warn('task stream failed', { task: record.uuid, err });
    ws.close(1011, 'the task could not be read');
  }
  if (ended) unsubscribe();
}
