// jcp-conformance: certify an implementation clause by clause and class by class, and the verbs around it. Every
// verb's options are declared once in ./commands/options.ts, which drives both their parsing and their --help;
// `jcp-conformance --help` lists the verbs, `jcp-conformance <verb> --help` a verb's options and the exit codes.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from './commands/errors.ts';
import { flagMap, nearest, overallHelp, parseVerb, str, verbHelp, VERBS, type Parsed } from './commands/options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function version(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return `${pkg.name} ${pkg.version}`;
}

async function run(a: Parsed, argv: readonly string[]): Promise<number> {
  switch (a.verb) {
    case 'certify':
      return (await import('./commands/certify.ts')).certify(a);
    case 'merge':
      return (await import('./commands/merge.ts')).mergeCommand(a);
    case 'report':
      return (await import('./commands/report.ts')).reportCommand(a);
    case 'verify-certificate':
      return (await import('./commands/verify-certificate.ts')).verifyCertificateCommand(a);
    case 'validate': {
      const testee = str(a, 'testee');
      if (!testee) throw new CliError('missing-argument', "validate needs --testee '<command>'");
      const timeout = str(a, 'timeout');
      const [{ Implementation }, { testeeTransport }, { validateTestee }] = await Promise.all([import('./implementation.ts'), import('./drivers/testee.ts'), import('./validate.ts')]);
      return validateTestee(new Implementation(testeeTransport(testee, timeout ? { timeoutMs: Number(timeout) } : {})));
    }
    case 'interop':
      return (await import('./interop/main.ts')).interopCommand(argv);
    case 'reverify': {
      const [certPath, transcriptPath] = a.positionals as [string, string];
      const { readableFile } = await import('./commands/files.ts');
      readableFile(certPath);
      readableFile(transcriptPath);
      return (await import('./transcript/reverify.ts')).reverifyCommand(certPath, transcriptPath, str(a, 'signer'));
    }
    case 'replay':
      return (await import('./property/commands.ts')).replayCommand(a.positionals, flagMap(a));
    case 'promote':
      return (await import('./property/commands.ts')).promoteCommand(a.positionals, flagMap(a));
    case 'reference-testee':
      return (await import('./adapter/stdio.ts')).serveReference();
    case 'version':
      console.log(version());
      return 0;
    case 'help':
      return 0;
    default:
      throw new CliError('unknown-verb', `unknown verb ${a.verb}`);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(overallHelp());
    return 0;
  }
  if (verb === '--version') {
    console.log(version());
    return 0;
  }
  if (verb === 'help') {
    // help [<verb>]
    const [of, ...more] = rest;
    if (more.length) throw new CliError('extra-argument', 'help takes at most one verb');
    if (of !== undefined && !VERBS.some((v) => v.name === of)) throw unknownVerb(of);
    process.stdout.write(of === undefined ? overallHelp() : verbHelp(of));
    return 0;
  }
  if (!VERBS.some((v) => v.name === verb)) throw unknownVerb(verb);
  const a = parseVerb(verb, rest);
  if (a.help) {
    process.stdout.write(verbHelp(verb));
    return 0;
  }
  return run(a, rest);
}

function unknownVerb(verb: string): CliError {
  if (verb.startsWith('-')) return new CliError('unknown-verb', `a verb comes first, got the option ${verb}: see jcp-conformance --help`);
  const near = nearest(verb, VERBS.map((v) => v.name));
  return new CliError('unknown-verb', `unknown verb ${verb}${near ? ` (did you mean ${near}?)` : ''}: see jcp-conformance --help`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof CliError) {
      process.stderr.write(`jcp-conformance: ${e.message}\n`);
      process.exit(e.exit);
    }
    // anything else is a bug of the suite: its stack helps whoever reports it
    process.stderr.write(`jcp-conformance: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(2);
  },
);
