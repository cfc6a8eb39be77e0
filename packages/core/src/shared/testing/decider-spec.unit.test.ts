import { describe, expect, it } from '@jest/globals';
import type { Decider } from '../decider.js';
import { DomainError, InvalidTransitionError } from '../errors.js';
import { DeciderSpecError, given } from './decider-spec.js';

/** A toy machine: a counter that refuses to go below zero and ignores adding nothing. */
type Command = { type: 'add'; by: number };
type Event = { type: 'added'; by: number };
const counter: Decider<{ value: number; label: string }, Command, Event> = {
  decide: (command, state) => {
    if (state.value + command.by < 0) throw new InvalidTransitionError('counter', String(state.value), 'subtract from', []);
    return command.by === 0 ? [] : [{ type: 'added', by: command.by }];
  },
  evolve: (state, event) => ({ ...state, value: state.value + event.by }),
};
const start = { value: 1, label: 'c' };

describe('given/when/then for deciders', () => {
  it('passes matching expectations and answers the state after the events', () => {
    expect(given(counter, start).when({ type: 'add', by: 2 }).then([{ type: 'added', by: 2 }])).toEqual({ value: 3, label: 'c' });
    expect(given(counter, start).when({ type: 'add', by: 0 }).then([])).toBe(start);
    expect(given(counter, start).when({ type: 'add', by: 2 }).thenState({ value: 3 })).toEqual({ value: 3, label: 'c' });
    expect(given(counter, start).when({ type: 'add', by: -2 }).thenThrows(InvalidTransitionError)).toBeInstanceOf(InvalidTransitionError);
  });

  it('fails with a DeciderSpecError when the events, the state or the refusal differ', () => {
    expect(() => given(counter, start).when({ type: 'add', by: 2 }).then([{ type: 'added', by: 3 }])).toThrow(DeciderSpecError);
    expect(() => given(counter, start).when({ type: 'add', by: 2 }).then([])).toThrow(/to cause/);
    expect(() => given(counter, start).when({ type: 'add', by: 2 }).thenState({ value: 4 })).toThrow(/to match/);
    expect(() => given(counter, start).when({ type: 'add', by: -2 }).then([])).toThrow(/to be accepted/);
    expect(() => given(counter, start).when({ type: 'add', by: 1 }).thenThrows()).toThrow(/to be refused/);
  });

  it('matches refusals by class, message fragment, pattern or predicate', () => {
    const refused = given(counter, start).when({ type: 'add', by: -5 });
    refused.thenThrows(DomainError);
    refused.thenThrows('Cannot subtract from a counter');
    refused.thenThrows(/status 1$/);
    refused.thenThrows((error) => (error as DomainError).code === 'INVALID_TRANSITION');
    expect(() => refused.thenThrows(TypeError)).toThrow(DeciderSpecError);
    expect(() => refused.thenThrows('something else')).toThrow(DeciderSpecError);
    expect(() => refused.thenThrows(() => false)).toThrow(DeciderSpecError);
  });

  it('compares Dates by value and a null state as a whole', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const stamp: Decider<Date | null, { type: 'stamp'; at: Date }, { type: 'stamped'; at: Date }> = {
      decide: (command) => [{ type: 'stamped', at: command.at }],
      evolve: (_state, event) => event.at,
    };
    given(stamp, null).when({ type: 'stamp', at }).thenState(new Date(at.getTime()));
    expect(() => given(stamp, null).when({ type: 'stamp', at }).thenState(null)).toThrow(DeciderSpecError);
    expect(() => given(stamp, null).when({ type: 'stamp', at }).thenState(new Date(0))).toThrow(DeciderSpecError);
  });
});
