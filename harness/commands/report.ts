// `jcp-conformance report --html <report-dir>`: renders the Allure results certify wrote (<report-dir>/allure-results,
// harness/report/allure.ts) into <report-dir>/allure-report/index.html, one self-contained file (the awesome plugin's
// single-file mode) that opens from file:// as it is. It runs Allure's own engine (@allurereport/core, the one the
// `allure` command line runs) in this process: nothing is fetched, no server is started, and the page it writes loads nothing from outside itself.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError, fsCode } from './errors.ts';
import { RECORD_FILE } from './files.ts';
import { has, type Parsed } from './options.ts';

/** The folder, inside the report folder, the HTML report is written to. */
export const HTML_REPORT_DIR = 'allure-report';

/** Checks that `dir` is a folder holding allure-results/ with at least one result; returns that results folder. */
export function allureResultsOf(dir: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    const code = fsCode(e);
    throw new CliError('bad-report-path', `${dir}: ${code === 'ENOENT' || code === 'ENOTDIR' ? 'no such folder' : (code ?? String(e))}`);
  }
  if (!isDir) throw new CliError('bad-report-path', `${dir} is a file, not a report folder`);
  const results = join(dir, 'allure-results');
  if (!existsSync(results) || !statSync(results).isDirectory()) throw new CliError('bad-report-path', `${dir} has no allure-results folder: certify writes one into its --report folder`);
  if (!readdirSync(results).some((f) => f.endsWith('-result.json'))) throw new CliError('bad-report-path', `${results} holds no test result: certify writes one per test`);
  return results;
}

/** The report's title: the testee the record names, when the record is there. */
function reportName(dir: string): string {
  const path = join(dir, RECORD_FILE);
  try {
    const h = JSON.parse(readFileSync(path, 'utf8').split('\n', 1)[0] ?? '') as { type?: string; testee?: { name?: string; version?: string } };
    if (h.type === 'header' && h.testee?.name) return `JCP conformance: ${h.testee.name} ${h.testee.version ?? ''}`.trim();
  } catch {
    // no record, or not one: the plain title
  }
  return 'JCP conformance';
}

/**
 * The page without the analytics tags the awesome plugin always adds (a script fetched from googletagmanager.com,
 * and the inline script configuring it): a report opened from file:// reaches nothing outside the file.
 */
export function withoutAnalytics(html: string): string {
  return html.replace(/\s*<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>[^<]*?gtag\('config'[^<]*?<\/script>/, '');
}

/**
 * Renders `<dir>/allure-results` into `<dir>/allure-report/index.html` (replacing what an earlier render left there)
 * and returns that file's path. Classes sort by name (their suites are zero-padded: harness/report/allure.ts suiteOf).
 */
export async function renderAllureHtml(dir: string): Promise<string> {
  const results = allureResultsOf(dir);
  const output = join(dir, HTML_REPORT_DIR);
  rmSync(output, { recursive: true, force: true });
  const [{ AllureReport, resolveConfig }, { default: AwesomePlugin }] = await Promise.all([import('@allurereport/core'), import('@allurereport/plugin-awesome')]);
  // no plugin from the configuration (an empty override): only the awesome plugin below, so nothing else is loaded
  const config = await resolveConfig({ name: reportName(dir) }, { plugins: {}, output, cwd: dir });
  const options = { singleFile: true, groupBy: ['parentSuite', 'suite', 'subSuite'], defaultSortBy: 'name,asc' };
  config.plugins = [{ id: 'awesome', enabled: true, options, plugin: new AwesomePlugin(options) }];
  const report = new AllureReport(config);
  await report.start();
  await report.readDirectory(results);
  await report.done();
  const index = join(output, 'index.html');
  if (!existsSync(index)) throw new Error(`Allure wrote no ${index}`);
  writeFileSync(index, withoutAnalytics(readFileSync(index, 'utf8')));
  return index;
}

/** `report --html <report-dir>`: 0 rendered; a CliError (exit 2) for a missing --html or a folder without results. */
export async function reportCommand(a: Parsed): Promise<number> {
  const dir = resolve(a.positionals[0]!);
  if (!has(a, 'html')) throw new CliError('missing-argument', 'report needs --html, the view it renders: jcp-conformance report --html <report-dir>');
  const index = await renderAllureHtml(dir);
  console.log(`Allure report: ${index} (one file: open it from file:// as it is)`);
  return 0;
}
