// Unit tests of impl/jcp/content-id.ts's isContentId (jcp §3: a content id is lowercase hex on the wire): the form is
// exactly 64 lowercase hex digits, and the memo of strings already seen never admits one that fails the form.
import { describe, expect, it } from 'vitest';
import { contentId, isContentId } from './content-id.ts';

describe('isContentId', () => {
  it('accepts exactly 64 lowercase hex digits, before and after the id has been seen', () => {
    const id = contentId({ x: 1 });
    for (let k = 0; k < 2; k++) {
      expect(isContentId(id)).toBe(true);
      expect(isContentId(id.toUpperCase())).toBe(false);
      expect(isContentId(id.slice(1))).toBe(false);
      expect(isContentId(id + '0')).toBe(false);
      expect(isContentId(id + '\n')).toBe(false);
      expect(isContentId(id.slice(0, 63) + 'g')).toBe(false);
      expect(isContentId(' ' + id.slice(1))).toBe(false);
      expect(isContentId(undefined)).toBe(false);
      expect(isContentId(Buffer.from(id))).toBe(false);
    }
  });

  it('still judges by the form after the memo has filled and been cleared', () => {
    for (let i = 0; i < 5000; i++) expect(isContentId(i.toString(16).padStart(64, '0'))).toBe(true);
    expect(isContentId('0'.repeat(63) + 'G')).toBe(false);
    expect(isContentId('0'.repeat(64))).toBe(true);
  });
});
