import type { ErrorDetail } from '../../../errors/error-codes.ts';

/**
 * The codes file of `airgift stock import`: CSV (RFC 4180: commas, fields in double quotes may hold
 * commas and doubled quotes), a header naming the columns `cardNumber`, `pinCode`, `faceValue` and
 * optionally `expiresAt`, in any order; then one code per line. Blank lines are skipped. Line numbers
 * count from 1, the header being line 1, so an error names the line an editor shows.
 *
 * @example
 * parseCodesFile('cardNumber,pinCode,faceValue\n6011000990139424,123456,25\n');
 * // { rows: [{ line: 2, cardNumber: '6011000990139424', pinCode: '123456', faceValue: '25', expiresAt: null }], problems: [] }
 */
export interface CodeRow {
  line: number;
  cardNumber: string;
  pinCode: string;
  faceValue: string;
  /** As written; checked by the stock service. */
  expiresAt: string | null;
}

const REQUIRED = ['cardNumber', 'pinCode', 'faceValue'] as const;
const OPTIONAL = ['expiresAt'] as const;

/** The fields of one CSV line; null when a quote is left open. */
function fieldsOf(text: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === ',') {
      fields.push(field.trim());
      field = '';
    } else field += c;
  }
  if (quoted) return null;
  fields.push(field.trim());
  return fields;
}

export function parseCodesFile(text: string): { rows: CodeRow[]; problems: ErrorDetail[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const problems: ErrorDetail[] = [];
  const header = fieldsOf(lines[0] ?? '') ?? [];
  const column = new Map(header.map((name, i) => [name, i]));
  const missing = REQUIRED.filter((name) => !column.has(name));
  const unknown = header.filter(
    (name) =>
      !(REQUIRED as readonly string[]).includes(name) && !(OPTIONAL as readonly string[]).includes(name),
  );
  if (missing.length > 0 || unknown.length > 0) {
    const issue = [
      missing.length > 0 && `missing column ${missing.join(', ')}`,
      unknown.length > 0 && `unknown column ${unknown.join(', ')}`,
    ]
      .filter(Boolean)
      .join('; ');
    return {
      rows: [],
      problems: [
        { field: 'line 1', issue: `${issue} (the header is cardNumber,pinCode,faceValue[,expiresAt])` },
      ],
    };
  }
  const rows: CodeRow[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = i + 2;
    if (raw.trim() === '') return;
    const fields = fieldsOf(raw);
    if (!fields) {
      problems.push({ field: `line ${line}`, issue: 'a quoted field is not closed' });
      return;
    }
    if (fields.length !== header.length) {
      problems.push({
        field: `line ${line}`,
        issue: `${fields.length} fields, the header has ${header.length}`,
      });
      return;
    }
    const at = (name: string) => {
      const index = column.get(name);
      return index === undefined ? '' : fields[index];
    };
    rows.push({
      line,
      cardNumber: at('cardNumber'),
      pinCode: at('pinCode'),
      faceValue: at('faceValue'),
      expiresAt: at('expiresAt') || null,
    });
  });
  return { rows, problems };
}
