// Unit tests of the jc_receipt schema-tag refusals (versioning.ts, jouleclaw §7): which field and which tag each names.
// The accepted forms are covered in receipt.test.ts.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { expectSchema, parseSchemaTag, receiptKindOf } from './versioning.ts';

describe('parseSchemaTag refusals (jouleclaw §7)', () => {
  it('names the jc_receipt field by default when the tag is not text', () => {
    const e = thrown(() => parseSchemaTag(1));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toContain(': jc_receipt must be a string schema tag');
  });

  it('names the field and the tag when the text is neither "<N>[.<minor>]" nor "<name>/<N>[.<minor>]"', () => {
    const e = thrown(() => parseSchemaTag('v1', 'jc_pack'));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toContain(': jc_pack "v1" is neither "<N>[.<minor>]" nor "<name>/<N>[.<minor>]"');
  });
});

describe('receiptKindOf refusals (jouleclaw §7: "Unknown major → reject")', () => {
  it('names the cascade receipt for an unknown bare major', () => {
    const e = thrown(() => receiptKindOf('2'));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': jc_receipt "2": major 2 of the cascade receipt is unknown (this implementation reads 1)');
  });

  it('names the quoted namespace for an unknown prefixed major', () => {
    const e = thrown(() => receiptKindOf('policy/2.1'));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': jc_receipt "policy/2.1": major 2 of "policy" is unknown (this implementation reads 1)');
  });
});

describe('expectSchema refusals (jouleclaw §7)', () => {
  it('names the jc_receipt field by default in a malformed tag', () => {
    expect(thrown(() => expectSchema('01', '', 1)).message).toContain(': jc_receipt "01" is neither');
  });

  it('names the bare tag it expected when a cascade receipt carries another', () => {
    const e = thrown(() => expectSchema('policy/1', '', 1));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': jc_receipt "policy/1" is not 1[.minor]');
  });

  it('names the prefixed tag it expected when another namespace is given', () => {
    const e = thrown(() => expectSchema('1', 'policy', 1));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': jc_receipt "1" is not policy/1[.minor]');
  });
});
