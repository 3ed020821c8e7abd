#!/usr/bin/env node
// The jcp-conformance command: loads the TypeScript CLI through tsx, so it runs from a checkout without a build.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register();
await import(fileURLToPath(new URL('../harness/cli.ts', import.meta.url)));
