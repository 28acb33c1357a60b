/**
 * The specs' wire formats for times. Every time on the wire is UTC.
 *
 * @example
 * formatDateTime(new Date('2026-11-22T07:01:46Z')) // '2026-11-22 07:01:46'
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(date: Date): string {
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

// Fields of one or two digits: Reloadly's Node SDK sends report dates unpadded ("2026-1-5 3:04:5").
const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/;

/**
 * Parses `yyyy-MM-dd HH:mm:ss` (or a bare `yyyy-MM-dd`, or fields without their leading zero) as
 * UTC; null when malformed or impossible (2026-02-30).
 */
export function parseDateTime(text: string): Date | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  const roundTrips =
    date.getUTCFullYear() === +y &&
    date.getUTCMonth() === +mo - 1 &&
    date.getUTCDate() === +d &&
    date.getUTCHours() === +h &&
    date.getUTCMinutes() === +mi &&
    date.getUTCSeconds() === +s;
  return roundTrips ? date : null;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The promotion date form: `Mon, 25 Jun 2018 06:00:00 +0000`. */
export function formatRfc2822(date: Date): string {
  return (
    `${DAYS[date.getUTCDay()]}, ${pad(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

/**
 * A `startDate`/`endDate` filter as a half-open range [from, to): each is `yyyy-MM-dd` or
 * `yyyy-MM-dd HH:mm:ss` (UTC, as `parseDateTime` reads); a bare end date takes in its whole day, an
 * end time its whole minute or second. Undefined for a bound not given; throws on text that is not a time.
 *
 * @example
 * timeRange('2026-11-01', '2026-11-30'); // { from: 2026-11-01T00:00Z, to: 2026-12-01T00:00Z }
 */
export function timeRange(startDate?: string, endDate?: string): { from?: Date; to?: Date } {
  const read = (field: string, text: string) => {
    const date = parseDateTime(text);
    if (!date) throw new RangeError(`${field}: expected yyyy-MM-dd or yyyy-MM-dd HH:mm:ss, got "${text}"`);
    return date;
  };
  const from = startDate ? read('startDate', startDate) : undefined;
  let to: Date | undefined;
  if (endDate) {
    const end = read('endDate', endDate);
    const fields = endDate.trim().split(/[ T:]/).length; // date, + hours and minutes, + seconds
    to = new Date(end.getTime() + (fields === 1 ? 86_400_000 : fields === 3 ? 60_000 : 1000));
  }
  return { from, to };
}
