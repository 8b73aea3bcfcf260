/**
 * One value per server process, whatever the number of module copies: Next bundles routes,
 * server actions and instrumentation separately, so a module-level variable can exist twice in
 * one process, and a development reload re-runs modules. The value is kept on `globalThis`
 * under a registry symbol every copy shares. The one way this code base holds singletons.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const registry = globalThis as unknown as Record<symbol, T | undefined>;
  const key = Symbol.for(`tradein-shop.${name}`);
  registry[key] ??= create();
  return registry[key];
}

/** Replaces a process singleton (tests install their own database client with it). */
export function replaceProcessSingleton<T>(name: string, value: T): void {
  (globalThis as unknown as Record<symbol, T>)[Symbol.for(`tradein-shop.${name}`)] = value;
}
