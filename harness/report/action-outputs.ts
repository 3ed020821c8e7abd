// The GitHub Action's outputs (action.yml, README "GitHub Action"): what a certify run left in its report folder — the
// footer of record.jsonl and the per-class verdicts of the signed certificate — with certify's exit status, as the
// `name=value` lines a step appends to $GITHUB_OUTPUT. Run by the action as
// `node --import tsx harness/report/action-outputs.ts <report folder> <certify's exit status>`.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CERTIFICATE_FILE, RECORD_FILE } from '../commands/files.ts';
import { verifyCertificate } from './certificate.ts';
import type { Footer } from './record.ts';


/**
 * The run in one word. PASS: certify exited 0 and every class the testee claims that the run tested is PASS. PARTIAL:
 * certify exited 0 (every result as expected) but some claimed class is PARTIAL (known failures), NOT APPLICABLE or
 * NEEDS ENDPOINT, or the run tested no class the testee claims. FAIL: anything else — a non-zero exit, an unexpected
 * result, a claimed class that FAILs, or no certificate.
 */
export type ActionVerdict = 'PASS' | 'PARTIAL' | 'FAIL';

/** The action's outputs, each a one-line string as $GITHUB_OUTPUT carries them. */
export interface ActionOutputs {
  readonly verdict: ActionVerdict;
  /** Per tested class its verdict, as compact JSON (`{"jcp:C1":"PASS"}`; `{}` without a certificate), for fromJSON(). */
  readonly verdicts: string;
  /** The footer's count of unexpected results; empty when the run wrote no record (a usage error, exit 2). */
  readonly unexpected: string;
  /** The report folder, absolute. */
  readonly report: string;
  /** The signed certificate's absolute path; empty when the run issued none. */
  readonly certificate: string;
}

/** The footer (the record's last line), or undefined when there is no record or its last line is no footer. */
function readFooter(recordPath: string): Footer | undefined {
  if (!existsSync(recordPath)) return undefined;
  const last = readFileSync(recordPath, 'utf8').trimEnd().split('\n').pop();
  if (!last) return undefined;
  const line = JSON.parse(last) as Partial<Footer>;
  return line.type === 'footer' && typeof line.unexpected === 'number' ? (line as Footer) : undefined;
}

/** The outputs of a certify run that wrote into `reportDir` and exited with `exitStatus`. */
export function actionOutputs(reportDir: string, exitStatus: number): ActionOutputs {
  const report = resolve(reportDir);
  const footer = readFooter(join(report, RECORD_FILE));
  const certPath = join(report, CERTIFICATE_FILE);
  // the verdicts as a verifier of the certificate reads them, under whichever key signed it
  const verdicts = existsSync(certPath) ? verifyCertificate(new Uint8Array(readFileSync(certPath))).verdicts : undefined;
  const claimed = Object.values(verdicts ?? {}).filter((v) => v !== 'NOT CLAIMED');
  let verdict: ActionVerdict;
  if (exitStatus !== 0 || !footer || footer.unexpected !== 0 || !verdicts || claimed.includes('FAIL')) verdict = 'FAIL';
  else if (claimed.length > 0 && claimed.every((v) => v === 'PASS')) verdict = 'PASS';
  else verdict = 'PARTIAL';
  return {
    verdict,
    verdicts: JSON.stringify(verdicts ?? {}),
    unexpected: footer ? String(footer.unexpected) : '',
    report,
    certificate: verdicts ? certPath : '',
  };
}

/** The outputs as `name=value` lines for $GITHUB_OUTPUT (every value is one line, so no heredoc is needed). */
export function outputLines(o: ActionOutputs): string {
  return Object.entries(o)
    .map(([k, v]: [string, string]) => {
      if (/[\r\n]/.test(v)) throw new Error(`action output ${k} spans lines: ${JSON.stringify(v)}`);
      return `${k}=${v}\n`;
    })
    .join('');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, status] = process.argv.slice(2);
  if (dir === undefined || status === undefined || !/^\d+$/.test(status)) {
    console.error('usage: action-outputs.ts <report folder> <certify exit status>');
    process.exit(2);
  }
  process.stdout.write(outputLines(actionOutputs(dir, Number(status))));
}
