// Which implementation the conformance tests run against: the in-process reference by default, or the testee named
// by JCP_TESTEE (a command line), with JCP_TESTEE_TIMEOUT_MS per request. One client per test worker.
import { Implementation, type TesteeInfo } from './implementation.ts';
import { inProcessTransport } from './drivers/in-process.ts';
import { testeeTransport } from './drivers/testee.ts';

let client: Implementation | undefined;

/** The implementation under test. */
export function implementation(): Implementation {
  if (!client) {
    const cmd = process.env['JCP_TESTEE'];
    const timeoutMs = process.env['JCP_TESTEE_TIMEOUT_MS'] ? Number(process.env['JCP_TESTEE_TIMEOUT_MS']) : undefined;
    client = new Implementation(cmd ? testeeTransport(cmd, timeoutMs ? { timeoutMs } : {}) : inProcessTransport());
  }
  return client;
}

/** The handshake answer of the implementation under test. */
export function testeeInfo(): Promise<TesteeInfo> {
  return implementation().info();
}
