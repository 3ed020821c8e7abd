// A stand-in for the GitHub Actions runner, enough to run this repository's composite action (action.yml) here: the
// metadata held to the keys of the runner's action schema (actions/runner src/Runner.Worker/action_yaml.json), each
// `if:` and `${{ }}` evaluated (action-expressions.ts), and the bash steps run the way the runner runs `shell: bash`
// (docs.github.com "Workflow syntax", jobs.<job_id>.steps[*].shell: `bash --noprofile --norc -eo pipefail {0}`), in
// GITHUB_WORKSPACE, with a fresh GITHUB_OUTPUT and GITHUB_STEP_SUMMARY per step, outputs read back as `name=value`
// lines. `uses:` steps are not run: their `with:` is evaluated and recorded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stepRuns, substitute, type Contexts } from './action-expressions.ts';
import type { YamlValue } from './yaml-subset.ts';

/** One step of a composite action, as action.yml declares it. */
export interface ActionStep {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly with?: Readonly<Record<string, string>>;
  readonly shell?: string;
  readonly run?: string;
  readonly env?: Readonly<Record<string, string>>;
}

/** A composite action's metadata, checked to hold only the keys the runner's action schema allows (action_yaml.json). */
export interface CompositeAction {
  readonly name: string;
  readonly description: string;
  readonly inputs: Readonly<Record<string, { readonly description: string; readonly required?: string; readonly default?: string }>>;
  readonly outputs: Readonly<Record<string, { readonly description: string; readonly value: string }>>;
  readonly steps: readonly ActionStep[];
}

const isMap = (v: YamlValue | undefined): v is { [k: string]: YamlValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(v: YamlValue | undefined, what: string): Record<string, string> {
  if (!isMap(v)) throw new Error(`${what} must be a mapping`);
  for (const [k, x] of Object.entries(v)) if (typeof x !== 'string') throw new Error(`${what}.${k} must be a string`);
  return v as Record<string, string>;
}

function onlyKeys(v: { [k: string]: YamlValue }, allowed: readonly string[], what: string): void {
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw new Error(`${what}: unknown key ${k} (allowed: ${allowed.join(', ')})`);
}

/** The action's metadata from its parsed YAML, refused where it strays from the composite-action schema. */
export function compositeAction(doc: YamlValue): CompositeAction {
  if (!isMap(doc)) throw new Error('action.yml must be a mapping');
  onlyKeys(doc, ['name', 'description', 'author', 'inputs', 'outputs', 'runs', 'branding'], 'action.yml');
  const inputs: Record<string, { description: string; required?: string; default?: string }> = {};
  for (const [k, v] of Object.entries(isMap(doc['inputs']) ? doc['inputs'] : {})) {
    if (!isMap(v)) throw new Error(`inputs.${k} must be a mapping`);
    onlyKeys(v, ['description', 'required', 'default', 'deprecationMessage'], `inputs.${k}`);
    inputs[k] = strings(v, `inputs.${k}`) as { description: string };
  }
  const outputs: Record<string, { description: string; value: string }> = {};
  for (const [k, v] of Object.entries(isMap(doc['outputs']) ? doc['outputs'] : {})) {
    if (!isMap(v)) throw new Error(`outputs.${k} must be a mapping`);
    onlyKeys(v, ['description', 'value'], `outputs.${k}`);
    outputs[k] = strings(v, `outputs.${k}`) as { description: string; value: string };
  }
  const runs = doc['runs'];
  if (!isMap(runs) || runs['using'] !== 'composite' || !Array.isArray(runs['steps'])) throw new Error('runs must be {using: composite, steps: [...]}');
  onlyKeys(runs, ['using', 'steps'], 'runs');
  const steps = runs['steps'].map((s, n): ActionStep => {
    if (!isMap(s)) throw new Error(`step ${n} must be a mapping`);
    const what = `step ${n}`;
    if ((s['uses'] === undefined) === (s['run'] === undefined)) throw new Error(`${what}: exactly one of uses and run`);
    onlyKeys(s, s['uses'] !== undefined ? ['name', 'id', 'if', 'uses', 'with', 'env', 'continue-on-error'] : ['name', 'id', 'if', 'run', 'shell', 'env', 'working-directory', 'continue-on-error'], what);
    for (const k of ['name', 'id', 'if', 'uses', 'shell', 'run'] as const) if (s[k] !== undefined && typeof s[k] !== 'string') throw new Error(`${what}.${k} must be a string`);
    return {
      ...(s as Omit<ActionStep, 'with' | 'env'>),
      ...(s['with'] !== undefined ? { with: strings(s['with'], `${what}.with`) } : {}),
      ...(s['env'] !== undefined ? { env: strings(s['env'], `${what}.env`) } : {}),
    };
  });
  if (typeof doc['name'] !== 'string' || typeof doc['description'] !== 'string') throw new Error('action.yml needs a name and a description');
  return { name: doc['name'], description: doc['description'], inputs, outputs, steps };
}

/** How one step went. */
export interface StepRecord {
  readonly step: ActionStep;
  /** ran: a bash step that ran; uses: an action step (not run, its `with:` evaluated); skipped-if: its `if:` was false; left-out: a bash step the caller chose not to run. */
  readonly status: 'ran' | 'uses' | 'skipped-if' | 'left-out';
  readonly exitCode?: number;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly outputs?: Readonly<Record<string, string>>;
  readonly with?: Readonly<Record<string, string>>;
}

/** The run: each step's record, the action's outputs, its exit status (the first failing step's), and its step summary. */
export interface ActionRun {
  readonly steps: readonly StepRecord[];
  readonly outputs: Readonly<Record<string, string>>;
  readonly exitCode: number;
  readonly summary: string;
}

/** What the runner would provide. */
export interface RunnerSetting {
  readonly inputs: Readonly<Record<string, string>>;
  /** GITHUB_ACTION_PATH: where the action is checked out. */
  readonly actionPath: string;
  /** GITHUB_WORKSPACE. */
  readonly workspace: string;
  readonly job: string;
  readonly jobIndex: number;
  readonly runAttempt: number;
  /** The environment the job runs in (PATH, HOME, …), before the runner's own variables. */
  readonly env: NodeJS.ProcessEnv;
  /** Bash steps not to run (their record says left-out). */
  readonly leaveOut?: (step: ActionStep) => boolean;
  readonly timeoutMs?: number;
}

/** The `name=value` lines a step wrote to GITHUB_OUTPUT (the heredoc form is not used by action.yml and is refused). */
function readOutputs(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const m = /^([A-Za-z0-9_-]+)=(.*)$/.exec(line);
    if (!m) throw new Error(`GITHUB_OUTPUT: a line that is not name=value: ${JSON.stringify(line)}`);
    out[m[1]!] = m[2]!;
  }
  return out;
}

/** Runs the action's steps as the runner would, bash steps for real. */
export function runAction(action: CompositeAction, s: RunnerSetting): ActionRun {
  const inputs: Record<string, string> = {};
  for (const [k, d] of Object.entries(action.inputs)) inputs[k] = s.inputs[k] ?? d.default ?? '';
  for (const k of Object.keys(s.inputs)) if (!Object.hasOwn(action.inputs, k)) throw new Error(`input ${k} is not declared in action.yml`);
  const tmp = mkdtempSync(join(s.workspace, '..', 'runner-'));
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const stepIds = new Set(action.steps.flatMap((x) => (x.id ? [x.id] : [])));
  const github = { job: s.job, run_attempt: String(s.runAttempt), workspace: s.workspace, action_path: s.actionPath };
  const records: StepRecord[] = [];
  let failed = false;
  let exitCode = 0;
  let summary = '';
  const ctx = (): Contexts => ({ inputs, steps, strategy: { 'job-index': s.jobIndex }, github, stepIds, failed });
  action.steps.forEach((step, n) => {
    if (!stepRuns(step.if, ctx())) return void records.push({ step, status: 'skipped-if' });
    if (step.uses !== undefined) {
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(v, ctx())]));
      return void records.push({ step, status: 'uses', with: w });
    }
    if (step.shell !== 'bash') throw new Error(`step ${n}: only shell: bash is run by the stand-in (found ${step.shell ?? 'none'})`);
    if (s.leaveOut?.(step)) return void records.push({ step, status: 'left-out' });
    const script = join(tmp, `step-${n}.sh`);
    const outputFile = join(tmp, `output-${n}`);
    const summaryFile = join(tmp, `summary-${n}`);
    writeFileSync(script, substitute(step.run!, ctx()));
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const env: NodeJS.ProcessEnv = {
      ...s.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: s.actionPath,
      GITHUB_WORKSPACE: s.workspace,
      GITHUB_JOB: s.job,
      GITHUB_RUN_ATTEMPT: String(s.runAttempt),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: tmp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx())])),
    };
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: s.workspace, env, encoding: 'utf8', timeout: s.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 });
    if (r.error) throw r.error;
    const outputs = readOutputs(outputFile);
    if (step.id) steps[step.id] = { outputs };
    summary += readFileSync(summaryFile, 'utf8');
    const code = r.status ?? 1;
    records.push({ step, status: 'ran', exitCode: code, stdout: r.stdout, stderr: r.stderr, outputs });
    if (code !== 0 && !failed) {
      failed = true;
      exitCode = code;
    }
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, ctx())]));
  return { steps: records, outputs, exitCode, summary };
}
