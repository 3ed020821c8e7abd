// Every verb's options, declared once as data (STYLE.md, "From clig.dev and well-kept Node CLIs"): the same table
// drives parsing (node:util parseArgs, then a strict check of every token) and each verb's --help.
import { parseArgs } from 'node:util';
import { CliError } from './errors.ts';

/** One option of a verb. */
export interface OptionSpec {
  /** Long name without the dashes: `classes` is `--classes`. */
  readonly name: string;
  /** The value's name in the help (`<ms>`); absent for a switch. */
  readonly value?: string;
  /** The value may be left out (`--transcript [<dir>]`): then it is the next argument when that is no option. */
  readonly optionalValue?: boolean;
  /** May be given more than once (kept in order); otherwise a second one is refused. */
  readonly repeatable?: boolean;
  /** The value is a whole number: any, at least 1, or at least 0. */
  readonly number?: 'integer' | 'positive' | 'non-negative';
  readonly description: string;
}

/** One verb: its positional arguments, its options, and what its help adds. */
export interface VerbSpec {
  readonly name: string;
  readonly summary: string;
  /** Names of the positional arguments, all required (`<certificate>`). */
  readonly positionals: readonly string[];
  /** The last positional argument may be given more than once (`<report-dir>…`: one or more). */
  readonly variadic?: boolean;
  readonly options: readonly OptionSpec[];
  /** Lines printed after the options. */
  readonly notes?: readonly string[];
}

/** The exit codes every verb ends with (STYLE.md). */
export const EXIT_CODES: readonly string[] = [
  'Exit codes:',
  '  0  every result as expected',
  '  1  unexpected results (or a run that did not complete: no certificate)',
  '  2  usage or input error (nothing was run)',
  '  3  refused input: a certificate or transcript that does not verify',
];

const TESTEE: OptionSpec = { name: 'testee', value: '<command>', description: 'the implementation under test: a program speaking the adapter protocol (harness/PROTOCOL.md) on stdin/stdout' };
const TIMEOUT: OptionSpec = { name: 'timeout', value: '<ms>', number: 'positive', description: "milliseconds to wait for each of the testee's answers" };
const SIGNER: OptionSpec = { name: 'signer', value: '<did:key>', description: 'refuse a certificate not signed by this key' };
const REPORT = (dflt: string): OptionSpec => ({ name: 'report', value: '<dir>', description: `the folder the reports are written to (default ${dflt})` });
const CLASSES = (eg: string): OptionSpec => ({ name: 'classes', value: '<list>', description: `comma-separated class ids to run, e.g. ${eg} (a bare C<n> is jcp:C<n>; default all)` });

/** The verbs, in the order the overall usage lists them. */
export const VERBS: readonly VerbSpec[] = [
  {
    name: 'certify',
    summary: 'certify an implementation clause by clause and class by class, and sign what ran',
    positionals: [],
    options: [
      { ...TESTEE, description: `${TESTEE.description} (default: the in-process reference)` },
      { name: 'endpoint', value: '<url>', description: 'a live jcp/1 enforcement endpoint instead (tcp://host:port or unix:/path); only the wire tests run' },
      CLASSES('C1,C3 or sense:C2'),
      { name: 'expectations', value: '<file>', description: 'the expectation file: the tests known not to pass, and why' },
      { name: 'update-expectations', description: 'write the expectation file that would make this run pass (to --expectations or <report>/expectations.json)' },
      { name: 'seed', value: '<n>', number: 'integer', description: 'the seed of every generated case (default 4866896)' },
      TIMEOUT,
      REPORT('reports/certify'),
      { name: 'transcript', value: '<dir>', optionalValue: true, description: 'record every exchange, hash-chained, into a new or empty folder (default <report>/transcript); the certificate binds its root' },
      { name: 'property-runs', value: '<n>', number: 'positive', description: 'differential sequences per property (default 60)' },
      { name: 'deep', description: 'run 1000 differential sequences per property' },
      { name: 'verbose', description: "show the test runner's own output as it runs (it is always kept in <report>/runner.log)" },
      { name: 'now', value: '<s>', number: 'non-negative', description: "the certificate's issue time, seconds since the epoch (default: now)" },
      { name: 'shard', value: '<k/n>', description: 'run the k-th of n shards of the test files (same seed and testee in every shard); no verdicts and no certificate: merge the n report folders for those' },
      { name: 'endpoint-steward', value: '<did:key>', description: "with --endpoint (required): the key sealing the endpoint's receipts" },
      { name: 'endpoint-window', value: '<s>', number: 'non-negative', description: "with --endpoint: the endpoint's freshness window in seconds" },
      { name: 'endpoint-cap', value: '<bytes>', number: 'non-negative', description: "with --endpoint: the endpoint's declared size cap" },
      { name: 'endpoint-issuer-seed', value: '<hex>', description: 'with --endpoint: the 32-byte seed (64 hex digits) of an issuer the endpoint honours' },
      { name: 'endpoint-claims', value: '<list>', description: 'with --endpoint: the classes the endpoint claims, e.g. C8,C13' },
      { name: 'endpoint-run', value: '<label>', description: "with --endpoint: a label keeping this run's grants apart from an earlier run's" },
      { name: 'endpoint-restart', value: '<command>', description: 'with --endpoint: a command that restarts the endpoint (without one the restart tests read "needs --endpoint-restart")' },
      { name: 'endpoint-second', value: '<command>', description: 'with --endpoint: a command that starts a second instance on the endpoint\'s record in the foreground, which must fail to start (without one the one-writer test reads "needs --endpoint-second")' },
    ],
    notes: [
      'Writes record.jsonl, junit.xml, summary.md, allure-results/ and certificate.cose into the report folder.',
      'jcp-conformance report --html <report-dir> renders allure-results/ into one HTML file.',
      'No certificate is written for a run that did not complete, ran no test, or ran no test of a requested class.',
      'The certificate is signed by the key whose seed is JCP_CERT_SEED_HEX (64 hex digits); without it, by the published',
      'development key, which anyone can sign with.',
      'With --shard k/n: the record and reports of this shard\'s tests alone (no class verdicts, no report.html, badge or',
      'certificate); jcp-conformance merge <the n report folders> gives the run\'s verdicts, reports and certificate.',
    ],
  },
  {
    name: 'merge',
    summary: 'join the report folders of certify --shard 1/n … n/n into one record, one set of reports and one certificate',
    positionals: ['<report-dir>'],
    variadic: true,
    options: [
      REPORT('reports/certify'),
      { name: 'expectations', value: '<file>', description: 'the expectation file the shards ran with (required when they ran with one: its digest must be theirs)' },
      { name: 'now', value: '<s>', number: 'non-negative', description: "the certificate's issue time, seconds since the epoch (default: now)" },
    ],
    notes: [
      'Refuses (exit 2) a set with a shard missing or given twice, and shards of different suites, protocols, seeds,',
      'testees (handshakes), expectation files, classes, vector packs or clause indexes. The verdicts, reports and',
      'certificate are made by the same code as an unsharded certify run\'s, over every shard\'s tests; so are the',
      'expectation file\'s whole-run checks (an entry matching no test, a claimed class without a verdict).',
    ],
  },
  {
    name: 'report',
    summary: "render a certify run's Allure results as one HTML file that opens from file://",
    positionals: ['<report-dir>'],
    options: [{ name: 'html', description: 'render <report-dir>/allure-results into <report-dir>/allure-report/index.html (required: the view it renders)' }],
    notes: ['<report-dir> is a folder certify wrote (its --report folder); an earlier allure-report/ there is replaced.'],
  },
  {
    name: 'validate',
    summary: 'check a testee\'s adapter before certifying: every operation reached, the core ones along real success and refusal paths',
    positionals: [],
    options: [{ ...TESTEE, description: `${TESTEE.description} (required)` }, TIMEOUT],
  },
  {
    name: 'verify-certificate',
    summary: "check a certificate's signature and print what it claims",
    positionals: ['<certificate>'],
    options: [SIGNER],
  },
  {
    name: 'replay',
    summary: 'replay a case a differential property found, against an implementation and the reference',
    positionals: ['<case.json>'],
    options: [
      { ...TESTEE, description: `${TESTEE.description} (default: the one the case was found against)` },
      { name: 'reference', description: 'replay against the in-process reference' },
      TIMEOUT,
    ],
  },
  {
    name: 'promote',
    summary: 'publish a found case as a vector (vectors/promoted/) and regenerate the packs',
    positionals: ['<case.json>'],
    options: [
      { name: 'name', value: '<case-name>', description: "the vector case's name (letters, digits and ^ . _ -)" },
      { name: 'comment', value: '<text>', description: "the vector case's comment" },
    ],
  },
  {
    name: 'reverify',
    summary: "re-judge every verdict of a certificate from its transcript alone, against the reference",
    positionals: ['<certificate>', '<transcript>'],
    options: [SIGNER],
  },
  {
    name: 'interop',
    summary: 'a producer × consumer matrix per class between implementations',
    positionals: [],
    options: [
      { ...TESTEE, repeatable: true, description: `a participant (repeat for more; "reference" is the in-process reference); ${TESTEE.description.replace('the implementation under test: ', '')}` },
      { name: 'reference', repeatable: true, description: 'the in-process reference as a participant, in the order given' },
      CLASSES('C1,C3'),
      REPORT('reports/interop'),
      TIMEOUT,
    ],
    notes: ['One participant is enough: it then produces for and consumes from itself.', 'Writes interop.json and interop.md into the report folder.'],
  },
  {
    name: 'reference-testee',
    summary: 'serve the reference implementation as a testee on stdin/stdout (harness/PROTOCOL.md), e.g. certify --testee \'npx jcp-conformance reference-testee\'',
    positionals: [],
    options: [],
    notes: ['It reads request frames from stdin and writes answers to stdout until stdin ends; it prints nothing else there.'],
  },
  { name: 'version', summary: "print the suite's version (also --version)", positionals: [], options: [] },
  { name: 'help', summary: 'print this usage, or a verb\'s help (help <verb>)', positionals: [], options: [] },
];

/** The spec of a verb, or undefined. */
export function verbSpec(name: string): VerbSpec | undefined {
  return VERBS.find((v) => v.name === name);
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/** The candidate nearest to `word`, when near enough to suggest (a prefix, or a few letters off). */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** A verb's command line, parsed and checked against its table. */
export interface Parsed {
  readonly verb: string;
  /** -h or --help was given: print the help, run nothing. */
  readonly help: boolean;
  readonly positionals: readonly string[];
  /** Every option given, in order (a switch has no value; --transcript may have none). */
  readonly given: ReadonlyArray<{ readonly name: string; readonly value?: string }>;
}

/** The value of a value-taking option (the last one given), or undefined. */
export function str(p: Parsed, name: string): string | undefined {
  for (let i = p.given.length - 1; i >= 0; i--) if (p.given[i]!.name === name) return p.given[i]!.value;
  return undefined;
}

/** Whether the option was given. */
export function has(p: Parsed, name: string): boolean {
  return p.given.some((g) => g.name === name);
}

/** The options as a map (a switch, or a value-less optional value, maps to true). */
export function flagMap(p: Parsed): Map<string, string | true> {
  return new Map(p.given.map((g) => [g.name, g.value ?? true]));
}

const NUMBER_RULE: Record<NonNullable<OptionSpec['number']>, { re: RegExp; words: string }> = {
  integer: { re: /^-?\d+$/, words: 'an integer' },
  positive: { re: /^[1-9]\d*$/, words: 'a positive integer' },
  'non-negative': { re: /^\d+$/, words: 'a non-negative integer' },
};

/**
 * Parses `argv` (the arguments after the verb) against the verb's table, strictly: an unknown option (naming the
 * nearest known one), a missing value, a value given to a switch, a repeated single option, a value that is not
 * the number it must be, a missing or extra positional argument are each a CliError (exit 2). -h/--help anywhere
 * before `--` wins over everything else, so a help request never runs anything.
 */
export function parseVerb(verb: string, argv: readonly string[]): Parsed {
  const spec = verbSpec(verb);
  if (!spec) throw new CliError('unknown-verb', `unknown verb ${verb}`);
  const options: Record<string, { type: 'string' | 'boolean'; multiple: true; short?: string }> = { help: { type: 'boolean', multiple: true, short: 'h' } };
  for (const o of spec.options) options[o.name] = { type: o.value !== undefined && !o.optionalValue ? 'string' : 'boolean', multiple: true };
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return { verb, help: true, positionals: [], given: [] };
  const given: Array<{ name: string; value?: string }> = [];
  const positionals: string[] = [];
  const consumed = new Set<number>();
  const known = spec.options.map((o) => o.name);
  for (const [i, t] of tokens.entries()) {
    if (t.kind === 'option-terminator') continue;
    if (t.kind === 'positional') {
      if (!consumed.has(i)) positionals.push(t.value);
      continue;
    }
    const o = spec.options.find((x) => x.name === t.name);
    if (!o || t.rawName !== `--${o.name}`) {
      const near = nearest(t.name, [...known, 'help']);
      throw new CliError('unknown-option', `unknown option ${t.rawName} ${near ? `(did you mean --${near}?)` : `(see jcp-conformance ${verb} --help)`}`);
    }
    if (!o.repeatable && given.some((g) => g.name === o.name)) throw new CliError('repeated-option', `--${o.name} given twice: give it once`);
    let value = t.value;
    if (o.value === undefined) {
      if (value !== undefined) throw new CliError('unexpected-value', `--${o.name} takes no value (got --${o.name}=${value})`);
      given.push({ name: o.name });
      continue;
    }
    if (o.optionalValue) {
      const next = tokens[i + 1];
      if (value === undefined && next?.kind === 'positional' && next.index === t.index + 1) {
        value = next.value;
        consumed.add(i + 1);
      }
    } else {
      if (value === undefined) throw new CliError('missing-value', `--${o.name} needs a value: --${o.name} ${o.value}`);
      // a value that looks like a long option was most likely a forgotten value; --x=--y says it is meant
      if (!t.inlineValue && value.startsWith('--')) throw new CliError('missing-value', `--${o.name} needs a value (got the option ${value}; write --${o.name}=${value} if that is the value)`);
    }
    if (value !== undefined && value === '') throw new CliError('missing-value', `--${o.name} needs a non-empty value: --${o.name} ${o.value}`);
    if (value !== undefined && o.number && !NUMBER_RULE[o.number].re.test(value)) {
      throw new CliError('bad-number', `--${o.name} must be ${NUMBER_RULE[o.number].words}, got ${JSON.stringify(value)}`);
    }
    if (value !== undefined && o.number && !Number.isSafeInteger(Number(value))) throw new CliError('bad-number', `--${o.name} ${value} is too large`);
    given.push(value !== undefined ? { name: o.name, value } : { name: o.name });
  }
  if (positionals.length < spec.positionals.length) {
    throw new CliError('missing-argument', `${verb} needs ${spec.positionals.slice(positionals.length).join(' ')}: jcp-conformance ${usageLine(spec)}`);
  }
  if (positionals.length > spec.positionals.length && !spec.variadic) {
    const extra = positionals.slice(spec.positionals.length);
    throw new CliError('extra-argument', `${verb} takes ${spec.positionals.length ? spec.positionals.join(' ') : 'no argument'} besides its options; unexpected ${extra.map((x) => JSON.stringify(x)).join(' ')}`);
  }
  return { verb, help: false, positionals, given };
}

function optionText(o: OptionSpec): string {
  if (o.value === undefined) return `--${o.name}`;
  return o.optionalValue ? `--${o.name} [${o.value}]` : `--${o.name} ${o.value}`;
}

function usageLine(v: VerbSpec): string {
  const pos = v.variadic ? [...v.positionals.slice(0, -1), `${v.positionals.at(-1)}…`] : v.positionals;
  return [v.name, ...pos, ...(v.options.length ? ['[options]'] : [])].join(' ');
}

/** A verb's help: usage, summary, positionals, the option table, notes, exit codes. */
export function verbHelp(name: string): string {
  const v = verbSpec(name);
  if (!v) throw new CliError('unknown-verb', `unknown verb ${name}`);
  const rows: Array<[string, string]> = v.options.map((o) => [optionText(o), `${o.description}${o.repeatable ? ' (repeatable)' : ''}`]);
  rows.push(['-h, --help', 'print this help and exit']);
  const w = Math.max(...rows.map(([l]) => l.length));
  return [
    `usage: jcp-conformance ${usageLine(v)}`,
    '',
    `${v.summary}.`,
    '',
    'Options:',
    ...rows.map(([l, d]) => `  ${l.padEnd(w)}  ${d}`),
    ...(v.notes?.length ? ['', ...v.notes] : []),
    '',
    ...EXIT_CODES,
    '',
  ].join('\n');
}

/** The overall usage: every verb with its summary, and the exit codes. */
export function overallHelp(): string {
  const w = Math.max(...VERBS.map((v) => v.name.length));
  return [
    'usage: jcp-conformance <verb> [arguments] [options]',
    '',
    'Conformance suite for the JCP family of protocols. Verbs:',
    ...VERBS.map((v) => `  ${v.name.padEnd(w)}  ${v.summary}`),
    '',
    'jcp-conformance <verb> --help prints a verb\'s options; --version prints the version.',
    '',
    ...EXIT_CODES,
    '',
  ].join('\n');
}
