import { describe, expect, it } from '@jest/globals';
import { Container, ContainerModule } from 'inversify';
import { bindSingleton } from './bind-singleton.js';

const Name = Symbol.for('test.Name');
const Count = Symbol.for('test.Count');

class Greeter {
  constructor(
    readonly name: string,
    readonly count: number,
    readonly suffix: string = '!',
  ) {}
}

describe('bindSingleton', () => {
  function containerWith(load: ConstructorParameters<typeof ContainerModule>[0]): Container {
    const container = new Container();
    container.bind(Name).toConstantValue('Ana');
    container.bind(Count).toConstantValue(3);
    container.load(new ContainerModule(load));
    return container;
  }

  it('makes the class once from the services named, in the order of its parameters', () => {
    const container = containerWith(({ bind }) => bindSingleton(bind, Greeter, [Name, Count]));
    const greeter = container.get(Greeter);
    expect([greeter.name, greeter.count, greeter.suffix]).toEqual(['Ana', 3, '!']);
    expect(container.get(Greeter)).toBe(greeter);
  });

  it('passes the optional parameters too when they are named', () => {
    const Suffix = Symbol.for('test.Suffix');
    const container = containerWith(({ bind }) => {
      bind(Suffix).toConstantValue('?');
      bindSingleton(bind, Greeter, [Name, Count, Suffix]);
    });
    expect(container.get(Greeter).suffix).toBe('?');
  });
});
