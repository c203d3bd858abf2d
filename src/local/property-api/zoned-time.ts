/** Civil dates and times in a property's IANA time zone, without a date library. */

export interface CivilDate { readonly year: number; readonly month: number; readonly day: number }

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatDate(d: CivilDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** The calendar date at `instant` in `timeZone`. */
export function civilDate(instant: Date, timeZone: string): CivilDate {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

export function addDays(d: CivilDate, days: number): CivilDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(d: CivilDate): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

/** The zone's UTC offset at `instant`, as "+HH:MM" / "-HH:MM". */
function offsetAt(instant: Date, timeZone: string): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? '+00:00' : name.slice(3);
}

function offsetMinutes(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h = '0', m = '0'] = offset.slice(1).split(':');
  return sign * (Number(h) * 60 + Number(m));
}

/** ISO 8601 with the zone's offset, e.g. "2025-06-02T10:00:00-05:00", for a local wall-clock time. */
export function zonedIso(d: CivilDate, minutesOfDay: number, timeZone: string): string {
  const wallAsUtc = Date.UTC(d.year, d.month - 1, d.day, 0, minutesOfDay);
  // The offset at the wall time read as UTC is close; re-read it at the corrected instant (DST).
  const first = offsetAt(new Date(wallAsUtc), timeZone);
  const offset = offsetAt(new Date(wallAsUtc - offsetMinutes(first) * 60_000), timeZone);
  const local = new Date(wallAsUtc);
  return `${formatDate(d)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:00${offset}`;
}
