/**
 * A client of the service gateway API: what the cluster uses to call a
 * gateway, and what the test kit uses so that a test drives a gateway exactly
 * as the cluster does.
 *
 * Every call is bounded (`timeoutMs`, default 30 s). A gateway may have several
 * addresses (its running instances): a call goes to the first, and moves on to
 * the next only when no connection could be made, so a request is never sent
 * twice. Answers are checked against the spec; what fails is one of the four
 * GatewayCallError kinds (unreachable, timeout, refused, malformed).
 * State headers are passed through as the opaque strings they are.
 *
 * A create that fails may have made the object all the same: a 2xx answer the
 * checks refuse, a timeout, a connection that broke after the request went out.
 * `createOutcome(err)` says which, with the id when the answer named one, so
 * that the caller can delete it again (the cluster does: orphan mitigation).
 */
import {
  GatewayProtocolError,
  GatewayRefusedError,
  GatewayTimeoutError,
  GatewayUnreachableError,
  type CreateEvidence,
  type ErrorBody,
  type LateAnswer,
} from './errors.js';
import { isStateHeaderValue, MAX_STATE_BYTES, STATE_HEADERS, type StateKind, type States } from './state.js';
import {
  bindingProblems,
  describeProblems,
  methodMapProblems,
  providerProblems,
  serviceProblems,
  type Binding,
  type BindingRequest,
  type MethodMap,
  type Problem,
  type Provider,
  type ProviderRequest,
  type Service,
  type ServiceRequest,
} from './wire.js';

export type { States };

export interface GatewayReply<T> {
  status: number;
  object: T;
  /** State headers the gateway returned (new or changed); the caller stores them. */
  states: States;
}

export interface GatewayClientOptions {
  /** Bound of one call, connection included (default 30 s). */
  timeoutMs?: number;
  /**
   * How much longer a create that timed out is still waited for (default 0: not
   * at all). The caller is told of the timeout at `timeoutMs` all the same; the
   * error's `lateAnswer` then settles with what the gateway answered later, so
   * that what it made can be deleted again (`createOutcome`).
   */
  lateAnswerMs?: number;
  /** Ends every call in flight, and every wait for a late answer, when aborted. */
  signal?: AbortSignal;
  /** Extra headers on every call (credentials a gateway may ask for). */
  headers?: Record<string, string>;
}

/**
 * After a create failed: whether the gateway may have made the object all the
 * same, and its id when the answer named one.
 *   no     nothing was made: the gateway refused (an error status), or the request never left
 *   yes    the gateway answered 2xx (an answer the caller could not accept)
 *   maybe  no answer, or the connection broke after the request went out
 *   later  a create that timed out: `answer` settles with one of the above once the
 *          gateway answers, or the wait (`lateAnswerMs`) ends
 * `id` is known only from a JSON object body with a non-empty string `id`; `states` are the
 * state headers of the answer as they came.
 */
export type CreateOutcome =
  | { made: 'no' }
  | { made: 'yes' | 'maybe'; id?: string; states: States; why: string }
  | { made: 'later'; answer: Promise<Exclude<CreateOutcome, { made: 'later' }>> };

/** What a failed create (`createProvider`, `createService`, `createBinding`) may have left at the gateway. */
export function createOutcome(err: unknown): CreateOutcome {
  if (err instanceof GatewayProtocolError && err.made) return { made: 'yes', ...err.made, why: `its answer was refused: ${err.message}` };
  if (err instanceof GatewayTimeoutError) {
    if (!err.lateAnswer) return { made: 'maybe', states: {}, why: err.message };
    return {
      made: 'later',
      answer: err.lateAnswer.then((late) => {
        switch (late.outcome) {
          case 'made':
            return { made: 'yes', ...late.evidence, why: `it answered after the time allowed (${err.message})` };
          case 'not_made':
            return { made: 'no' };
          case 'none':
            return { made: 'maybe', states: {}, why: `${err.message}; ${late.why}` };
        }
      }),
    };
  }
  if (err instanceof GatewayUnreachableError && err.mayHaveArrived) return { made: 'maybe', states: {}, why: err.message };
  return { made: 'no' };
}

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** An answer as it came: status, headers and body text. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Whether `value` may be sent as a header value (what fetch accepts): no NUL, CR or LF, nothing above U+00FF. */
function isHeaderValue(value: string): boolean {
  return !/[\0\r\n\u0100-\uffff]/.test(value);
}

/** What a create's 2xx answer says of the object made, however malformed: the id of a JSON object body, and the states as they came. */
function evidenceOf(answer: Answer): CreateEvidence {
  const states: States = {};
  for (const kind of Object.keys(STATE_HEADERS) as StateKind[]) {
    const value = answer.headers.get(STATE_HEADERS[kind]);
    if (value !== null && value !== '' && isHeaderValue(value)) states[kind] = value;
  }
  let id: string | undefined;
  try {
    const body = JSON.parse(answer.text) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const value = (body as Record<string, unknown>)['id'];
      if (typeof value === 'string' && value !== '') id = value;
    }
  } catch {
    // Not JSON: no id can be read from it.
  }
  return id === undefined ? { states } : { id, states };
}

export class GatewayClient {
  readonly addresses: string[];
  readonly timeoutMs: number;

  /** `addresses`: base URLs such as `http://10.0.0.5:41234`, tried in order. */
  constructor(
    addresses: string | string[],
    private readonly options: GatewayClientOptions = {},
  ) {
    this.addresses = (Array.isArray(addresses) ? addresses : [addresses]).map((a) => a.replace(/\/+$/, ''));
    if (this.addresses.length === 0) throw new TypeError('a gateway client needs at least one address');
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The name used in errors: the first address. */
  get gateway(): string {
    return this.addresses[0]!;
  }

  /** `GET /`: the method map, checked. */
  async describe(): Promise<MethodMap> {
    const r = await this.#call('GET', '/', undefined, {});
    return this.#checked('GET', '/', r.body, methodMapProblems) as MethodMap;
  }

  async createProvider(request: ProviderRequest, states: States = {}): Promise<GatewayReply<Provider>> {
    return this.#create('/providers', request, states, providerProblems);
  }

  async deleteProvider(id: string, states: States = {}): Promise<void> {
    await this.#call('DELETE', `/providers/${encodeURIComponent(id)}`, undefined, states);
  }

  async createService(request: ServiceRequest, states: States = {}): Promise<GatewayReply<Service>> {
    return this.#create('/services', request, states, serviceProblems);
  }

  async deleteService(id: string, states: States = {}, options: { force?: boolean } = {}): Promise<void> {
    await this.#call('DELETE', `/services/${encodeURIComponent(id)}${options.force ? '?force=true' : ''}`, undefined, states);
  }

  async createBinding(request: BindingRequest, states: States = {}): Promise<GatewayReply<Binding>> {
    return this.#create('/bindings', request, states, bindingProblems);
  }

  async deleteBinding(id: string, states: States = {}): Promise<void> {
    await this.#call('DELETE', `/bindings/${encodeURIComponent(id)}`, undefined, states);
  }

  /**
   * A create: its 2xx answer is checked like any other, and when it is refused the error
   * carries what the answer says of the object made (`GatewayProtocolError.made`). With
   * `lateAnswerMs`, a create that times out is still waited for that much longer
   * (`GatewayTimeoutError.lateAnswer`).
   */
  async #create<T>(path: string, request: object, states: States, check: (o: unknown) => Problem[]): Promise<GatewayReply<T>> {
    const lateMs = this.options.lateAnswerMs ?? 0;
    const answer = lateMs > 0 ? await this.#answerOrLate('POST', path, request, states, lateMs) : await this.#exchange('POST', path, request, states, this.timeoutMs);
    const r = this.#read('POST', path, answer, true);
    const object = this.#checked('POST', path, r.body, check, answer) as T;
    return { status: r.status, object, states: r.states };
  }

  #checked(method: string, path: string, body: unknown, check: (o: unknown) => Problem[], created?: Answer): unknown {
    const problems = check(body);
    if (problems.length) throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: ${describeProblems(problems)}`, created ? { made: evidenceOf(created) } : {});
    return body;
  }

  async #call(method: string, path: string, body: object | undefined, states: States): Promise<{ status: number; body: unknown; states: States }> {
    return this.#read(method, path, await this.#exchange(method, path, body, states, this.timeoutMs), false);
  }

  /**
   * A create bounded by `timeoutMs` for the caller, while the request itself runs for up to
   * `lateMs` longer: at the timeout the caller gets a GatewayTimeoutError whose `lateAnswer`
   * settles with the rest of the exchange.
   */
  async #answerOrLate(method: string, path: string, body: object, states: States, lateMs: number): Promise<Answer> {
    const exchange = this.#exchange(method, path, body, states, this.timeoutMs + lateMs);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.timeoutMs)));
    try {
      const first = await Promise.race([exchange, timedOut]);
      if (first !== 'timeout') return first;
    } finally {
      clearTimeout(timer);
    }
    const lateAnswer = exchange.then(
      (answer): LateAnswer =>
        answer.status >= 200 && answer.status <= 299 ? { outcome: 'made', evidence: evidenceOf(answer) } : { outcome: 'not_made', why: `it answered ${answer.status} later` },
      (err: unknown): LateAnswer =>
        err instanceof GatewayUnreachableError && !err.mayHaveArrived ? { outcome: 'not_made', why: err.message } : { outcome: 'none', why: (err as Error).message },
    );
    throw new GatewayTimeoutError(this.gateway, method, path, `no answer within ${this.timeoutMs} ms`, { lateAnswer });
  }

  /** One request, to the first address that takes a connection, and its answer read whole within `boundMs`. */
  async #exchange(method: string, path: string, body: object | undefined, states: States, boundMs: number): Promise<Answer> {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    for (const [kind, value] of Object.entries(states) as [StateKind, string | undefined][]) {
      if (value) headers[STATE_HEADERS[kind]] = value;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const deadline = AbortSignal.timeout(boundMs);
    const signal = this.options.signal ? AbortSignal.any([deadline, this.options.signal]) : deadline;
    const ended = (err: unknown, mayHaveArrived: boolean) =>
      deadline.aborted
        ? new GatewayTimeoutError(this.gateway, method, path, `no answer within ${boundMs} ms`, { cause: err })
        : new GatewayUnreachableError(this.gateway, method, path, 'the call was abandoned (the caller stops)', { cause: err, mayHaveArrived });
    let response: Response | undefined;
    let lastError: unknown;
    for (const address of this.addresses) {
      try {
        response = await fetch(`${address}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body), signal, redirect: 'manual' });
        break;
      } catch (err) {
        lastError = err;
        if (signal.aborted) throw ended(err, true);
        if (!CONNECT_ERRORS.has(errorCode(err) ?? '')) {
          throw new GatewayUnreachableError(this.gateway, method, path, `the connection failed: ${(err as Error).message}${errorCode(err) ? ` (${errorCode(err)})` : ''}`, {
            cause: err,
            mayHaveArrived: true,
          });
        }
      }
    }
    if (!response) {
      throw new GatewayUnreachableError(this.gateway, method, path, `no connection to ${this.addresses.join(', ')} (${errorCode(lastError) ?? (lastError as Error)?.message})`, { cause: lastError });
    }
    try {
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (err) {
      if (signal.aborted) throw ended(err, true);
      throw new GatewayUnreachableError(this.gateway, method, path, `the answer was cut off: ${(err as Error).message}`, { cause: err, mayHaveArrived: true });
    }
  }

  /** An answer checked: a 2xx status, state headers that are URL-safe Base64 of at most 4 KB, a JSON body (but for a DELETE). */
  #read(method: string, path: string, answer: Answer, create: boolean): { status: number; body: unknown; states: States } {
    const { status, text } = answer;
    if (status < 200 || status > 299) {
      throw new GatewayRefusedError(this.gateway, method, path, status, errorBodyOf(text), text);
    }
    const made = () => (create ? { made: evidenceOf(answer) } : {});
    const returned: States = {};
    for (const kind of Object.keys(STATE_HEADERS) as StateKind[]) {
      const value = answer.headers.get(STATE_HEADERS[kind]);
      if (value === null || value === '') continue;
      if (!isStateHeaderValue(value)) {
        const what = value.length > MAX_STATE_BYTES ? `${value.length} bytes long` : 'not URL-safe Base64';
        throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: ${STATE_HEADERS[kind]} is ${what} (the limit: URL-safe Base64 of at most ${MAX_STATE_BYTES} bytes)`, made());
      }
      returned[kind] = value;
    }
    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        if (method !== 'DELETE') throw new GatewayProtocolError(this.gateway, method, path, `malformed answer: the body is not JSON: ${text.slice(0, 200)}`, made());
      }
    }
    return { status, body: parsed, states: returned };
  }
}

/** The gateway's error body when it is one of ours (or at least has a message). */
function errorBodyOf(text: string): ErrorBody | undefined {
  try {
    const o = JSON.parse(text) as Partial<ErrorBody> & { error?: unknown };
    if (typeof o !== 'object' || o === null) return undefined;
    const message = typeof o.message === 'string' ? o.message : typeof o.error === 'string' ? o.error : undefined;
    if (message === undefined) return undefined;
    const out: ErrorBody = { code: typeof o.code === 'number' ? o.code : 0, message };
    if (typeof o.details === 'object' && o.details !== null) out.details = o.details;
    return out;
  } catch {
    return undefined;
  }
}
