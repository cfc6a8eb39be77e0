import type { ContainerModuleLoadOptions, MapToResolvedValueInjectOptions } from 'inversify';

/** The leading parameters of a parameter list that are not optional. */
type RequiredParameters<Args extends unknown[]> = Args extends [infer First, ...infer Rest] ? [First, ...RequiredParameters<Rest>] : [];

/**
 * Binds a class as its own token, made once as `new Service(...deps)` from the services `deps`
 * names, in the order of the constructor's parameters (all of them, or only those that are not
 * optional). A class token is checked against its parameter's type; a symbol token is not (as
 * with `toResolvedValue`): name the one the parameter means.
 */
export function bindSingleton<Args extends unknown[], T>(
  bind: ContainerModuleLoadOptions['bind'],
  service: new (...args: Args) => T,
  deps: MapToResolvedValueInjectOptions<Args> | MapToResolvedValueInjectOptions<RequiredParameters<Args>>,
): void {
  bind(service)
    .toResolvedValue((...args: Args) => new service(...args), deps as MapToResolvedValueInjectOptions<Args>)
    .inSingletonScope();
}
