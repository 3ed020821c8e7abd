// The conformance badge: an SVG "JCP conformance | <passing>/<claimed> classes", derived from the class rows alone,
// coloured by the result — green when every claimed class passes, red when one fails, amber otherwise (partial, not
// applicable, needing an endpoint), grey when no class is claimed.
import { escapeHtml } from './page.ts';
import type { ClassRow } from './record.ts';

/** The badge's file name in the report folder. */
export const BADGE_FILE = 'badge.svg';

export const BADGE_COLOURS = { pass: '#2e8540', fail: '#cf222e', partial: '#bf8700', none: '#6e7781' } as const;

/** What the badge says: classes passing of those claimed (among the run's rows), and its colour. */
export function badgeResult(rows: readonly ClassRow[], complete = true): { passing: number; claimed: number; colour: string; text: string } {
  const claimed = rows.filter((r) => r.claimed);
  const passing = claimed.filter((r) => r.verdict === 'PASS').length;
  const colour =
    claimed.length === 0 ? BADGE_COLOURS.none : claimed.some((r) => r.verdict === 'FAIL') || !complete ? BADGE_COLOURS.fail : passing === claimed.length ? BADGE_COLOURS.pass : BADGE_COLOURS.partial;
  const text = claimed.length === 0 ? 'no class claimed' : `${passing}/${claimed.length} classes${complete ? '' : ', incomplete'}`;
  return { passing, claimed: claimed.length, colour, text };
}

/** Width in pixels of `s` in 11px Verdana, near enough for a badge (wide and narrow glyphs apart). */
function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += /[il.,:;|!'\s]/.test(ch) ? 3.5 : /[mwMW]/.test(ch) ? 10 : /[A-Z0-9/]/.test(ch) ? 7.5 : 6.5;
  return Math.ceil(w);
}

/** The badge for a run's class rows. */
export function badgeSvg(rows: readonly ClassRow[], complete = true): string {
  const { colour, text } = badgeResult(rows, complete);
  const label = 'JCP conformance';
  const lw = textWidth(label) + 12;
  const vw = textWidth(text) + 12;
  const w = lw + vw;
  const title = `${label}: ${text}`;
  const t = (s: string, x: number) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3">${escapeHtml(s)}</text><text x="${x}" y="14">${escapeHtml(s)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/><rect width="${w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">${t(label, lw / 2)}${t(text, lw + vw / 2)}</g>
</svg>
`;
}
