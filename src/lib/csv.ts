/**
 * CSV (RFC 4180) for the exports (transactions, the audit log, the request log): a header line, then
 * one line per row, CRLF line ends. A cell starting with = + - @ that came as text is prefixed with a
 * ' so that spreadsheets show it as text instead of running it as a formula.
 *
 * @example
 * toCsv(['id', 'name'], [[1, 'acme'], [2, '=SUM(A1)']]); // 'id,name\r\n1,acme\r\n2,\'=SUM(A1)\r\n'
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  // a plain negative amount ("-5.00") is a number to a spreadsheet, never a formula
  if (/^[=+\-@]/.test(text) && typeof value !== 'number' && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(head: string[], rows: unknown[][]): string {
  return `${[head.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\r\n')}\r\n`;
}
