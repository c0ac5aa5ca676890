import { camelCased, type CamelCased } from './camel-cased.js';

/** A config-file section with its defaults filled in; settings without a default stay optional. */
export type WithDefaults<Section, Defaults> = Omit<Section, keyof Defaults> & Defaults;

/** The section's settings the file gives, over the defaults. */
export function withDefaults<Section extends object, Defaults extends Partial<Section>>(
  section: Section | undefined,
  defaults: Defaults,
): WithDefaults<Section, Defaults> {
  const filled: Record<string, unknown> = { ...defaults };
  for (const [name, value] of Object.entries(section ?? {})) if (value !== undefined) filled[name] = value;
  return filled as WithDefaults<Section, Defaults>;
}

/**
 * A config-file section as the gateway's options hold it: each setting under its camelCase name, except
 * the `converted` ones, which `convert` turns into other units or shapes (megabytes into bytes...).
 */
export type SectionSettings<Section, Converted extends keyof Section, Conversions> = CamelCased<
  Omit<Section, Converted>
> &
  Conversions;

export function sectionSettings<Section extends object, Converted extends keyof Section, Conversions extends object>(
  section: Section,
  converted: readonly Converted[],
  convert: (section: Section) => Conversions,
): SectionSettings<Section, Converted, Conversions> {
  const kept = Object.fromEntries(
    Object.entries(section).filter(([name]) => !(converted as readonly PropertyKey[]).includes(name)),
  ) as Omit<Section, Converted>;
  return { ...camelCased(kept), ...convert(section) };
}
