import { inspect, isDeepStrictEqual } from 'node:util';
import type { Decider } from '../decider.js';
import { evolveAll } from '../decider.js';

/** A command without its `at`, for test data that gives the time apart: `{ ...command, at }` completes it. */
export type Untimed<Command> = Command extends unknown ? Omit<Command, 'at'> : never;

/** A failed expectation of {@link given}; the test framework reports it like any thrown error. */
export class DeciderSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeciderSpecError';
  }
}

/** What `thenState` compares: the listed fields of an object state, or the whole state otherwise. */
export type StateExpectation<State> = State extends object ? Partial<State> : State;

/** What `thenThrows` accepts: an error class, a message fragment or pattern, or a predicate. */
export type ErrorExpectation = (abstract new (...args: never[]) => Error) | string | RegExp | ((error: unknown) => boolean);

/** The outcome checks of {@link given}`(…).when(command)`. */
export interface DeciderSpecWhen<State, Event> {
  /** The command causes exactly `expected` (`[]`: allowed, changes nothing); returns the state after them. */
  then(expected: readonly Event[]): State;
  /** The command is refused with a matching error; returns it. */
  thenThrows(expected?: ErrorExpectation): Error;
  /** The state after the command's events has the `expected` fields (or equals it); returns that state. */
  thenState(expected: StateExpectation<State>): State;
}

/** A state machine in a known state, waiting for its command. */
export interface DeciderSpecGiven<State, Command, Event> {
  when(command: Command): DeciderSpecWhen<State, Event>;
}

const show = (value: unknown) => inspect(value, { depth: 6, breakLength: 120 });

/**
 * Given/when/then for a {@link Decider}, with no test framework behind it: a failed expectation
 * throws a {@link DeciderSpecError}.
 *
 * @example
 * given(campaignDecider, campaignFixture({ status: 'processando' }))
 *   .when({ type: 'pause', at })
 *   .then([{ type: 'paused', at }]);
 */
export function given<State, Command, Event>(decider: Decider<State, Command, Event>, state: NoInfer<State>): DeciderSpecGiven<State, Command, Event> {
  return {
    when(command) {
      const run = (): { events: Event[] } | { error: unknown } => {
        try {
          return { events: decider.decide(command, state) };
        } catch (error) {
          return { error };
        }
      };
      const eventsOrFail = (): Event[] => {
        const outcome = run();
        if ('error' in outcome) throw new DeciderSpecError(`Expected ${show(command)} to be accepted, but it threw ${show(outcome.error)}`);
        return outcome.events;
      };
      return {
        then(expected) {
          const events = eventsOrFail();
          if (!isDeepStrictEqual(events, [...expected])) {
            throw new DeciderSpecError(`Expected ${show(command)} to cause\n${show(expected)}\nbut it caused\n${show(events)}`);
          }
          return evolveAll(decider, state, events);
        },
        thenThrows(expected) {
          const outcome = run();
          if (!('error' in outcome)) {
            throw new DeciderSpecError(`Expected ${show(command)} to be refused, but it caused ${show(outcome.events)}`);
          }
          const error = outcome.error;
          if (!(error instanceof Error)) throw new DeciderSpecError(`Expected an Error, but ${show(error)} was thrown`);
          if (expected !== undefined && !matches(error, expected)) {
            throw new DeciderSpecError(`Expected ${show(command)} to throw ${show(expected)}, but it threw ${show(error)}`);
          }
          return error;
        },
        thenState(expected) {
          const after = evolveAll(decider, state, eventsOrFail());
          const ok =
            expected !== null && typeof expected === 'object' && after !== null && typeof after === 'object' && !(expected instanceof Date)
              ? Object.entries(expected).every(([key, value]) => isDeepStrictEqual((after as Record<string, unknown>)[key], value))
              : isDeepStrictEqual(after, expected);
          if (!ok) throw new DeciderSpecError(`Expected the state after ${show(command)} to match\n${show(expected)}\nbut it is\n${show(after)}`);
          return after;
        },
      };
    },
  };
}

function matches(error: Error, expected: ErrorExpectation): boolean {
  if (typeof expected === 'string') return error.message.includes(expected);
  if (expected instanceof RegExp) return expected.test(error.message);
  if (expected.prototype instanceof Error || expected === Error) return error instanceof (expected as abstract new (...args: never[]) => Error);
  return (expected as (error: unknown) => boolean)(error);
}
