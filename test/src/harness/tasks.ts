/** Tasks (`{"location": <task>}` answers): waiting for one to end. */
import type { ApiClient } from './http.js';
import { eventually } from './wait.js';

/** The task at `location` once it is no longer running (`T`: the caller's view of the Task). */
export async function taskEnd<T extends { state: string }>(api: ApiClient, location: string, timeoutMs = 90_000): Promise<T> {
  return eventually(
    async () => {
      const task = (await api.get<T>(new URL(location).pathname)).body;
      return task.state !== 'running' ? task : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `task ${location} to end` },
  );
}
