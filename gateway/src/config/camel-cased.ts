/** `request_log_size` as `requestLogSize`: the name a config-file setting has in the gateway's options. */
export type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/** An object's fields under their camelCase names. */
export type CamelCased<T> = { [K in keyof T & string as CamelCase<K>]: T[K] };

export function camelCased<T extends object>(value: T): CamelCased<T> {
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase()),
      field,
    ]),
  ) as CamelCased<T>;
}
