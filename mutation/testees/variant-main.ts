// Testees that misbehave on purpose, for the harness's own tests: the reference behind the testee protocol with ONE
// fault, chosen by the first argument. Rule breakers (the suite must flag each on the clause it broke, and nowhere
// else) and program faults (the harness must survive each and say what happened):
//   debit-on-deny            a denied call still debits its cost (jcp §7, C3)
//   drop-inherited-caveat    attenuation drops the parent's caveats (jcp §4.9, C7)
//   accept-non-canonical     cbor.check accepts any well-formed CBOR, canonical or not (jcp §3, §11)
//   no-payload-hash          receipts are sealed without payload_hash (jcp §8, C23)
//   slow:<op>                answers <op> after 60 s (a timeout)
//   crash:<op>               exits on <op> (a crash)
//   garbage:<op>             answers <op> with a non-canonical frame
//   oversize:<op>            answers <op> with a frame header declaring 2 GiB
//   exit-early               exits before the handshake
// the process-only rule breakers of ./process-faults.ts (durable-write-behind[:ms]), and the clause mutants of
// mutation/catalog.ts, by id (built in ./registry.ts); an unknown non-empty id exits 2.
import { createReferenceAdapter } from '../../harness/adapter/reference.ts';
import { respond } from '../../harness/adapter/respond.ts';
import { encodeFrame, FrameReader } from '../../harness/protocol/framing.ts';
import { legacyVariant } from './legacy.ts';
import { LEGACY_VARIANTS, MUTANT_BUILDERS } from './registry.ts';
import { MUTANT_PATCHES } from './patches.ts';
import { processVariant } from './process-faults.ts';
import type { CborMap } from '../../impl/index.ts';

const variant = process.argv[2] ?? '';
const [fault, faultOp] = variant.split(':') as [string, string | undefined];

if (fault === 'exit-early') process.exit(4);
// clause mutants: any other id must be a known one, so a typo never serves the faithful reference
const PROGRAM_FAULTS = ['slow', 'crash', 'garbage', 'oversize'];
if (MUTANT_PATCHES[variant]) {
  process.stderr.write(`variant-main: ${variant} is a source-patch mutant, served in process only (mutation/vitest.matrix.config.ts)\n`);
  process.exit(2);
}
const processOnly = processVariant(variant);
if (variant !== '' && !processOnly && !PROGRAM_FAULTS.includes(fault) && !(LEGACY_VARIANTS as readonly string[]).includes(variant) && !MUTANT_BUILDERS[variant]) {
  process.stderr.write(`variant-main: unknown variant ${variant}\n`);
  process.exit(2);
}

const built = MUTANT_BUILDERS[variant]; // a clause mutant, or undefined for the variants above
const adapter = processOnly ?? (built ? built(createReferenceAdapter()) : legacyVariant(createReferenceAdapter(), fault));
const reader = new FrameReader();
process.stdin.on('data', (chunk: Buffer) => {
  for (const req of reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)) as CborMap[]) {
    const op = req.get('op');
    if (op === faultOp) {
      if (fault === 'crash') process.exit(70);
      if (fault === 'slow') {
        setTimeout(() => process.stdout.write(encodeFrame(respond(adapter, req))), 60_000);
        continue;
      }
      if (fault === 'garbage') {
        process.stdout.write(Uint8Array.of(0, 0, 0, 2, 0x18, 0x00));
        continue;
      }
      if (fault === 'oversize') {
        process.stdout.write(Uint8Array.of(0x80, 0, 0, 0, 1, 2, 3));
        continue;
      }
    }
    process.stdout.write(encodeFrame(respond(adapter, req)));
  }
});
process.stdin.on('end', () => process.exit(0));
