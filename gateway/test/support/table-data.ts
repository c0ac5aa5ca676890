/**
 * Real tabular data this project did not write (sources and licences: bench/ocr/SOURCES.md, "Tables"),
 * as rows of cell texts with a header row: yearly carbon dioxide at Mauna Loa and worldwide (NOAA),
 * and the tz database's country codes and time zones.
 */
import { readFileSync } from 'node:fs';

const file = (name: string) => readFileSync(new URL(`./tables/${name}`, import.meta.url), 'utf8');

/** Year, Mauna Loa mean, Uncertainty, Global mean, Annual increase (ppm), 1959 on; the global mean starts in 1979. */
export function co2Table(): string[][] {
  return file('co2-annual.csv')
    .trim()
    .split('\n')
    .map((line) => line.split(','));
}

/** Code, Country (ISO 3166 alpha-2, as the tz database lists them). */
export function countryTable(): string[][] {
  const rows = file('iso3166.tab')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  return [['Code', 'Country'], ...rows];
}

/** Countries, Coordinates, Time zone, Comments (the tz database's zone1970.tab). */
export function zoneTable(): string[][] {
  const rows = file('zone1970.tab')
    .trim()
    .split('\n')
    .map((line) => {
      const [codes, coordinates, zone, comment = ''] = line.split('\t');
      return [codes, coordinates, zone, comment];
    });
  return [['Countries', 'Coordinates', 'Time zone', 'Comments'], ...rows];
}
