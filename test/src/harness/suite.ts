/** One real controller per test file, shared by its tests, which use unique names. */
import type { TestFn } from 'ava';
import { ControllerProcess, type SpawnOptions } from './controller-process.js';
import type { ApiClient } from './http.js';

export interface Suite {
  controller: () => ControllerProcess;
  /** Logged in as the bootstrap administrator. */
  api: () => ApiClient;
}

export function useController(test: TestFn, options: SpawnOptions = {}): Suite {
  let controller: ControllerProcess | undefined;
  let api: ApiClient | undefined;
  test.before(async () => {
    controller = await ControllerProcess.start(options);
    api = await controller.admin();
  });
  test.after.always(async () => {
    await controller?.dispose();
  });
  return {
    controller: () => controller!,
    api: () => api!,
  };
}
