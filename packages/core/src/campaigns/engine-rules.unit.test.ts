import { describe, expect, it } from '@jest/globals';
import { FixedRandom, SeededRandom } from '../shared/testing/deterministic.js';
import { ManualClock } from '../shared/testing/manual-clock.js';
import { parseAntiBanLevel } from './anti-ban.js';
import { assignSenders, redistribute } from './distribution.js';
import { pacingGapMs } from './pacing.js';
import { personalise, rotatedText, saudacao } from './personalisation.js';
import { isWithinSafeHours, nextSafeInstant, safeHourViolation } from './safe-hours.js';
import { warmingRemaining, warmingStageOf, warmingStatus } from './warming.js';

const SP = 'America/Sao_Paulo';

describe('anti_ban_level', () => {
  it.each([
    [undefined, 'seguro'],
    ['normal', 'normal'],
    ['muito_lento', 'muito_lento'],
    ['ultra_lento', 'ultra_lento'],
    ['moderate', 'normal'],
    ['aggressive', 'normal'],
    ['conservative', 'seguro'],
  ])('given %p, then the level is %p', (value, level) => {
    expect(parseAntiBanLevel(value)).toBe(level);
  });

  it.each([['muito_lentoa'], ['fast'], [3]])('given %p, then 400 VALIDATION_ERROR', (value) => {
    expect(() => parseAntiBanLevel(value)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});

describe('pacing', () => {
  it('given the lowest and highest draws, then the gap spans the level interval times PACING_SCALE', () => {
    expect(pacingGapMs('normal', new FixedRandom(0), 1)).toBe(5_000);
    expect(pacingGapMs('normal', new FixedRandom(0.999999), 1)).toBe(15_000);
    expect(pacingGapMs('normal', new FixedRandom(0), 0.01)).toBe(50);
    expect(pacingGapMs('ultra_lento', new FixedRandom(0.5), 0.01)).toBe(3_900);
    expect(pacingGapMs('seguro', new FixedRandom(0.3), 0)).toBe(0);
  });

  it('given many draws, then every gap stays inside the interval', () => {
    const random = new SeededRandom(7);
    for (let i = 0; i < 1_000; i += 1) {
      const gap = pacingGapMs('lento', random, 1);
      expect(gap).toBeGreaterThanOrEqual(45_000);
      expect(gap).toBeLessThanOrEqual(90_000);
    }
  });

  it('given a warming floor above the draw, then the floor wins (scaled too)', () => {
    expect(pacingGapMs('normal', new FixedRandom(0), 1, 30_000)).toBe(30_000);
    expect(pacingGapMs('normal', new FixedRandom(0), 0.01, 30_000)).toBe(300);
    expect(pacingGapMs('seguro', new FixedRandom(0.9), 1, 20_000)).toBe(38_000);
  });
});

describe('warming', () => {
  it('given usage history, then the stage climbs only when days and volume both qualify', () => {
    expect(warmingStageOf({ activeDays: 0, totalSent: 0 })).toMatchObject({ stage: 1, dailyLimit: 50 });
    expect(warmingStageOf({ activeDays: 1, totalSent: 5_000 })).toMatchObject({ stage: 1 });
    expect(warmingStageOf({ activeDays: 3, totalSent: 100 })).toMatchObject({ stage: 2, dailyLimit: 150 });
    expect(warmingStageOf({ activeDays: 8, totalSent: 600 })).toMatchObject({ stage: 3, dailyLimit: 300 });
    expect(warmingStageOf({ activeDays: 20, totalSent: 2_500 })).toMatchObject({ stage: 4, dailyLimit: 600 });
    expect(warmingStageOf({ activeDays: 45, totalSent: 20_000 })).toMatchObject({ stage: 5, dailyLimit: 1_000, minIntervalMs: 0 });
  });

  it('given an operator override, then it replaces the daily limit; null returns to the stage', () => {
    expect(warmingStatus({ warmingDailyLimitOverride: 20 }, { activeDays: 45, totalSent: 20_000 })).toMatchObject({ dailyLimit: 20, stage: 5, overridden: true });
    expect(warmingStatus({ warmingDailyLimitOverride: null }, { activeDays: 0, totalSent: 0 })).toMatchObject({ dailyLimit: 50, overridden: false });
    expect(warmingRemaining(warmingStatus({ warmingDailyLimitOverride: null }, { activeDays: 0, totalSent: 0 }), 60)).toBe(0);
  });
});

describe('safe hours (company time zone, Intl)', () => {
  const hours = { start: 8, end: 21 };

  it('given 07:59 and 21:00 in Brasília, then outside; 08:00 and 20:59 inside', () => {
    expect(isWithinSafeHours(new Date('2026-01-15T10:59:00Z'), hours, SP)).toBe(false);
    expect(isWithinSafeHours(new Date('2026-01-15T11:00:00Z'), hours, SP)).toBe(true);
    expect(isWithinSafeHours(new Date('2026-01-15T23:59:00Z'), hours, SP)).toBe(true);
    expect(isWithinSafeHours(new Date('2026-01-16T00:00:00Z'), hours, SP)).toBe(false);
  });

  it('given 22:30 Brasília, then SAFE_HOUR_VIOLATION carries every detail and a usable suggested_schedule_at', () => {
    const clock = new ManualClock('2026-01-16T01:30:00.000Z');
    const error = safeHourViolation(clock.now(), hours, SP);
    expect(error.code).toBe('SAFE_HOUR_VIOLATION');
    expect(error.details).toEqual({
      safe_hour_start: 8,
      safe_hour_end: 21,
      current_hour_brasilia: 22,
      current_minute_brasilia: 30,
      current_time_brasilia: '22:30',
      next_allowed_at: '2026-01-16T11:00:00.000Z',
      next_allowed_at_brasilia: '2026-01-16T08:00:00.000-03:00',
      suggested_schedule_at: '2026-01-16T11:00:00.000Z',
      retry_after_seconds: 34_200,
      docs_url: expect.stringContaining('safe-hours'),
    });
    expect(error.retryAfterSeconds).toBe(34_200);
    expect(isWithinSafeHours(new Date(error.details!.suggested_schedule_at as string), hours, SP)).toBe(true);
  });

  it('given 06:10 Brasília, then the next window opens the same day', () => {
    expect(nextSafeInstant(new Date('2026-01-15T09:10:00Z'), hours, SP).toISOString()).toBe('2026-01-15T11:00:00.000Z');
  });

  it('given another company zone, then its own wall clock decides', () => {
    expect(isWithinSafeHours(new Date('2026-01-15T10:30:00Z'), hours, 'Europe/Lisbon')).toBe(true);
    expect(nextSafeInstant(new Date('2026-01-15T22:00:00Z'), hours, 'Europe/Lisbon').toISOString()).toBe('2026-01-16T08:00:00.000Z');
  });
});

describe('personalisation', () => {
  const ctx = (now: string, name: string | null = 'Maria Silva', variables: Record<string, string> | null = null) => ({
    phone: '+5511999990001',
    name,
    variables,
    now: new Date(now),
    timeZone: SP,
  });

  it('fills every built-in placeholder in the company time zone', () => {
    const text = '{{saudacao}}, {{primeiro_nome}} ({{nome}}) {{telefone}} {{data}} {{hora}}';
    expect(personalise(text, ctx('2026-01-15T12:05:00Z'))).toBe('Bom dia, Maria (Maria Silva) +5511999990001 15/01/2026 09:05');
    expect(personalise('{{saudacao}}', ctx('2026-01-15T15:00:00Z'))).toBe('Boa tarde');
    expect(personalise('{{saudacao}}', ctx('2026-01-15T21:00:00Z'))).toBe('Boa noite');
    expect(saudacao(new Date('2026-01-16T02:59:00Z'), SP)).toBe('Boa noite');
  });

  it('given no name, then {{nome}} and {{primeiro_nome}} default to the phone', () => {
    expect(personalise('{{nome}}/{{primeiro_nome}}', ctx('2026-01-15T12:00:00Z', null))).toBe('+5511999990001/+5511999990001');
  });

  it('given per-recipient variables, then they fill their placeholders; unknown ones stay visible', () => {
    expect(personalise('Pedido {{ pedido }} {{x}}', ctx('2026-01-15T12:00:00Z', null, { pedido: '42' }))).toBe('Pedido 42 {{x}}');
  });

  it('rotates the base text and the variants per recipient', () => {
    expect([0, 1, 2, 3].map((i) => rotatedText('A', ['B', 'C'], i))).toEqual(['A', 'B', 'C', 'A']);
    expect(rotatedText(null, [], 3)).toBeNull();
  });
});

describe('distribution', () => {
  it('given interleaved, then recipients go round-robin over the pool', () => {
    expect(assignSenders(5, ['a', 'b'], 'interleaved')).toEqual(['a', 'b', 'a', 'b', 'a']);
  });

  it('given sequential, then each number is filled to its remaining capacity before the next', () => {
    expect(assignSenders(6, ['a', 'b', 'c'], 'sequential', new Map([['a', 2], ['b', 3], ['c', 50]]))).toEqual(['a', 'a', 'b', 'b', 'b', 'c']);
    expect(assignSenders(4, ['a', 'b'], 'sequential', new Map([['a', 100]]))).toEqual(['a', 'a', 'a', 'a']);
    expect(assignSenders(4, ['a', 'b'], 'sequential', new Map([['a', 1], ['b', 1]]))).toEqual(['a', 'b', 'b', 'b']);
  });

  it('given a banned number, then its pending messages go round-robin to the rest, or nowhere', () => {
    expect(redistribute(['m1', 'm2', 'm3'], ['b', 'c'])).toEqual(new Map([['b', ['m1', 'm3']], ['c', ['m2']]]));
    expect(redistribute(['m1'], [])).toBeNull();
  });
});
