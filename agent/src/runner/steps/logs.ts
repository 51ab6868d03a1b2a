/**
 * Step `logs`: the instance's log files. The runner opens them when it creates the instance (the
 * shipper follows them from the first line), so there is nothing to prepare (the runner adopts
 * the step then); released last of all, it hands the last lines over and closes the files.
 */
import type { InstanceStep } from '../context.js';

export const logsStep: InstanceStep = {
  name: 'logs',
  release(ctx) {
    const tailer = ctx.tailer;
    if (!tailer) return;
    try {
      ctx.deps.onFinalLogs(tailer);
    } finally {
      tailer.close();
    }
  },
};
