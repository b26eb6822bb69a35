/**
 * The calendar day `now` falls on in an IANA timezone (the user's `timezone`); UTC when it is unset or
 * unknown. A series' occurrences are due on the user's own today, not the server's.
 */
export function todayIn(timezone: string | null | undefined, now: Date = new Date()): string {
  if (timezone) {
    try {
      // en-CA formats as YYYY-MM-DD.
      return new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(now);
    } catch {
      // An unknown zone name falls back to UTC below.
    }
  }
  return now.toISOString().slice(0, 10);
}
