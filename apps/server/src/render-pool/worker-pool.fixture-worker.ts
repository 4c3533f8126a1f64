/** A worker for the pool's own tests: echoes, spins forever, or dies, as each task asks. */
import { parentPort, workerData } from 'node:worker_threads';

const progress = (workerData as { progress: Int32Array }).progress;
const port = parentPort;
if (!port) throw new Error('runs as a worker thread');
port.on('message', (task: { echo?: unknown; spinForever?: boolean; exit?: boolean; fail?: string }) => {
  Atomics.store(progress, 0, 7);
  if (task.spinForever) for (;;);
  if (task.exit) process.exit(3);
  if (task.fail !== undefined) port.postMessage({ error: task.fail });
  else port.postMessage({ result: task.echo });
});
port.postMessage({ ready: true });
