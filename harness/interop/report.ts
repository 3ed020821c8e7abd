// N×N interop: the report of a run, for the terminal and as markdown. Per class a producer × consumer
// matrix (rows produce, columns consume: agree / DIFFER / n/a), then for each DIFFER cell the first differing case —
// its name, what the reference and the other side said, and the hex of the object, truncated. "bytes" marks a
// producer whose objects differ from the reference's for the same inputs; "consumed" a consumer that read some
// producer's bytes differently from the reference.
import type { Cell, ClassMatrix, InteropReport } from './run.ts';

const HEX_KEEP = 96;

/** `s` cut to `n` characters, with the full length said. */
export function truncate(s: string, n = HEX_KEEP): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;
}

const said = (v: unknown): string => truncate(JSON.stringify(v) ?? 'undefined', 160);

/** The text of one cell in the matrix. */
export function cellText(c: Cell): string {
  if (c.status !== 'DIFFER') return c.status;
  if (c.failed) return 'DIFFER (no handshake)';
  const kinds = [c.produced === 'differ' ? 'bytes' : '', c.consumed === 'differ' ? 'consumed' : ''].filter(Boolean);
  return `DIFFER (${kinds.join('+')})`;
}

/**
 * Lines describing a DIFFER cell: the first produced difference and the first case consumed differently. A producer's
 * byte difference is the same in every cell of its row: `seen` collects the producers already described.
 */
export function differenceLines(c: Cell, seen: Set<string> = new Set()): string[] {
  const out: string[] = [`${c.producer} → ${c.consumer}:`];
  if (c.failed) out.push(`  ${c.failed}`);
  if (c.firstProduced && seen.has(c.producer)) out.push(`  produced bytes differ (as above)`);
  else if (c.firstProduced) {
    seen.add(c.producer);
    const d = c.firstProduced;
    if (d.at_byte === undefined) {
      out.push(`  produced bytes differ, first at ${d.object}:`, `    ${c.producer} made: ${truncate(d.producer)}`, `    reference made: ${truncate(d.reference)}`);
    } else {
      // both are hex: show each from a little before the first differing byte
      const from = Math.max(0, d.at_byte - 8);
      const around = (h: string) => {
        const rest = h.slice(4 + 2 * from); // past the 'hex:' prefix
        return `${from ? '…' : ''}${rest.slice(0, HEX_KEEP)}${rest.length > HEX_KEEP ? '…' : ''} (${(h.length - 4) / 2} bytes)`;
      };
      const w = Math.max(c.producer.length, 'reference'.length);
      out.push(`  produced bytes differ, first at ${d.object}, byte ${d.at_byte}:`, `    ${pad(c.producer, w)} made: ${around(d.producer)}`, `    ${pad('reference', w)} made: ${around(d.reference)}`);
    }
  }
  if (c.firstConsumed) {
    const v = c.firstConsumed;
    out.push(`  consumed differently (${c.counts.differ} of ${c.counts.agree + c.counts.differ + c.counts.na} cases), first: "${v.name}"`);
    if (v.step) out.push(`    at step ${v.step}: reference said ${said(v.reference)}; ${c.consumer} said ${said(v.consumer)}`);
    if (v.note) out.push(`    ${v.note}`);
    if (v.object) out.push(`    object ${v.object.name}: ${truncate(v.object.hex)}`);
  }
  return out;
}

function pad(s: string, n: number): string {
  return s + ' '.repeat(Math.max(0, n - s.length));
}

/** One class's matrix for the terminal, with its differences beneath. */
export function classText(m: ClassMatrix, labels: readonly string[]): string {
  const head = 'producer \\ consumer';
  const width = Math.max(head.length, ...labels.map((l) => l.length)) + 2;
  const colw = Math.max(20, ...m.cells.map((c) => cellText(c).length + 2), ...labels.map((l) => l.length + 2));
  const rows = [`${m.cls} — ${m.title}`, pad(head, width) + labels.map((l) => pad(l, colw)).join('')];
  for (const p of labels) rows.push(pad(p, width) + labels.map((c) => pad(cellText(m.cells.find((x) => x.producer === p && x.consumer === c)!), colw)).join(''));
  const seen = new Set<string>();
  for (const c of m.cells.filter((x) => x.status === 'DIFFER')) rows.push(...differenceLines(c, seen).map((l) => `  ${l}`));
  return rows.join('\n');
}

/** The whole report for the terminal. */
export function terminalReport(r: InteropReport): string {
  const labels = r.participants.map((p) => p.label);
  const legend = r.participants.map((p) => `  ${p.label}: ${p.description}${p.info ? ` (${p.info.name} ${p.info.version})` : ''}${p.handshake ? ` — handshake failed: ${p.handshake}` : ''}`);
  const n = r.classes.reduce((k, m) => k + m.cells.filter((c) => c.status === 'DIFFER').length, 0);
  return [
    'jcp-conformance interop: rows produce, columns consume; judged against the in-process reference',
    ...legend,
    '',
    ...r.classes.map((m) => `${classText(m, labels)}\n`),
    r.agree ? (r.classes.length === 1 ? 'the one class agrees' : `all ${r.classes.length} classes agree`) : `${n} cell(s) DIFFER`,
  ].join('\n');
}

/** The whole report as markdown. */
export function markdownReport(r: InteropReport): string {
  const labels = r.participants.map((p) => p.label);
  const out = ['# JCP interop', '', 'Rows produce, columns consume; every cell is judged against the in-process reference (same inputs, same bytes).', ''];
  for (const p of r.participants) out.push(`- **${p.label}**: \`${p.description}\`${p.info ? ` — ${p.info.name} ${p.info.version}` : ''}${p.handshake ? ` — handshake failed: ${p.handshake}` : ''}`);
  out.push('', r.agree ? '**All agree.**' : '**Some cells DIFFER.**', '');
  for (const m of r.classes) {
    out.push(`## ${m.cls} — ${m.title}`, '', `| producer \\ consumer | ${labels.join(' | ')} |`, `| --- | ${labels.map(() => '---').join(' | ')} |`);
    for (const p of labels) out.push(`| ${p} | ${labels.map((c) => cellText(m.cells.find((x) => x.producer === p && x.consumer === c)!)).join(' | ')} |`);
    const differ = m.cells.filter((x) => x.status === 'DIFFER');
    if (differ.length) {
      out.push('');
      const seen = new Set<string>();
      for (const c of differ) out.push('```', ...differenceLines(c, seen), '```');
    }
    out.push('');
  }
  return out.join('\n');
}
