// The one function's entry, not the package's: its index is a 1.3 MB module (every Brazilian validator and
// table) that each API process would otherwise parse and keep in memory.
import { getHolidays } from '@brazilian-utils/brazilian-utils/get-holidays';
import type { HolidayCalendar } from '@carteiro/core';

const STATES = new Set(['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO']);

/**
 * National and state holidays from `getHolidays` of @brazilian-utils/brazilian-utils (optional
 * holidays — Carnaval, Corpus Christi — and religious days are left out: units open on them).
 */
export class BrazilianHolidayCalendar implements HolidayCalendar {
  private readonly cache = new Map<string, ReadonlySet<string>>();

  holidays(year: number, uf: string | null): ReadonlySet<string> {
    const state = uf && STATES.has(uf.toUpperCase()) ? uf.toUpperCase() : null;
    const key = `${year}|${state ?? ''}`;
    let found = this.cache.get(key);
    if (!found) {
      const list = year >= 1900 && year <= 2099 ? getHolidays(state ? { year, stateCode: state as never } : { year }) : [];
      // Dates come at local midnight of the process: read them with the local accessors.
      found = new Set(
        list
          .filter((h) => h.type === 'national' || h.type === 'state')
          .map((h) => `${h.date.getFullYear()}-${String(h.date.getMonth() + 1).padStart(2, '0')}-${String(h.date.getDate()).padStart(2, '0')}`),
      );
      this.cache.set(key, found);
    }
    return found;
  }
}
