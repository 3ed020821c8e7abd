#!/usr/bin/env node
// The jcp-conformance command. Installed, it runs the suite compiled to JavaScript (dist/suite/, built by `npm pack`'s
// prepack step, scripts/build-package.ts); in a checkout, where the TypeScript source is beside it, it runs that
// source through tsx (a development dependency), so a checkout never runs a stale build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../harness/cli.ts', import.meta.url));
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source);
} else {
  await import(new URL('../dist/suite/harness/cli.js', import.meta.url).href);
}
