/**
 * The quoted column list of an INSERT or SELECT written from a row's keys (our own code's column
 * names, never a client's), each after `prefix` (a table's alias and its dot, say `r.`), made once
 * per list and prefix: the batch statements of orders and top-ups name the same columns every time.
 *
 * @example
 * quotedColumns(['id', 'status'], 'r.') // 'r."id", r."status"'
 */
const made = new Map<string, string>();

export function quotedColumns(columns: readonly string[], prefix = ''): string {
  const key = `${prefix}|${columns.join(',')}`;
  let list = made.get(key);
  if (list === undefined) {
    list = columns.map((c) => `${prefix}"${c.replace(/"/g, '""')}"`).join(', ');
    made.set(key, list);
  }
  return list;
}
