/** Runs the real `platform-router` binary as a child process against a test controller. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlatformProcess, TEST_JOIN_TOKEN, type ControllerProcess } from './controller-process.js';

export const ROUTER_BIN = join(dirname(fileURLToPath(import.meta.resolve('@platform/controller'))), 'bin', 'platform-router.js');

export class RouterProcess extends PlatformProcess {
  address = '';
  /** host:port of its /metrics, when started with --metrics-listen ('' otherwise). */
  metricsAddress = '';

  /** `nodeArgs`: options for node itself, before the script (e.g. --cpu-prof); `env`: more environment. */
  static async start(controller: Pick<ControllerProcess, 'grpcAddress'>, args: string[] = [], nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<RouterProcess> {
    const child = spawn(process.execPath, [...nodeArgs, ROUTER_BIN, '--controller', controller.grpcAddress, '--listen', '127.0.0.1:0', ...args], {
      env: { ...process.env, PLATFORM_JOIN_TOKEN: TEST_JOIN_TOKEN, PLATFORM_LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = new RouterProcess(child);
    proc.address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`router not ready\n${proc.stderr.join('\n')}`)), 30_000);
      proc.onLine = (line) => {
        if (line['msg'] === 'router ready') {
          clearTimeout(timer);
          proc.metricsAddress = typeof line['metrics'] === 'string' ? line['metrics'] : '';
          resolve(String(line['http']));
        }
      };
      void proc.exited.then((e) => {
        clearTimeout(timer);
        reject(new Error(`router exited (${e.code ?? e.signal})\n${proc.stderr.join('\n')}`));
      });
    });
    return proc;
  }

  /** Log lines with this message. */
  linesWith(msg: string): Record<string, unknown>[] {
    return this.lines.filter((l) => l['msg'] === msg);
  }
}
