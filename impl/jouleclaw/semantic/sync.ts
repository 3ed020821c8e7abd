// A synchronous face over the Promise-only libraries of jouleclaw §5, §13, §15 (jsonld, shacl-engine, the MCP SDK):
// the testee protocol's reference adapter answers each request synchronously, so each call is run on one long-lived
// worker thread (worker.mjs) and this thread blocks on a SharedArrayBuffer until the worker has answered.
import { existsSync } from 'node:fs';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { JcpError } from '../../errors.ts';

/**
 * A file of impl/jouleclaw/ by its path below that folder: beside this module's folder in the checkout (and in the
 * installed package), or, where this module has been bundled into one file elsewhere in the repository (dist/, the
 * self-tests' and certify's bundles under node_modules/.cache/), in the nearest impl/jouleclaw/ above the bundle.
 */
export function jouleclawFile(rel: string): URL {
  const here = new URL(`../${rel}`, import.meta.url);
  if (existsSync(here)) return here;
  // bundled into one file elsewhere (a testee under dist/ or node_modules/.cache/): the nearest impl/jouleclaw/ above it
  for (let dir = new URL('./', import.meta.url); ; ) {
    const there = new URL(`impl/jouleclaw/${rel}`, dir);
    if (existsSync(there)) return there;
    const up = new URL('../', dir);
    if (up.href === dir.href) return here;
    dir = up;
  }
}

let worker: Worker | undefined;

function theWorker(): Worker {
  if (worker === undefined) {
    worker = new Worker(jouleclawFile('semantic/worker.mjs'));
    worker.unref();
    worker.on('error', () => {
      worker = undefined;
    });
  }
  return worker;
}

/** Runs `task` on the worker and waits for its answer; a failure there is `code` with its message (never a crash). */
export function runSync<T>(task: string, payload: unknown, code: 'ERR_BAD_ARGUMENT' | 'ERR_SHAPE_VIOLATION' = 'ERR_BAD_ARGUMENT', timeoutMs = 30_000): T {
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  theWorker().postMessage({ task, payload, signal, port: port2 }, [port2]);
  const waited = Atomics.wait(flag, 0, 0, timeoutMs);
  const reply = receiveMessageOnPort(port1)?.message as { ok?: T; error?: string } | undefined;
  port1.close();
  if (waited === 'timed-out' || reply === undefined) throw new JcpError(code, `${task} did not answer within ${timeoutMs} ms`);
  if (reply.error !== undefined) throw new JcpError(code, `${task}: ${reply.error}`);
  return reply.ok as T;
}
