/**
 * Brazilian holidays (national, plus a state's when `uf` is given) of a year, as local dates
 * `YYYY-MM-DD`. The adapter reads `getHolidays` of @brazilian-utils/brazilian-utils.
 */
export interface HolidayCalendar {
  holidays(year: number, uf: string | null): ReadonlySet<string>;
}
export const HolidayCalendar = Symbol.for('carteiro.HolidayCalendar');
